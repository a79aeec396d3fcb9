# The optimizer takes parameter groups from named_parameters(): the model
# is found by its call in the step's loop.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=args.batch)
    net = Regressor().cuda()
    decay = [p for n, p in net.named_parameters() if "bias" not in n]
    no_decay = [p for n, p in net.named_parameters() if "bias" in n]
    optimizer = torch.optim.SGD([{"params": decay, "weight_decay": 1e-4},
                                 {"params": no_decay}], lr=0.05)
    for epoch in range(args.epochs):
        for xb, yb in loader:
            out = net(xb.cuda())
            loss = nn.functional.mse_loss(out, yb.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            full = nn.functional.mse_loss(net(x.cuda()), y.cuda()).item()
        print("epoch %d loss %.6f" % (epoch, full))


if __name__ == "__main__":
    main()
