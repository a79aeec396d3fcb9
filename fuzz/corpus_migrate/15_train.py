import argparse
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=0)
parser.add_argument("--gpu", default=None)
args = parser.parse_args()

local_rank = int(os.environ["LOCAL_RANK"])
rank = dist.get_rank()
torch.cuda.set_device(local_rank)

model = torch.nn.Linear(2, 2)
model = model.to(0)
model = model.to(local_rank)
model = model.cuda(args.local_rank)
model = DDP(model, device_ids=[args.local_rank], output_device=args.local_rank)
x = torch.zeros(2, device=rank)
state = torch.load("m.pt", map_location=local_rank)
y = x.to(args.gpu)
z = x.to(torch.float16)
w = x.to(device)
