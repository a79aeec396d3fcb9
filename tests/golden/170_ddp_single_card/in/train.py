import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 1)
        self.width = 16

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    train_set = TensorDataset(x, y)
    loader = DataLoader(train_set, batch_size=args.batch, shuffle=True)
    model = Net().to(device)
    print("width", model.width)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    crit = nn.MSELoss()
    for epoch in range(args.epochs):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = crit(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            full = crit(model(x.to(device)), y.to(device)).item()
        print("epoch %d loss %.6f" % (epoch, full))
    torch.save(model.state_dict(), "model.pt")


if __name__ == "__main__":
    main()
