import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel

os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"
os.environ.setdefault("NCCL_SOCKET_IFNAME", "eth0")
os.environ["NCCL_DEBUG"] = "INFO"
timeout = os.getenv("TORCH_NCCL_BLOCKING_WAIT", "0")
env = {"NCCL_ASYNC_ERROR_HANDLING": "1"}

parser = argparse.ArgumentParser()
parser.add_argument("--dist-backend", default="nccl", type=str)
args = parser.parse_args()


def setup(rank, world):
    dist.init_process_group("nccl", rank=rank, world_size=world)
    dist.init_process_group(backend="nccl", init_method="env://")
    dist.init_process_group(backend=args.dist_backend)
    if dist.is_nccl_available():
        print("nccl available")
    if dist.get_backend() == "nccl":
        pass
    if dist.get_backend() == dist.Backend.NCCL:
        pass
    g = dist.new_group(ranks=[0, 1], backend="nccl")
    dist.init_process_group(backend="cuda:nccl,cpu:gloo")
    return g


def wrap(model):
    dp = nn.DataParallel(model)
    dp2 = torch.nn.parallel.DataParallel(model)
    return DistributedDataParallel(model), dp, dp2
