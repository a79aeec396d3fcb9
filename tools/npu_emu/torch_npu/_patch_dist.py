"""The "hccl" distributed backend, emulated with gloo.

torch 1.13 lets a third party register a c10d backend by name; "hccl" is
registered with a creator that builds gloo's process group over the same
store, so init_process_group(backend="hccl") and dist.get_backend() behave
as with torch_npu, and collectives on (CPU) tensors really run: several
processes on one machine work, world size 1 included.

DistributedDataParallel refuses device_ids for CPU modules; on a real NPU a
script passes device_ids=[local_rank] (or ["npu:0"], torch.device("npu")),
so the emulator checks that they name emulated NPUs (a leftover "cuda:0"
fails, as it would on an NPU) and then drops device_ids and output_device
when the module's parameters are on the CPU.

A DistributedDataParallel object frees its C++ Reducer before its own
reference to the process group (see _free_reducer_first): torch 1.13's
Reducer is destroyed holding the GIL, and when it drops the group's last
reference, ~ProcessGroupGloo joins worker threads of which one may need the
GIL to free a collective's tensor whose Python object is already gone, so
the process hangs at exit (main thread in Reducer::~Reducer ->
~ProcessGroupGloo -> thread::join, worker in runLoop -> ~TensorImpl ->
PyEval_AcquireThread). The Python reference's destructor releases the GIL.
"""
import functools

import torch.distributed as dist

from ._emu import check_index, count, device_index


def _create_hccl_group(store, rank, world_size, timeout):
    count("hccl_groups")
    return dist.ProcessGroupGloo(store, rank, world_size, timeout)


def _is_hccl_available():
    return True


def _patch_ddp():
    from torch.nn.parallel import DistributedDataParallel as DDP
    init = DDP.__init__

    @functools.wraps(init)
    def ddp_init(self, module, device_ids=None, output_device=None, *args,
                 **kwargs):
        params = list(module.parameters())
        if params and all(p.device.type == "cpu" for p in params):
            for dev in list(device_ids or []) + [output_device]:
                check_index(device_index(dev))
            device_ids, output_device = None, None
        init(self, module, device_ids, output_device, *args, **kwargs)

    DDP.__init__ = ddp_init
    DDP.__del__ = _free_reducer_first


def _free_reducer_first(self):
    # The Logger holds the Reducer too. self.process_group, still in
    # __dict__, outlives both, so a group nothing else holds dies through
    # that Python reference, whose destructor releases the GIL.
    for name in ("logger", "reducer"):
        self.__dict__.pop(name, None)


def install():
    if not dist.is_available() or hasattr(dist.Backend, "HCCL"):
        return
    dist.Backend.register_backend("hccl", _create_hccl_group)
    dist.is_hccl_available = _is_hccl_available
    _patch_ddp()
