# A CUDA extension called only behind a flag that defaults off: optional;
# the same operator called unconditionally stays a kernel to port.
import argparse

import torch
import fused_ext

parser = argparse.ArgumentParser()
parser.add_argument("--use-cuda-kernel", action="store_true")
args = parser.parse_args()


def gelu(x):
    if args.use_cuda_kernel:
        return fused_ext.fused_gelu(x)
    return torch.nn.functional.gelu(x)


def gelu_else(x, fused):
    if not fused:
        return torch.nn.functional.gelu(x)
    else:
        return fused_ext.fused_gelu(x)


def gelu_checked(x):
    if x.numel() > 0:  # a comparison is no flag
        return fused_ext.fused_gelu(x)
    return x


def gelu_always(x):
    return fused_ext.fused_gelu(x)
