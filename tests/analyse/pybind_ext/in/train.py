import torch
import fused_ext
from torch.utils.cpp_extension import load

jit = load(name="fused_jit", sources=["csrc/fused.cu"])


def step(x):
    y = fused_ext.fused_gelu(x)
    z = jit.fused_gelu(y)
    w = fused_ext.version()  # not defined by csrc/: no finding
    return torch.relu(z), w


try:
    import cpu_ops
except ImportError:
    cpu_ops = None


def pairs(x):
    return cpu_ops.count_pairs(x)
