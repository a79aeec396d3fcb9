# Train, validation and test loaders: only the one the step loop iterates
# is the training loader (none of them shuffles).
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader):
    with torch.no_grad():
        return sum(nn.functional.mse_loss(model(a.cuda()), b.cuda()).item()
                   for a, b in loader)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(96, 8)
    y = x.sum(dim=1, keepdim=True)
    train_set = TensorDataset(x[:64], y[:64])
    val_set = TensorDataset(x[64:80], y[64:80])
    test_set = TensorDataset(x[80:], y[80:])
    val_loader = DataLoader(val_set, batch_size=16)
    train_loader = DataLoader(train_set, batch_size=args.batch)
    test_loader = DataLoader(test_set, batch_size=16)
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        for xb, yb in train_loader:
            loss = nn.functional.mse_loss(model(xb.cuda()), yb.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("val %.6f" % evaluate(model, val_loader))
        print("epoch %d loss %.6f" % (epoch, evaluate(model, test_loader)))


if __name__ == "__main__":
    main()
