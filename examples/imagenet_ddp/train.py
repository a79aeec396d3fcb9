#!/usr/bin/env python3
"""ImageNet-style training with DistributedDataParallel and mixed precision.

Written for the npuify repository as a typical CUDA training script: one
process per GPU (started by torchrun / run.sh, or spawned here with
--multiprocessing-distributed), NCCL, torch.cuda.amp, cudnn.benchmark and
checkpoints that resume onto the process's own GPU. With --dummy it trains
on random images, so it needs no dataset.
"""
import argparse
import os
import random
import shutil
import time
import warnings

import torch
import torch.backends.cudnn as cudnn
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.optim
import torch.utils.data
import torch.utils.data.distributed
import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms
from torch.cuda.amp import GradScaler, autocast
from torch.nn.parallel import DistributedDataParallel

model_names = sorted(
    name for name in models.__dict__
    if name.islower() and not name.startswith("__")
    and callable(models.__dict__[name]))

parser = argparse.ArgumentParser(description="PyTorch ImageNet Training")
parser.add_argument("data", metavar="DIR", nargs="?", default="imagenet",
                    help="path to dataset (default: imagenet)")
parser.add_argument("-a", "--arch", metavar="ARCH", default="resnet18",
                    choices=model_names,
                    help="model architecture: " + " | ".join(model_names))
parser.add_argument("-j", "--workers", default=4, type=int, metavar="N",
                    help="number of data loading workers (default: 4)")
parser.add_argument("--epochs", default=90, type=int, metavar="N")
parser.add_argument("--steps", default=0, type=int,
                    help="stop each epoch after this many steps (0: all)")
parser.add_argument("-b", "--batch-size", default=256, type=int, metavar="N",
                    help="total mini-batch size over all GPUs")
parser.add_argument("--lr", "--learning-rate", default=0.1, type=float,
                    dest="lr")
parser.add_argument("--momentum", default=0.9, type=float)
parser.add_argument("--wd", "--weight-decay", default=1e-4, type=float,
                    dest="weight_decay")
parser.add_argument("-p", "--print-freq", default=10, type=int)
parser.add_argument("--resume", default="", type=str, metavar="PATH",
                    help="path to latest checkpoint (default: none)")
parser.add_argument("--world-size", default=-1, type=int,
                    help="number of nodes for distributed training")
parser.add_argument("--rank", default=-1, type=int,
                    help="node rank for distributed training")
parser.add_argument("--dist-url", default="env://", type=str,
                    help="url used to set up distributed training")
parser.add_argument("--dist-backend", default="nccl", type=str,
                    help="distributed backend")
parser.add_argument("--seed", default=None, type=int)
parser.add_argument("--gpu", default=None, type=int,
                    help="GPU id to use.")
parser.add_argument("--local_rank", "--local-rank", default=-1, type=int,
                    help="set by torch.distributed.launch")
parser.add_argument("--multiprocessing-distributed", action="store_true",
                    help="spawn one process per GPU on this node")
parser.add_argument("--amp", action=argparse.BooleanOptionalAction,
                    default=True,
                    help="use torch.cuda.amp mixed precision (default: on)")
parser.add_argument("--dummy", action="store_true",
                    help="use fake data to benchmark")

best_acc1 = 0


def main():
    args = parser.parse_args()
    if args.seed is not None:
        random.seed(args.seed)
        torch.manual_seed(args.seed)
        cudnn.deterministic = True
        warnings.warn("You have chosen to seed training; cudnn.deterministic "
                      "slows it down.")

    # Keep NCCL quiet unless the user asked for more, and fail fast on hangs.
    os.environ.setdefault("NCCL_DEBUG", "WARN")
    os.environ["NCCL_ASYNC_ERROR_HANDLING"] = "1"
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        print("CUDA_VISIBLE_DEVICES=" + visible)

    if args.local_rank == -1 and "LOCAL_RANK" in os.environ:
        args.local_rank = int(os.environ["LOCAL_RANK"])
    if args.gpu is None and args.local_rank >= 0:
        args.gpu = args.local_rank

    if args.dist_url == "env://" and args.world_size == -1:
        args.world_size = int(os.environ.get("WORLD_SIZE", 1))
    args.distributed = args.world_size > 1 or args.multiprocessing_distributed

    ngpus_per_node = torch.cuda.device_count()
    if args.multiprocessing_distributed:
        args.world_size = ngpus_per_node * args.world_size
        mp.spawn(main_worker, nprocs=ngpus_per_node,
                 args=(ngpus_per_node, args))
    else:
        main_worker(args.gpu, ngpus_per_node, args)


def main_worker(gpu, ngpus_per_node, args):
    global best_acc1
    args.gpu = gpu
    if args.gpu is not None:
        print(f"=> using cuda device {args.gpu} for training")

    if args.distributed:
        if args.dist_url == "env://" and args.rank == -1:
            args.rank = int(os.environ.get("RANK", 0))
        if args.multiprocessing_distributed:
            args.rank = args.rank * ngpus_per_node + gpu
        dist.init_process_group(backend=args.dist_backend,
                                init_method=args.dist_url,
                                world_size=args.world_size, rank=args.rank)

    model = models.__dict__[args.arch]()
    if not torch.cuda.is_available():
        print("using CPU, this will be slow")
    elif args.distributed:
        if args.gpu is not None:
            torch.cuda.set_device(args.gpu)
            model.cuda(args.gpu)
            # One process per GPU: split the batch and the loader workers.
            args.batch_size = int(args.batch_size / ngpus_per_node)
            args.workers = int((args.workers + ngpus_per_node - 1)
                               / ngpus_per_node)
            model = DistributedDataParallel(model, device_ids=[args.gpu])
        else:
            model.cuda()
            model = DistributedDataParallel(model)
    elif args.gpu is not None:
        torch.cuda.set_device(args.gpu)
        model = model.cuda(args.gpu)
    else:
        model = torch.nn.DataParallel(model).cuda()

    if torch.cuda.is_available():
        device = torch.device("cuda:{}".format(args.gpu)
                              if args.gpu is not None else "cuda")
    else:
        device = torch.device("cpu")

    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), args.lr,
                                momentum=args.momentum,
                                weight_decay=args.weight_decay)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30,
                                                gamma=0.1)
    scaler = GradScaler(enabled=args.amp)

    start_epoch = 0
    if args.resume:
        if os.path.isfile(args.resume):
            print("=> loading checkpoint '{}'".format(args.resume))
            if args.gpu is None:
                checkpoint = torch.load(args.resume)
            else:
                # Map the saved tensors onto this process's GPU.
                checkpoint = torch.load(args.resume,
                                        map_location=f"cuda:{args.gpu}")
            start_epoch = checkpoint["epoch"]
            best_acc1 = checkpoint["best_acc1"]
            model.load_state_dict(checkpoint["state_dict"])
            optimizer.load_state_dict(checkpoint["optimizer"])
            scheduler.load_state_dict(checkpoint["scheduler"])
            scaler.load_state_dict(checkpoint["scaler"])
        else:
            print("=> no checkpoint found at '{}'".format(args.resume))

    cudnn.benchmark = True

    train_loader, val_loader, train_sampler = make_loaders(args)

    for epoch in range(start_epoch, args.epochs):
        if args.distributed:
            train_sampler.set_epoch(epoch)
        train(train_loader, model, criterion, optimizer, scaler, epoch,
              device, args)
        acc1 = validate(val_loader, model, criterion, device, args)
        scheduler.step()

        is_best = acc1 > best_acc1
        best_acc1 = max(acc1, best_acc1)
        if not args.multiprocessing_distributed or args.rank % ngpus_per_node == 0:
            save_checkpoint({
                "epoch": epoch + 1,
                "arch": args.arch,
                "state_dict": model.state_dict(),
                "best_acc1": best_acc1,
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "scaler": scaler.state_dict(),
            }, is_best)

    if args.distributed:
        dist.destroy_process_group()


def make_loaders(args):
    if args.dummy:
        print("=> Dummy data is used!")
        train_dataset = datasets.FakeData(1281, (3, 224, 224), 1000,
                                          transforms.ToTensor())
        val_dataset = datasets.FakeData(500, (3, 224, 224), 1000,
                                        transforms.ToTensor())
    else:
        normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406],
                                         std=[0.229, 0.224, 0.225])
        train_dataset = datasets.ImageFolder(
            os.path.join(args.data, "train"),
            transforms.Compose([transforms.RandomResizedCrop(224),
                                transforms.RandomHorizontalFlip(),
                                transforms.ToTensor(), normalize]))
        val_dataset = datasets.ImageFolder(
            os.path.join(args.data, "val"),
            transforms.Compose([transforms.Resize(256),
                                transforms.CenterCrop(224),
                                transforms.ToTensor(), normalize]))

    if args.distributed:
        train_sampler = torch.utils.data.distributed.DistributedSampler(
            train_dataset)
        val_sampler = torch.utils.data.distributed.DistributedSampler(
            val_dataset, shuffle=False, drop_last=True)
    else:
        train_sampler = None
        val_sampler = None

    train_loader = torch.utils.data.DataLoader(
        train_dataset, batch_size=args.batch_size,
        shuffle=(train_sampler is None), num_workers=args.workers,
        pin_memory=True, sampler=train_sampler)
    val_loader = torch.utils.data.DataLoader(
        val_dataset, batch_size=args.batch_size, shuffle=False,
        num_workers=args.workers, pin_memory=True, sampler=val_sampler)
    return train_loader, val_loader, train_sampler


def train(train_loader, model, criterion, optimizer, scaler, epoch, device,
          args):
    model.train()
    end = time.time()
    for i, (images, target) in enumerate(train_loader):
        if args.steps and i >= args.steps:
            break
        data_time = time.time() - end
        images = images.to(device, non_blocking=True)
        target = target.to(device, non_blocking=True)

        with autocast(enabled=args.amp):
            output = model(images)
            loss = criterion(output, target)

        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()

        if i % args.print_freq == 0:
            print(f"Epoch [{epoch}][{i}/{len(train_loader)}] "
                  f"loss {loss.item():.4f} data {data_time:.3f}s "
                  f"batch {time.time() - end:.3f}s")
        end = time.time()


def validate(val_loader, model, criterion, device, args):
    model.eval()
    correct = torch.zeros(1, device=device)
    seen = torch.zeros(1, device=device)
    with torch.no_grad():
        for i, (images, target) in enumerate(val_loader):
            if args.steps and i >= args.steps:
                break
            if args.gpu is not None and torch.cuda.is_available():
                images = images.cuda(args.gpu, non_blocking=True)
                target = target.cuda(args.gpu, non_blocking=True)
            with autocast(enabled=args.amp):
                output = model(images)
                loss = criterion(output, target)
            correct += (output.argmax(1) == target).sum()
            seen += target.numel()
    if args.distributed:
        dist.all_reduce(correct)
        dist.all_reduce(seen)
    acc1 = (100.0 * correct / seen.clamp(min=1)).item()
    print(f" * Acc@1 {acc1:.3f} (last loss {loss.item():.4f})")
    return acc1


def save_checkpoint(state, is_best, filename="checkpoint.pth.tar"):
    torch.save(state, filename)
    if is_best:
        shutil.copyfile(filename, "model_best.pth.tar")


if __name__ == "__main__":
    main()
