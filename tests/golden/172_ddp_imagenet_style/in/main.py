import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--dist-backend", default="nccl", type=str)
parser.add_argument("--multiprocessing-distributed", action="store_true")
parser.add_argument("--gpu", default=None, type=int)


def main():
    args = parser.parse_args()
    ngpus_per_node = torch.cuda.device_count()
    if args.multiprocessing_distributed:
        mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))
    else:
        main_worker(args.gpu, ngpus_per_node, args)


def main_worker(gpu, ngpus_per_node, args):
    model = nn.Linear(4, 2)
    if args.multiprocessing_distributed:
        dist.init_process_group(backend=args.dist_backend,
                                init_method="env://",
                                world_size=ngpus_per_node, rank=gpu)
        torch.cuda.set_device(gpu)
        model.cuda(gpu)
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[gpu])
    elif ngpus_per_node > 1:
        model = torch.nn.DataParallel(model).cuda()
    else:
        model = model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 4).cuda()
    loss = model(x).sum()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    main()
