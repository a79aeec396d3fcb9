# A script with no function and no __main__ guard.
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
dataset = TensorDataset(x, y)
loader = DataLoader(dataset, batch_size=args.batch)
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
