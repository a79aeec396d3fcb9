import torch
import torch.nn as nn
from torch.utils.data import DataLoader

model = nn.Linear(2, 2).cuda()


def train(loader, opt, crit):
    for x, y in loader:
        x = x.cuda()
        out = model(x)
        loss = crit(out, y.cuda())
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
