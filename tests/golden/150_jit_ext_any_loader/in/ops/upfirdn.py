import glob
import os

import torch

from .custom_ops import get_plugin

_srcs = [os.path.join(os.path.dirname(__file__), f)
         for f in ("upfirdn2d.cpp", "upfirdn2d_kernel.cu")]
_kernels = glob.glob(os.path.join(os.path.dirname(__file__), "*.cu"))
_opts = dict(extra_cuda_cflags=["-O3"], verbose=False)
_opts2 = {"extra_cuda_cflags": ["-O3"]}


def load_upfirdn():
    return get_plugin("upfirdn2d_plugin", sources=_srcs)


def load_glob():
    return get_plugin("kernels", sources=_kernels)


def load_kwargs():
    return get_plugin("fused", sources=["fused.cpp"], **_opts)


def load_kwargs_literal():
    return get_plugin("fused2", sources=["fused.cpp"], **_opts2)


def load_cpu_only():
    # C++ only: no CUDA source, no CUDA flags: not reported.
    return get_plugin("cpu_op", sources=["cpu_op.cpp"], extra_cflags=["-O3"])


def load_inline():
    return torch.utils.cpp_extension.load_inline(
        "inl", cpp_sources="", cuda_sources="__global__ void k() {}")


def load_positional():
    return torch.utils.cpp_extension.load("pos", ["a.cpp", "b.cu"])
