import argparse
import os

import torch
import torch_npu
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel

os.environ["ASCEND_RT_VISIBLE_DEVICES"] = "0,1"
os.environ.setdefault("HCCL_SOCKET_IFNAME", "eth0")
os.environ["NCCL_DEBUG"] = "INFO"
timeout = os.getenv("TORCH_HCCL_BLOCKING_WAIT", "0")
env = {"HCCL_ASYNC_ERROR_HANDLING": "1"}

parser = argparse.ArgumentParser()
parser.add_argument("--dist-backend", default="hccl", type=str)
args = parser.parse_args()


def setup(rank, world):
    dist.init_process_group("hccl", rank=rank, world_size=world)
    dist.init_process_group(backend="hccl", init_method="env://")
    dist.init_process_group(backend=args.dist_backend)
    if dist.is_hccl_available():
        print("nccl available")
    if dist.get_backend() == "hccl":
        pass
    if dist.get_backend() == dist.Backend.HCCL:
        pass
    g = dist.new_group(ranks=[0, 1], backend="hccl")
    dist.init_process_group(backend="npu:hccl,cpu:gloo")
    return g


def wrap(model):
    dp = nn.DataParallel(model)
    dp2 = torch.nn.parallel.DataParallel(model)
    return DistributedDataParallel(model), dp, dp2
