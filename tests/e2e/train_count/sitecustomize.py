# Test double for check_distributed's training suite: with TRAIN_COUNT set,
# count the batches and samples each DataLoader (by creation order) yields
# in this process and write them at exit to $TRAIN_COUNT.$RANK as JSON.
import atexit
import json
import os

_path = os.environ.get("TRAIN_COUNT")
if _path:
    import torch.utils.data as _tud

    _counts = []
    _init = _tud.DataLoader.__init__
    _iter = _tud.DataLoader.__iter__

    def _counted_init(self, *args, **kwargs):
        _init(self, *args, **kwargs)
        object.__setattr__(self, "_train_count_index", len(_counts))
        _counts.append([0, 0])

    def _counted_iter(self):
        slot = _counts[self._train_count_index]
        for batch in _iter(self):
            first = batch[0] if isinstance(batch, (list, tuple)) else batch
            slot[0] += 1
            slot[1] += len(first)
            yield batch

    def _write():
        with open("%s.%s" % (_path, os.environ.get("RANK", "0")), "w") as f:
            json.dump(_counts, f)

    _tud.DataLoader.__init__ = _counted_init
    _tud.DataLoader.__iter__ = _counted_iter
    atexit.register(_write)
