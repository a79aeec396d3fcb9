import torch

net = torch.jit.load("model.pt").cuda()
