import torch
import torch.nn as nn


class Up(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose3d(4, 4, 3)

    def forward(self, x):
        return self.up(x)


def stats(a, b):
    return torch.cdist(a, b), torch.nanquantile(a, 0.5)
