import argparse

import torch
import torch.distributed as dist


def init(args):
    dist.init_process_group(
        backend=("nccl" if args.cuda else "gloo"),
        init_method="env://",
        world_size=args.world_size,
        rank=args.rank,
    )
    name = "nccl" if args.cuda else "gloo"
    dist.new_group(ranks=[0, 1], backend=(name))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--cuda", action="store_true")
    p.add_argument("--world-size", type=int, default=1)
    p.add_argument("--rank", type=int, default=0)
    init(p.parse_args())
