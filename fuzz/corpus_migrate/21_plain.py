import torch


def step(model, x, opt):
    loss = model(x.cuda()).sum()
    loss.backward()
    opt.step()
