# The training loader passed to train(args, model, loader, ...).
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = F.mse_loss(model(data), target)
        loss.backward()
        optimizer.step()


def test(model, device, x, y, epoch):
    with torch.no_grad():
        full = F.mse_loss(model(x.to(device)), y.to(device)).item()
    print("epoch %d loss %.6f" % (epoch, full))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda")
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    train_loader = DataLoader(TensorDataset(x, y), batch_size=args.batch)
    model = Net().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        train(args, model, device, train_loader, optimizer, epoch)
        test(model, device, x, y, epoch)


if __name__ == "__main__":
    main()
