"""Device strings: rewritten only where they reach a device.

The word cuda in this docstring stays.
"""
import logging

import torch

log = logging.getLogger(__name__)


def place(x, i, use_gpu=True):
    a = torch.device("cuda")
    b = torch.device('cuda:0')
    c = torch.device(f"cuda:{i}")
    d = torch.device("cuda:%d" % i)
    e = torch.device("cuda:{}".format(i))
    f = torch.device("cuda:" + str(i))
    g = torch.zeros(3, device="cuda")
    h = torch.randn(2, 2, device=f"cuda:{i}")
    y = x.to("cuda")
    z = x.to(device="cuda:1", non_blocking=True)
    s = torch.load("ckpt.pt", map_location="cuda:0")
    loader_kw = dict(pin_memory_device="cuda")
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        pass
    if x.device.type == "cuda":
        log.info("tensor already on cuda")
    if str(x.device) != "cuda:0":
        pass
    dev = "cuda" if use_gpu else "cpu"
    w = x.to(dev)
    self_device = "cuda:0"
    k = torch.device(f"cuda:{torch.cuda.current_device()}")
    m = x.to(torch.cuda.current_device())
    return a, b, c, d, e, f, g, h, y, z, s, loader_kw, w, self_device, k, m


def untouched(x):
    # cuda in a comment stays
    print("moving the model to cuda")
    log.warning(f"cuda:{0} is busy")
    path = "kernels/cuda_ops.cu"
    table = {"cuda": 1, "cpu": 0}
    name = "cuda"
    raise RuntimeError("cuda out of memory")
