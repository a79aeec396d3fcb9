#!/usr/bin/env python3
"""A small CNN trained on synthetic 32x32 images, the CUDA way.

Written for the npuify repository: it moves everything with .cuda(), picks
the device with torch.cuda.is_available(), wraps the model in nn.DataParallel
when several GPUs are visible and trains in plain fp32 (no AMP, which npuify
must point out). It also runs on the CPU, so it can be tried anywhere:

    python3 train.py --steps 3
"""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32 * 8 * 8, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(torch.flatten(x, 1))


def synthetic_data(n, num_classes, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.randn(n, 3, 32, 32, generator=g)
    labels = torch.randint(0, num_classes, (n,), generator=g)
    return TensorDataset(images, labels)


def parse_args():
    parser = argparse.ArgumentParser(description="small CNN on synthetic data")
    parser.add_argument("--steps", type=int, default=100,
                        help="training steps (default: 100)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--no-cuda", action="store_true",
                        help="train on the CPU even if CUDA is available")
    parser.add_argument("--save", default="",
                        help="write the trained weights here")
    return parser.parse_args()


def main():
    args = parse_args()
    use_cuda = torch.cuda.is_available() and not args.no_cuda
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if args.no_cuda:
        device = torch.device("cpu")
    torch.manual_seed(0)

    model = SmallCNN()
    if use_cuda:
        model = model.cuda()
        if torch.cuda.device_count() > 1:
            print(f"using {torch.cuda.device_count()} GPUs with DataParallel")
            model = nn.DataParallel(model)
    criterion = nn.CrossEntropyLoss()
    if use_cuda:
        criterion = criterion.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)

    data = synthetic_data(args.steps * args.batch_size, 10, seed=1)
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True,
                        pin_memory=use_cuda)

    model.train()
    start = time.time()
    for step, (images, labels) in enumerate(loader):
        if step >= args.steps:
            break
        if use_cuda:
            images = images.cuda(non_blocking=True)
            labels = labels.cuda(non_blocking=True)
        else:
            images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        if step % 10 == 0 or step == args.steps - 1:
            print(f"step {step}: loss {loss.item():.4f} on {device.type}")

    # A quick accuracy check on fresh data, on the same device.
    model.eval()
    test = synthetic_data(256, 10, seed=2)
    x, y = test.tensors
    x = x.cuda() if use_cuda else x
    y = y.cuda() if use_cuda else y
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    print(f"done: {args.steps} steps in {time.time() - start:.2f}s, "
          f"accuracy {acc:.3f}")
    if args.save:
        torch.save(model.state_dict(), args.save)


if __name__ == "__main__":
    main()
