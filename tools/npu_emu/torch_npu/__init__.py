"""torch_npu emulator: a test double of Huawei's torch_npu on CPU PyTorch.

npuify converts CUDA training scripts for Ascend NPUs. To prove that a
converted script runs without an NPU, put tools/npu_emu on PYTHONPATH: then
`import torch_npu` loads this package, which
  - registers torch.npu / torch_npu.npu (npu/__init__.py) and torch.npu.amp,
  - makes "npu" devices work and run on the CPU (_patch_device.py),
  - registers the "hccl" distributed backend on top of gloo (_patch_dist.py),
  - runs SyncBatchNorm on CPU tensors (_patch_syncbn.py),
  - lets torch.autocast take device_type="npu" (npu/amp.py).
`from torch_npu.contrib import transfer_to_npu` additionally maps torch.cuda
and "cuda" devices onto the NPU. See README.md for what is not emulated.
"""
import os as _os
import sys as _sys

import torch as _torch

from . import _patch_device, _patch_dist, _patch_syncbn, npu, optim
from ._fused import npu_fusion_attention, npu_rms_norm, npu_rotary_mul
from ._surface import SURFACE as _SURFACE, make_strict as _make_strict

__version__ = "0.0.0+npuify.emulator"
_BANNER = "torch_npu emulator: NPU calls run on CPU (npuify test double)"


def _register_modules():
    _torch.npu = npu
    _sys.modules["torch.npu"] = npu
    _sys.modules["torch.npu.amp"] = npu.amp


def _install():
    _register_modules()
    _patch_device.install()
    _patch_dist.install()
    _patch_syncbn.install()
    npu.amp.install()
    if _os.environ.get("NPUIFY_EMU_QUIET") != "1":
        print(_BANNER, file=_sys.stderr, flush=True)
    # As torch_npu 2.8+: TORCH_TRANSFER_TO_NPU=1 imports transfer_to_npu.
    transfer = _os.environ.get("TORCH_TRANSFER_TO_NPU", "0")
    if transfer == "1":
        from .contrib import transfer_to_npu  # noqa: F401
    elif transfer not in ("", "0"):
        raise ValueError(f"TORCH_TRANSFER_TO_NPU must be 0 or 1, not "
                         f"{transfer!r}")


def _restrict():
    # Exactly real torch_npu's public names (see _surface.py).
    _make_strict(npu, "torch.npu", _SURFACE.npu, _SURFACE.npu_all)
    _make_strict(optim, "torch_npu.optim", _SURFACE.under("optim"))
    _make_strict(_sys.modules[__name__], "torch_npu", _SURFACE.top)


_restrict()
_install()
