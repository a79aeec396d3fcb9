import torch
import torch_npu
from torch.npu.amp import GradScaler, autocast

scaler = GradScaler()


def step(model, x, opt):
    with autocast():
        loss = model(x).sum()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    with torch.npu.amp.autocast(dtype=torch.float16):
        pass
    with torch.autocast("npu", dtype=torch.bfloat16):
        pass
