import torch

x = torch.zeros(2).cuda(
def f(:
    return torch.device("cuda")
