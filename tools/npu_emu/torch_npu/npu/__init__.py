"""torch.npu (and torch_npu.npu) as the emulator provides it.

The surface follows torch_npu's torch_npu/npu/__init__.py __all__ for the
names training scripts use: device selection and queries, synchronisation,
memory statistics, seeding, streams and events, legacy tensor types, amp.
Devices are emulated (NPUIFY_EMU_DEVICES of them, all backed by the CPU);
memory statistics report zero use of a 64 GiB device.
"""
import functools
import os

import torch

from .._emu import STATE, check_index, count, device_index
from . import amp, mstx  # noqa: F401  (torch.npu.amp, torch.npu.mstx)
from ._streams import Event, Stream, StreamContext, current_stream, \
    default_stream, set_stream, stream

DEVICE_NAME = "Ascend910B (emulated on CPU)"
TOTAL_MEMORY = 64 * 2**30


def _api(fn):
    """Count calls, so tests can see that a script used torch.npu."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        count("npu_api_calls")
        return fn(*args, **kwargs)
    return wrapper


def _index(dev=None):
    index = device_index(dev, STATE.current_device)
    check_index(index)
    return index


@_api
def is_available():
    return True


@_api
def device_count():
    return STATE.device_count


def is_initialized():
    return True


def init():
    pass


@_api
def set_device(dev):
    index = _index(dev)
    STATE.current_device = index
    STATE.stats["set_device"].append(index)
    count("set_device_calls")


@_api
def current_device():
    return STATE.current_device


@_api
def synchronize(dev=None):
    _index(dev)


@_api
def get_device_name(dev=None):
    _index(dev)
    return DEVICE_NAME


class _NPUDeviceProperties:
    """What torch_npu's get_device_properties() answers (no major/minor)."""

    def __init__(self):
        self.name = DEVICE_NAME
        self.total_memory = TOTAL_MEMORY
        self.cube_core_num = 24
        self.vector_core_num = 48
        self.L2_cache_size = 192 * 2**20

    def __repr__(self):
        return (f"_NPUDeviceProperties(name='{self.name}', total_memory="
                f"{self.total_memory // 2**20}MB, cube_core_num="
                f"{self.cube_core_num}, vector_core_num="
                f"{self.vector_core_num}, L2_cache_size="
                f"{self.L2_cache_size // 2**20}MB)")


@_api
def get_device_properties(dev=None):
    _index(dev)
    return _NPUDeviceProperties()


def get_device_capability(dev=None):
    """None, as older torch_npu answers (an NPU has no CUDA capability);
    TORCH_NPU_DEVICE_CAPABILITY="major.minor" overrides, as on master."""
    _index(dev)
    text = os.environ.get("TORCH_NPU_DEVICE_CAPABILITY")
    if not text:
        return None
    major, _, minor = text.partition(".")
    return int(major), int(minor or 0)


def can_device_access_peer(dev, peer):
    return _index(dev) != _index(peer)


def utilization(dev=None):
    _index(dev)
    return 0


def is_bf16_supported():
    return True


def get_amp_supported_dtype():
    return [torch.float16, torch.bfloat16]


# -- memory (nothing is tracked: the CPU allocator owns the memory) --------

def _zero(dev=None):
    _index(dev)
    return 0


memory_allocated = max_memory_allocated = _api(_zero)
memory_reserved = max_memory_reserved = _api(_zero)
memory_cached = max_memory_cached = _api(_zero)


@_api
def reset_peak_memory_stats(dev=None):
    _index(dev)


reset_max_memory_allocated = reset_max_memory_cached = reset_peak_memory_stats
reset_accumulated_memory_stats = reset_peak_memory_stats


@_api
def empty_cache():
    pass


def ipc_collect():
    pass


def mem_get_info(dev=None):
    _index(dev)
    return TOTAL_MEMORY, TOTAL_MEMORY


def memory_stats(dev=None):
    _index(dev)
    return {"allocated_bytes.all.current": 0, "allocated_bytes.all.peak": 0,
            "reserved_bytes.all.current": 0, "reserved_bytes.all.peak": 0}


def memory_summary(dev=None, abbreviated=False):
    _index(dev)
    return "torch_npu emulator: memory is not tracked (CPU allocator)\n"


def set_per_process_memory_fraction(fraction, dev=None):
    _index(dev)
    if not 0 <= fraction <= 1:
        raise ValueError(f"invalid fraction {fraction}, should be in [0, 1]")


# -- seeding: the NPU generator is not emulated ------------------------------
# Device random numbers come from the CPU generator, which these functions
# leave alone: re-seeding it here would make a converted script draw
# different numbers from the CPU original that it is compared with.

@_api
def manual_seed(seed):
    STATE.seed = int(seed)


manual_seed_all = manual_seed


def seed():
    STATE.seed = torch.seed()


seed_all = seed


def initial_seed():
    return STATE.seed


def get_rng_state(dev="npu"):
    return torch.tensor([STATE.seed], dtype=torch.int64).view(torch.uint8)


def set_rng_state(new_state, dev="npu"):
    pass


def get_rng_state_all():
    return [get_rng_state(i) for i in range(STATE.device_count)]


def set_rng_state_all(new_states):
    pass


default_generators = (torch.default_generator,)


# -- device context managers -------------------------------------------------

class device:
    """with torch.npu.device(i): select device i inside the block."""

    def __init__(self, dev):
        self.idx = -1 if dev is None else _index(dev)
        self.prev_idx = -1

    def __enter__(self):
        self.prev_idx = STATE.current_device
        if self.idx >= 0:
            STATE.current_device = self.idx

    def __exit__(self, *exc):
        STATE.current_device = self.prev_idx
        return False


class device_of(device):
    def __init__(self, obj):
        super().__init__(STATE.current_device if obj.is_npu else None)


# -- legacy tensor types: the CPU ones ---------------------------------------

FloatTensor = torch.FloatTensor
DoubleTensor = torch.DoubleTensor
HalfTensor = torch.HalfTensor
BFloat16Tensor = torch.BFloat16Tensor
ByteTensor = torch.ByteTensor
CharTensor = torch.CharTensor
ShortTensor = torch.ShortTensor
IntTensor = torch.IntTensor
LongTensor = torch.LongTensor
BoolTensor = torch.BoolTensor


# -- torch_npu specific switches: accepted, no effect ------------------------

def set_option(option):
    if not isinstance(option, dict):
        raise TypeError("torch.npu.set_option() takes a dict")


def set_compile_mode(jit_compile=False):
    pass


def is_jit_compile_false():
    return True


def is_autocast_enabled():
    return torch.is_autocast_cpu_enabled()


def get_autocast_dtype():
    return torch.get_autocast_cpu_dtype()


class _Switches:
    """Attribute bags for torch.npu.config / matmul / conv switches."""

    def __init__(self, **defaults):
        self.__dict__.update(defaults)


config = _Switches(allow_internal_format=False)
matmul = _Switches(allow_hf32=False)
conv = _Switches(allow_hf32=True)


def set_sync_debug_mode(mode):
    pass


def get_sync_debug_mode():
    return 0

# __all__ is set by torch_npu._surface: the names real torch_npu has that
# this module implements.
