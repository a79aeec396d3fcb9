# No main(): model, optimizer and loader are built at module level; the
# __main__ guard only runs the epochs.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--batch", type=int, default=16)
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
torch.manual_seed(0)
x = torch.randn(64, 8)
y = x.sum(dim=1, keepdim=True)
loader = DataLoader(TensorDataset(x, y), batch_size=args.batch, shuffle=False)
model = nn.Linear(8, 1).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)


def train_epoch():
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb.cuda()), yb.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    for epoch in range(args.epochs):
        train_epoch()
        with torch.no_grad():
            full = nn.functional.mse_loss(model(x.cuda()), y.cuda()).item()
        print("epoch %d loss %.6f" % (epoch, full))
