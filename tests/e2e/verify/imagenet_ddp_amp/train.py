"""ImageNet-style: argparse, DDP (env:// world of one), torch.cuda.amp,
.cuda(args.gpu, non_blocking=True). Written for npuify's e2e suite."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c)

    def forward(self, x):
        return F.relu(x + self.bn(self.conv(x)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gpu", default=0, type=int)
    p.add_argument("--steps", default=4, type=int)
    p.add_argument("--dist-backend", default="nccl")
    args = p.parse_args()
    torch.manual_seed(0)
    use_cuda = torch.cuda.is_available()
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", os.environ.get("E2E_PORT", "29511"))
    backend = args.dist_backend if use_cuda else "gloo"
    dist.init_process_group(backend=backend, rank=0, world_size=1)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), ResBlock(8),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(8, 10))
    if use_cuda:
        torch.cuda.set_device(args.gpu)
        model.cuda(args.gpu)
        model = DDP(model, device_ids=[args.gpu])
    else:
        model = DDP(model)
    criterion = nn.CrossEntropyLoss().cuda(args.gpu) if use_cuda \
        else nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.cuda.amp.GradScaler(enabled=use_cuda)
    g = torch.Generator().manual_seed(1)
    for step in range(args.steps):
        images = torch.randn(8, 3, 16, 16, generator=g)
        target = torch.randint(0, 10, (8,), generator=g)
        if use_cuda:
            images = images.cuda(args.gpu, non_blocking=True)
            target = target.cuda(args.gpu, non_blocking=True)
        with torch.cuda.amp.autocast(enabled=use_cuda):
            loss = criterion(model(images), target)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        print(f"loss {loss.item():.9g}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
