"""torch_npu.contrib.transfer_to_npu, emulated: CUDA code runs on the NPU.

Like the real module (see shared/reference/ascend_tools.md section A), on
import it
  - copies every name of torch.npu.__all__ onto torch.cuda, and the amp
    names onto torch.cuda.amp (names torch.npu lacks keep their CUDA
    meaning, as on a real NPU);
  - makes "cuda" device specs mean the NPU everywhere the emulator maps
    devices, plus ints given to .to() and device= (transfer_to_npu's
    replace_int);
  - Tensor.cuda / Module.cuda become .npu, Tensor.is_cuda becomes is_npu;
  - "nccl" becomes "hccl" in init_process_group and new_group, and
    is_nccl_available answers is_hccl_available;
  - torch.jit.script becomes the identity (the real one does so too).
"""
import functools
import warnings

import torch
import torch.distributed as dist

from .. import npu as _npu
from .._emu import STATE


def _nccl_to_hccl(value):
    if isinstance(value, str) and "nccl" in value.lower():
        return value.lower().replace("nccl", "hccl")
    return value


def _wrap_backend(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if args:
            args = (_nccl_to_hccl(args[0]),) + args[1:]
        if "backend" in kwargs:
            kwargs["backend"] = _nccl_to_hccl(kwargs["backend"])
        return fn(*args, **kwargs)
    return wrapper


def _patch_cuda_modules():
    for name in _npu.__all__:
        setattr(torch.cuda, name, getattr(_npu, name))
    for name in _npu.amp.__all__:
        setattr(torch.cuda.amp, name, getattr(_npu.amp, name))


def _patch_tensor_and_module():
    torch.Tensor.cuda = torch.Tensor.npu
    torch.Tensor.is_cuda = torch.Tensor.is_npu
    torch.nn.Module.cuda = torch.nn.Module.npu


def _patch_distributed():
    if not dist.is_available():
        return
    dist.init_process_group = _wrap_backend(dist.init_process_group)
    dist.new_group = _wrap_backend(dist.new_group)
    dist.is_nccl_available = dist.is_hccl_available


def _script_identity(obj=None, *args, **kwargs):
    return obj


def _install():
    if STATE.cuda_is_npu:
        return
    STATE.cuda_is_npu = True
    _patch_cuda_modules()
    _patch_tensor_and_module()
    _patch_distributed()
    torch.jit.script = _script_identity
    warnings.warn("torch_npu emulator: transfer_to_npu maps torch.cuda and "
                  "'cuda' devices onto the (emulated) NPU", ImportWarning)


_install()
