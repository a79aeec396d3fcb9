# The dataset built inside the DataLoader call.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=args.batch,
                        shuffle=True)
    model = nn.Linear(8, 1).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb.cuda()), yb.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            full = nn.functional.mse_loss(model(x.cuda()), y.cuda()).item()
        print("epoch %d loss %.6f" % (epoch, full))


if __name__ == "__main__":
    main()
