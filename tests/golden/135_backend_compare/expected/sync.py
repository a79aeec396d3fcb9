import torch
import torch_npu
import torch.distributed as dist


def all_reduce_mean(t, group=None):
    if dist.get_backend(group) == "hccl":
        t = t.to(torch.device("npu", torch.npu.current_device()))
    dist.all_reduce(t, group=group)
    return t / dist.get_world_size(group)


def gather_device(group=None):
    return "npu" if dist.get_backend(group) == "hccl" else "cpu"


def is_nccl(kind):
    return kind == "nccl"
