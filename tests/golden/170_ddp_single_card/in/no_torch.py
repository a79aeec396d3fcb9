import torch.nn as nn


def wrap(model):
    return nn.DataParallel(model)
