import torch
from torch import nn
def f(m):
    if isinstance(m, (nn.DataParallel, nn.parallel.DistributedDataParallel)):
        m = m.module
    return nn.DataParallel(m)
