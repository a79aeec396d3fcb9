# LBFGS with a closure: GradScaler cannot step it, bf16 autocast can.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=args.batch)
    model = nn.Linear(8, 1).cuda()
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.1, max_iter=4)
    criterion = nn.MSELoss()
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.cuda(), yb.cuda()

            def closure():
                optimizer.zero_grad()
                out = model(xb)
                loss = criterion(out, yb)
                loss.backward()
                return loss

            optimizer.step(closure)
        with torch.no_grad():
            full = criterion(model(x.cuda()), y.cuda()).item()
        print("epoch %d loss %.6f" % (epoch, full))


if __name__ == "__main__":
    main()
