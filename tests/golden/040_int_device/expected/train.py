import argparse
import os

import torch
import torch_npu
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=0)
parser.add_argument("--gpu", default=None)
args = parser.parse_args()

local_rank = int(os.environ["LOCAL_RANK"])
rank = dist.get_rank()
torch.npu.set_device(local_rank)

model = torch.nn.Linear(2, 2)
model = model.to("npu:0")
model = model.to(f"npu:{local_rank}")
model = model.npu(args.local_rank)
model = DDP(model, device_ids=[f"npu:{args.local_rank}"], output_device=f"npu:{args.local_rank}")
x = torch.zeros(2, device=f"npu:{rank}")
state = torch.load("m.pt", map_location=f"npu:{local_rank}")
y = x.to(args.gpu)
z = x.to(torch.float16)
w = x.to(device)
