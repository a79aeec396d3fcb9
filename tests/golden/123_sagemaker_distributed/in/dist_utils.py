import os

import torch
import torch.distributed as dist


def init_dist(backend="nccl"):
    if backend == "smddp":
        import smdistributed.dataparallel.torch.torch_smddp  # noqa: F401
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group(backend=backend)


def model_parallel():
    import smdistributed.modelparallel.torch as smp

    smp.init()
    return smp.local_rank()
