"""Device strings: rewritten only where they reach a device.

The word cuda in this docstring stays.
"""
import logging

import torch
import torch_npu

log = logging.getLogger(__name__)


def place(x, i, use_gpu=True):
    a = torch.device("npu")
    b = torch.device('npu:0')
    c = torch.device(f"npu:{i}")
    d = torch.device("npu:%d" % i)
    e = torch.device("npu:{}".format(i))
    f = torch.device("npu:" + str(i))
    g = torch.zeros(3, device="npu")
    h = torch.randn(2, 2, device=f"npu:{i}")
    y = x.to("npu")
    z = x.to(device="npu:1", non_blocking=True)
    s = torch.load("ckpt.pt", map_location="npu:0")
    loader_kw = dict(pin_memory_device="npu")
    with torch.autocast(device_type="npu", dtype=torch.float16):
        pass
    if x.device.type == "npu":
        log.info("tensor already on cuda")
    if str(x.device) != "npu:0":
        pass
    dev = "npu" if use_gpu else "cpu"
    w = x.to(dev)
    self_device = "npu:0"
    k = torch.device(f"npu:{torch.npu.current_device()}")
    m = x.to(f"npu:{torch.npu.current_device()}")
    return a, b, c, d, e, f, g, h, y, z, s, loader_kw, w, self_device, k, m


def untouched(x):
    # cuda in a comment stays
    print("moving the model to cuda")
    log.warning(f"cuda:{0} is busy")
    path = "kernels/cuda_ops.cu"
    table = {"cuda": 1, "cpu": 0}
    name = "cuda"
    raise RuntimeError("cuda out of memory")
