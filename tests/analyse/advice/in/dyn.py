import torch
from torch.utils.data import DataLoader


def step(x, ds, kw):
    t = torch.randn(4)
    idx = torch.nonzero(x)
    u = t.unique()
    v = x[x > 0]
    w = x[:, 1:3]
    d = {"a": 1}["a"]
    act = torch.nn.SiLU()
    a = DataLoader(ds, batch_size=4)
    b = DataLoader(ds, batch_size=4, drop_last=True)
    c = DataLoader(ds, batch_size=4, drop_last=kw)
    e = DataLoader(ds, **kw)
    return idx, u, v, w, d, act, a, b, c, e
