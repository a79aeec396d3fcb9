# The training loader as item 0 of a list; an error log stays on every
# rank, info and warnings go to rank 0.
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

log = logging.getLogger("train")


def train(model, optimizer, x, y):
    loaders = [DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True),
               DataLoader(TensorDataset(x, y), batch_size=64)]
    for epoch in range(2):
        for xb, yb in loaders[0]:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(xb.cuda()), yb.cuda())
            loss.backward()
            optimizer.step()
        log.warning("epoch %d", epoch)
        if not torch.isfinite(loss):
            log.error("diverged at epoch %d", epoch)


if __name__ == "__main__":
    net = nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    data = torch.randn(64, 8)
    train(net, opt, data, data.sum(dim=1, keepdim=True))
