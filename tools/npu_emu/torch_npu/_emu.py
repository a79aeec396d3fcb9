"""Shared state of the torch_npu emulator: settings, counters, device mapping.

The emulator runs every "NPU" tensor on the CPU. Everything that takes a
device ("npu", "npu:1", torch.device("npu", 0), and "cuda..." once
transfer_to_npu is imported) goes through map_device(), which answers the
CPU device to use instead and counts the use, so a test can tell a script
that really took its NPU path from one that silently stayed on the CPU path.

Settings come from the environment, read once at import:
  NPUIFY_EMU_DEVICES  number of emulated NPUs (default 1)
  NPUIFY_EMU_AMP      "bf16" (default): npu autocast runs CPU bfloat16
                      autocast; "off": autocast is a no-op context
  NPUIFY_EMU_QUIET    "1": no banner on stderr
  NPUIFY_EMU_LOG      file to which each process appends one JSON line of
                      counters at exit (for tests)
"""
import atexit
import json
import os

import torch

_RealDevice = torch._C.device  # the C type, before torch.device is replaced


def _env_int(name, default):
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


class _State:
    """The emulator's process-wide state (one instance, STATE)."""

    def __init__(self):
        self.device_count = _env_int("NPUIFY_EMU_DEVICES", 1)
        self.amp_mode = os.environ.get("NPUIFY_EMU_AMP", "bf16").lower()
        self.current_device = 0
        self.cuda_is_npu = False  # set by contrib.transfer_to_npu
        self.seed = 0
        self.stats = {
            "npu_device_uses": 0,   # device specs mapped from npu to cpu
            "cuda_device_uses": 0,  # "cuda" specs mapped (transfer_to_npu)
            "npu_api_calls": 0,     # torch.npu.* functions called
            "autocast_enters": 0,
            "grad_scaler_steps": 0,
            "hccl_groups": 0,
            "set_device_calls": 0,
            "set_device": [],       # the indices, in call order
        }


STATE = _State()


def count(key, n=1):
    STATE.stats[key] += n


def _write_log():
    path = os.environ.get("NPUIFY_EMU_LOG")
    if not path:
        return
    record = dict(STATE.stats, pid=os.getpid(),
                  transfer_to_npu=STATE.cuda_is_npu)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


atexit.register(_write_log)


def check_index(index, what="npu"):
    """Raise like a real device runtime does for an index out of range."""
    if index is None:
        return
    if not isinstance(index, int) or index < 0 or index >= STATE.device_count:
        raise RuntimeError(
            f"{what}:{index} is not a valid device: the emulator has "
            f"{STATE.device_count} NPU(s) (set NPUIFY_EMU_DEVICES)")


def _split_device_string(text):
    kind, _, index = text.strip().partition(":")
    if index == "":
        return kind, None
    try:
        return kind, int(index)
    except ValueError:
        return kind, index  # let torch produce its own error later


def _is_npu_kind(kind):
    return kind == "npu" or (kind == "cuda" and STATE.cuda_is_npu)


def _counted_cpu(kind, index, as_string, validate):
    if validate:
        check_index(index, kind)
    count("npu_device_uses" if kind == "npu" else "cuda_device_uses")
    return "cpu" if as_string else _RealDevice("cpu")


def map_device(dev, int_is_npu=False, validate=True):
    """Return the CPU device standing in for an NPU device spec.

    A string maps to the string "cpu", anything else to torch.device("cpu").
    Anything that is not an NPU spec is returned unchanged, so "cpu", "meta",
    dtypes and tensors pass through. A plain int is a device ordinal: stock
    torch reads it as CUDA, so it is only taken as an NPU when int_is_npu
    (transfer_to_npu does this for .to(int), like the real one). With
    validate, an index past the emulated device count raises, as using such
    a device does on a real NPU (constructing torch.device does not).
    """
    if isinstance(dev, str):
        kind, index = _split_device_string(dev)
        if _is_npu_kind(kind):
            return _counted_cpu(kind, index, True, validate)
        return dev
    if isinstance(dev, _RealDevice):
        if dev.type == "cuda" and STATE.cuda_is_npu:
            return _counted_cpu("cuda", dev.index, False, validate)
        return dev
    if int_is_npu and isinstance(dev, int) and not isinstance(dev, bool):
        return _counted_cpu("npu", dev, False, validate)
    return dev


def device_index(dev, default=None):
    """The ordinal an NPU device spec names (None for "npu" alone)."""
    if dev is None:
        return default
    if isinstance(dev, int) and not isinstance(dev, bool):
        return dev
    if isinstance(dev, str):
        kind, index = _split_device_string(dev)
        if not _is_npu_kind(kind):
            raise ValueError(f"expected an npu device, got {dev!r}")
        return default if index is None else index
    if isinstance(dev, _RealDevice):
        # torch.device("npu:1") is already a cpu device here; its index is
        # gone, so it names the current device.
        return default if dev.index is None else dev.index
    raise TypeError(f"expected a device, got {type(dev).__name__}")
