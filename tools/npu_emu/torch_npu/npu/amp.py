"""torch.npu.amp: autocast and GradScaler, emulated on the CPU.

autocast: torch 1.13's CPU autocast only lowers to bfloat16 (asking it for
float16 disables it with a warning). So with NPUIFY_EMU_AMP=bf16 (the
default) npu autocast runs CPU bfloat16 autocast whatever dtype was asked
for: matmuls and convolutions run in bf16, losses and reductions stay fp32,
as the autocast op lists say; bf16 keeps fp32's exponent range, so nothing
overflows where fp16 would. NPUIFY_EMU_AMP=off makes it a no-op context
(bit-identical to fp32 training).

GradScaler: bf16 needs no loss scaling, so the scaler passes everything
through (scale factor 1.0) while keeping GradScaler's interface and a
state_dict with its usual keys, so checkpoints round-trip.
"""
import functools

import torch

from .._emu import STATE, count


class autocast(torch.autocast):
    """torch.npu.amp.autocast(enabled=True, dtype=torch.float16, ...)."""

    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        self.requested_dtype = dtype
        on = bool(enabled) and STATE.amp_mode != "off"
        super().__init__("cpu", dtype=torch.bfloat16, enabled=on,
                         cache_enabled=cache_enabled)

    def __enter__(self):
        count("autocast_enters")
        return super().__enter__()


class GradScaler:
    """Pass-through loss scaler with torch.cuda.amp.GradScaler's interface."""

    def __init__(self, init_scale=2.0**16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True,
                 dynamic=True):
        self._enabled = enabled
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._init_scale = init_scale
        self.dynamic = dynamic

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        count("grad_scaler_steps")
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def get_growth_interval(self):
        return self._growth_interval

    def state_dict(self):
        if not self._enabled:
            return {}
        return {"scale": 1.0, "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": 0}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if not state_dict:
            raise RuntimeError("The source state dict is empty, possibly "
                               "because it was saved from a disabled "
                               "instance of GradScaler.")
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]


class _DeviceAutocast(torch.autocast):
    """torch.autocast that takes device_type="npu" (and "cuda" under
    transfer_to_npu) and runs the emulated NPU autocast for it."""

    def __init__(self, device_type, dtype=None, enabled=True,
                 cache_enabled=None):
        if device_type == "npu" or (device_type == "cuda"
                                    and STATE.cuda_is_npu):
            device_type, dtype = "cpu", torch.bfloat16
            enabled = bool(enabled) and STATE.amp_mode != "off"
            count("autocast_enters")
        super().__init__(device_type, dtype=dtype, enabled=enabled,
                         cache_enabled=cache_enabled)


def install():
    """Let torch.autocast / torch.amp.autocast accept "npu"."""
    _DeviceAutocast.__name__ = _DeviceAutocast.__qualname__ = "autocast"
    torch.autocast = torch.amp.autocast = _DeviceAutocast


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Decorator for custom autograd forward functions (pass-through)."""
    if fwd is None:
        return functools.partial(custom_fwd, cast_inputs=cast_inputs)
    return fwd


def custom_bwd(bwd):
    return bwd


__all__ = ["autocast", "GradScaler", "custom_fwd", "custom_bwd"]
