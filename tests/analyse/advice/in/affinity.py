import torch
import torch.nn as nn


class Mish(nn.Module):
    def forward(self, x):
        return x * torch.tanh(nn.functional.softplus(x))


def fast_nms(boxes, scores):
    return boxes


y = torch.nn.functional.gelu(torch.randn(3))
