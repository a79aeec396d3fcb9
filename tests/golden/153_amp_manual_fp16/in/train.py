import argparse

import torch

from net import Net

parser = argparse.ArgumentParser()
parser.add_argument("--loss-scale", type=float, default=128.0)
args = parser.parse_args()

model = Net().cuda().half()
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def step(x, y):
    out = model(x.cuda().half())
    loss = torch.nn.functional.mse_loss(out.float(), y.cuda())
    scaled = loss * args.loss_scale
    scaled.backward()
    for p in model.parameters():
        p.grad.div_(args.loss_scale)
    opt.step()
    return loss
