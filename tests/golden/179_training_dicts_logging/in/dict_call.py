# The loaders of a dict(...) call, the training one by its key.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    x = torch.randn(64, 8)
    y = x.sum(dim=1, keepdim=True)
    loaders = dict(train=DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True),
                   val=DataLoader(TensorDataset(x, y), batch_size=64))
    net = nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    for epoch in range(2):
        for xb, yb in loaders['train']:
            opt.zero_grad()
            loss = nn.functional.mse_loss(net(xb.cuda()), yb.cuda())
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
