# Loader options in a dict grown by update(), as pytorch/examples' mnist.
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
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    train_kwargs = {"batch_size": args.batch}
    test_kwargs = {"batch_size": 64}
    if torch.cuda.is_available():
        cuda_kwargs = {"num_workers": 0, "pin_memory": True}
        train_kwargs.update(cuda_kwargs)
    train_kwargs.update({"shuffle": False})
    dataset1 = TensorDataset(x, y)
    train_loader = DataLoader(dataset1, **train_kwargs)
    test_loader = DataLoader(TensorDataset(x, y), **test_kwargs)
    model = nn.Linear(8, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        for data, target in train_loader:
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(data), target)
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            full = sum(nn.functional.mse_loss(model(a.to(device)), b.to(device)).item()
                       for a, b in test_loader)
        print("epoch %d loss %.6f" % (epoch, full))


if __name__ == "__main__":
    main()
