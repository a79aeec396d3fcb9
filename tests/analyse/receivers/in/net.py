import torch
import torch.nn as nn


def run(flag, t: torch.Tensor, u):
    m = nn.MaxPool2d(2)
    x = torch.randn(1, 1, 4, 4)
    y = m(x)
    z = m.forward(x)
    w = x.nanquantile(0.5)
    s = x.shape  # an attribute: no verdict
    v = t.cdist(t)
    q = u.cdist(u)  # u: type unknown, no row
    if flag:
        k = nn.MaxPool2d(2)
    else:
        k = lambda a: a
    r = k(x)  # k is not surely a MaxPool2d: no row
    return y, z, w, s, v, q, r, torch.special.zeta(x, x)
