import torch
import torch_npu
import torch.nn as nn
from torch.utils.data import DataLoader
amp_scaler = torch.npu.amp.GradScaler()

model = nn.Linear(2, 2).npu()


def train(loader, opt, crit):
    for x, y in loader:
        with torch.autocast(device_type="npu"):
            x = x.npu()
            out = model(x)
            loss = crit(out, y.npu())
        opt.zero_grad()
        amp_scaler.scale(loss).backward()
        amp_scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        amp_scaler.step(opt)
        amp_scaler.update()
