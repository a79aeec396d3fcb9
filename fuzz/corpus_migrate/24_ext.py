import cupy
import triton
import triton.language as tl
from numba import cuda as nbcuda
import torch
from torch.utils.cpp_extension import CUDAExtension, load
from apex.optimizers import FusedAdam, FusedLAMB
from apex import amp

ops = load(name="ops", sources=["ops.cpp", "ops_kernel.cu"])
ops2 = load(name="ops2", sources=["ops2.cpp"])
ext = CUDAExtension("k", ["k.cpp", "k.cu"])


@triton.jit
def kernel(x_ptr):
    pass


def check(model, params):
    major, minor = torch.cuda.get_device_capability()
    props = torch.cuda.get_device_properties(0)
    if props.major >= 8:
        pass
    x = torch.zeros(2, dtype=torch.float64).double()
    opt = FusedAdam(params, lr=1e-3)
    model, opt = amp.initialize(model, opt)
    return x, opt


@torch.amp.custom_fwd(device_type="cuda")
def fwd(ctx, x):
    return x
