import argparse

import torch
import torch_npu

from net import Net

parser = argparse.ArgumentParser()
parser.add_argument("--loss-scale", type=float, default=128.0)
args = parser.parse_args()

model = Net().npu().half()
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def step(x, y):
    out = model(x.npu().half())
    loss = torch.nn.functional.mse_loss(out.float(), y.npu())
    scaled = loss * args.loss_scale
    scaled.backward()
    for p in model.parameters():
        p.grad.div_(args.loss_scale)
    opt.step()
    return loss
