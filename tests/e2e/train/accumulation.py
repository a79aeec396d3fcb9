# Gradient accumulation over two micro-batches.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--accum", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=args.batch)
    model = nn.Linear(8, 1).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        for i, (xb, yb) in enumerate(loader):
            loss = nn.functional.mse_loss(model(xb.cuda()), yb.cuda())
            loss = loss / args.accum
            loss.backward()
            if (i + 1) % args.accum == 0:
                optimizer.step()
                optimizer.zero_grad()
        with torch.no_grad():
            full = nn.functional.mse_loss(model(x.cuda()), y.cuda()).item()
        print("epoch %d loss %.6f" % (epoch, full))


if __name__ == "__main__":
    main()
