import torch
import torch_npu


def step(model, x, opt):
    loss = model(x.npu()).sum()
    loss.backward()
    opt.step()
