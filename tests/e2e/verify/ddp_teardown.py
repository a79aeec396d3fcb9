"""A DDP job on the emulated NPU ends even when its process group dies while
a collective is still finishing. Run as 2 processes through torchrun_lite
with tools/npu_emu on PYTHONPATH; rank 0 prints "teardown ok".

torch 1.13's Reducer (DDP's C++ half) is destroyed holding the GIL. When it
drops the last reference to the process group, ~ProcessGroupGloo joins its
worker threads, and a worker still finishing a collective on a tensor whose
Python object is gone needs the GIL to free that tensor: both wait forever.
In a training script this takes a worker that is descheduled at the wrong
moment (1 run in ~100 on a loaded 2-core machine); here rank 0's worker is
held deterministically: rank 1 joins rank 0's all_reduce only once rank 0
is freeing its DDP object."""
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch_npu  # noqa: F401
from torch.nn.parallel import DistributedDataParallel

RANK1_DELAY_S = 0.5  # rank 0 reaches the teardown well within this


def main():
    dist.init_process_group("hccl")
    rank = dist.get_rank()
    store = dist.distributed_c10d._get_default_store()
    ddp = DistributedDataParallel(nn.Linear(2, 1).npu(), device_ids=[rank])
    if rank == 0:
        work = dist.all_reduce(torch.ones(1), async_op=True)
        del work  # only the worker thread holds the tensor now
        dist.destroy_process_group()  # ddp holds the last references
        store.set("teardown", "1")
        del ddp
        print("teardown ok", flush=True)
    else:
        store.wait(["teardown"])
        time.sleep(RANK1_DELAY_S)
        dist.all_reduce(torch.ones(1))
        dist.destroy_process_group()
        del ddp


if __name__ == "__main__":
    main()
