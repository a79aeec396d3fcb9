import torch

try:
    import flash_attn
    from apex.optimizers import FusedAdam
except ImportError:
    flash_attn = None
try:
    import xformers.ops  # the handler does not catch ImportError
except ValueError:
    xformers = None
import bitsandbytes


def quantize(m):
    if is_bnb_available():
        import bitsandbytes.nn as bnn

        m = bnn.Linear8bitLt(m)
    return m


def fast(m):
    if torch.cuda.is_available():  # the device, not a package: blocking
        import pycuda.autoinit
    return m
