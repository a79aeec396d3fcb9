import torch
import torch.distributed as dist


def all_reduce_mean(t, group=None):
    if dist.get_backend(group) == "nccl":
        t = t.to(torch.device("cuda", torch.cuda.current_device()))
    dist.all_reduce(t, group=group)
    return t / dist.get_world_size(group)


def gather_device(group=None):
    return "cuda" if dist.get_backend(group) == "nccl" else "cpu"


def is_nccl(kind):
    return kind == "nccl"
