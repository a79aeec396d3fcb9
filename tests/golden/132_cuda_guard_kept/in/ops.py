import torch
import triton
from torch.utils import cpp_extension

_plugin = None


def _init():
    global _plugin
    if _plugin is None:
        _plugin = cpp_extension.load(
            name="shift_plugin", sources=["shift.cpp", "shift_kernel.cu"]
        )
    return True


class _ShiftCuda(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        return _plugin.shift(x, s)


def _shift_ref(x, s):
    return torch.roll(x, s, dims=-1)


def shift(x, s=1, impl="cuda"):
    assert impl in ["ref", "cuda"]
    if impl == "cuda" and x.device.type == "cuda" and _init():
        return _ShiftCuda.apply(x, s)
    return _shift_ref(x, s)


@triton.jit
def _scale_kernel(x_ptr, n):
    pass


def scale(x):
    if x.is_cuda:
        _scale_kernel[(1,)](x, x.numel())
        return x
    return x * 2


def shift_any(x):
    if x.device.type != "cuda":
        return _shift_ref(x, 1)
    return _ShiftCuda.apply(x, 1)


def shift_cpu_else(x):
    if x.device.type == "cpu":
        return _shift_ref(x, 1)
    return _ShiftCuda.apply(x, 1)


def _use_plugin(x):
    if x.device.type != "cuda":
        return False
    return True


def shift_pred(x):
    if _use_plugin(x):
        return _ShiftCuda.apply(x, 1)
    return _shift_ref(x, 1)


def shift_checked(x, y):
    assert x.is_cuda == True
    assert x.device.type == "cuda"
    out = torch.zeros_like(x)
    if x.is_cuda == True:
        out = _ShiftCuda.apply(x, 1)
    elif x.is_cuda == False:
        raise NotImplementedError()
    if x.device.type == "cuda":
        out = out + _ShiftCuda.apply(y, 1)
    return out


class ShiftLayer(torch.nn.Module):
    def _forward_cuda(self, x):
        return _ShiftCuda.apply(x, 1)

    def forward(self, x):
        if x.is_cuda:
            return self._forward_cuda(x)
        return _shift_ref(x, 1)


def main():
    x = torch.randn(4, 4).cuda()
    print(shift(x, impl="cuda").sum(), scale(x).sum())
