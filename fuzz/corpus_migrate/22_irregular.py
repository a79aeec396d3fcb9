import torch


def two_losses(model, opt, x):
    a = model(x).sum()
    b = model(x).mean()
    a.backward()
    b.backward()
    opt.step()


def no_step(model, x):
    loss = model(x).sum()
    loss.backward()
