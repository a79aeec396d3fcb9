import torch
from torch.cuda.amp import GradScaler, autocast

scaler = GradScaler()


def step(model, x, opt):
    with autocast():
        loss = model(x).sum()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    with torch.cuda.amp.autocast(dtype=torch.float16):
        pass
    with torch.autocast("cuda", dtype=torch.bfloat16):
        pass
