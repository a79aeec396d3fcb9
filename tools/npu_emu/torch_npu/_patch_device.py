"""Make the device "npu" usable on a CPU-only torch 1.13.

torch 1.13 has no "npu" device type, and its C parser rejects the string, so
every entry point that takes a device is wrapped to pass map_device()'s CPU
answer instead:
  - torch.device and torch.Generator become small Python classes whose
    constructors return the real C objects (isinstance keeps working through
    a metaclass, pickling through copyreg, TorchScript through its builtin
    table);
  - factory functions (torch.zeros, torch.tensor, ...) and torch.load;
  - Tensor.to / new_* / pin_memory, Module.to / to_empty,
    DataLoader(pin_memory_device=);
  - Tensor.npu(), Module.npu(), Tensor.is_npu (every tensor is "on the NPU",
    since CPU memory is the emulated NPU memory).
"""
import copyreg
import functools

import torch
import torch.jit._builtins as _jit_builtins

from ._emu import STATE, _RealDevice, check_index, count, device_index, \
    map_device

# torch.* functions that take device=, as in transfer_to_npu's white list
# (those that exist in torch 1.13).
FACTORY_FUNCTIONS = (
    "arange", "as_tensor", "bartlett_window", "blackman_window", "empty",
    "empty_like", "empty_strided", "eye", "full", "full_like",
    "hamming_window", "hann_window", "kaiser_window", "linspace", "logspace",
    "normal", "ones", "ones_like", "rand", "rand_like", "randint",
    "randint_like", "randn", "randn_like", "randperm", "range",
    "scalar_tensor", "sparse_coo_tensor", "sparse_csr_tensor", "tensor",
    "tril_indices", "triu_indices", "zeros", "zeros_like", "frombuffer",
)
TENSOR_NEW_METHODS = ("new_empty", "new_empty_strided", "new_full",
                      "new_ones", "new_tensor", "new_zeros")

_RealGenerator = torch._C.Generator


def _map_kwargs(kwargs, int_is_npu=False):
    if "device" in kwargs:
        kwargs["device"] = map_device(kwargs["device"], int_is_npu)
    return kwargs


def _map_to_args(args, kwargs, int_is_npu):
    """Arguments of Tensor.to / Module.to with device specs mapped."""
    if args:
        args = (map_device(args[0], int_is_npu),) + tuple(args[1:])
    return args, _map_kwargs(kwargs, int_is_npu)


class _ProxyMeta(type):
    """isinstance/issubclass against the proxy answer for the C type."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, cls._real)

    def __subclasscheck__(cls, sub):
        return issubclass(sub, cls._real)


class device(metaclass=_ProxyMeta):
    """torch.device that also accepts "npu", "npu:N" and ("npu", N)."""
    _real = _RealDevice

    def __new__(cls, *args, **kwargs):
        kind = kwargs.pop("type", None)
        if kind is None and args:
            kind, args = args[0], args[1:]
        index = kwargs.pop("index", args[0] if args else None)
        if isinstance(kind, str) and index is not None:
            kind = f"{kind}:{index}"
            index = None
        mapped = map_device(kind, int_is_npu=STATE.cuda_is_npu,
                            validate=False)
        if index is not None:
            return _RealDevice(mapped, index)
        return _RealDevice(mapped)


class Generator(metaclass=_ProxyMeta):
    """torch.Generator that accepts device="npu"."""
    _real = _RealGenerator

    def __new__(cls, device="cpu"):
        return _RealGenerator(map_device(device))


for _proxy, _name in ((device, "device"), (Generator, "Generator")):
    _proxy.__module__ = "torch"
    _proxy.__qualname__ = _proxy.__name__ = _name


def _reduce_device(dev):
    # Pickle as torch.device(str) through the proxy: a checkpoint written
    # here loads in a plain torch, and pickle finds "torch.device" again.
    return device, (str(dev),)


def _wrap_factory(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **_map_kwargs(kwargs, STATE.cuda_is_npu))
    return wrapper


def _map_location(loc):
    if isinstance(loc, dict):
        return {k: map_device(v) for k, v in loc.items()}
    return map_device(loc)


def _wrap_load(load):
    @functools.wraps(load)
    def wrapper(f, map_location=None, *args, **kwargs):
        return load(f, _map_location(map_location), *args, **kwargs)
    return wrapper


def _restore_npu_location(storage, location):
    # Checkpoints tagged "npu:N" (saved on a real NPU) load onto the CPU.
    if str(location).startswith("npu"):
        return storage
    return None


def _tensor_npu(self, device=None, non_blocking=False,
                memory_format=torch.preserve_format):
    check_index(device_index(device, STATE.current_device))
    count("npu_device_uses")
    return _ORIG["Tensor.to"](self, "cpu", non_blocking=non_blocking,
                              memory_format=memory_format)


def _module_npu(self, device=None):
    check_index(device_index(device, STATE.current_device))
    count("npu_device_uses")
    return self


_ORIG = {}


def _patch_tensor_and_module():
    tensor_to = torch.Tensor.to
    module_to = torch.nn.Module.to
    module_to_empty = torch.nn.Module.to_empty
    _ORIG["Tensor.to"] = tensor_to

    @functools.wraps(tensor_to)
    def to(self, *args, **kwargs):
        args, kwargs = _map_to_args(args, kwargs, STATE.cuda_is_npu)
        return tensor_to(self, *args, **kwargs)

    @functools.wraps(module_to)
    def module_to_wrapper(self, *args, **kwargs):
        args, kwargs = _map_to_args(args, kwargs, STATE.cuda_is_npu)
        return module_to(self, *args, **kwargs)

    @functools.wraps(module_to_empty)
    def to_empty(self, *, device):
        return module_to_empty(self, device=map_device(device,
                                                       STATE.cuda_is_npu))

    def pin_memory(self, device=None):
        # Pinned host memory needs a CUDA runtime; on the emulated NPU the
        # tensor already lives where it will be used.
        return self

    def record_stream(self, stream):
        # The caching allocator's cross-stream bookkeeping: nothing to keep
        # when every stream is the CPU's one synchronous queue.
        return None

    torch.Tensor.to = to
    torch.Tensor.record_stream = record_stream
    torch.nn.Module.to = module_to_wrapper
    torch.nn.Module.to_empty = to_empty
    torch.Tensor.pin_memory = pin_memory
    for name in TENSOR_NEW_METHODS:
        setattr(torch.Tensor, name, _wrap_factory(getattr(torch.Tensor, name)))
    torch.Tensor.npu = _tensor_npu
    torch.Tensor.is_npu = property(lambda self: True,
                                   doc="True: every tensor is on the NPU")
    torch.nn.Module.npu = _module_npu


def _patch_dataloader():
    # Pinning is a no-op on the emulated NPU, and torch 1.13's worker pool
    # asks CUDA for its current device whenever a pin device is named, so a
    # loader given pin_memory_device="npu" is built without pinning.
    from torch.utils.data import DataLoader
    init = DataLoader.__init__
    pin_memory_position = 7  # DataLoader(dataset, ..., pin_memory, ...)

    @functools.wraps(init)
    def dataloader_init(self, *args, **kwargs):
        dev = kwargs.get("pin_memory_device", "")
        if dev and map_device(dev, validate=False) != dev:
            kwargs["pin_memory_device"] = ""
            if len(args) > pin_memory_position:
                args = args[:pin_memory_position] + (False,) + \
                    args[pin_memory_position + 1:]
            else:
                kwargs["pin_memory"] = False
        init(self, *args, **kwargs)

    DataLoader.__init__ = dataloader_init


def _wrap_set_default_tensor_type(fn):
    # torch_npu's support list: "不支持传入torch.npu.DtypeTensor类型"
    # (torch.npu tensor types are not accepted), as real torch_npu raises.
    @functools.wraps(fn)
    def set_default_tensor_type(t):
        if isinstance(t, str) and t.startswith("torch.npu."):
            raise TypeError("set_default_tensor_type: torch_npu does not "
                            "accept torch.npu tensor types (%s); use "
                            "torch.set_default_device('npu')" % t)
        return fn(t)
    return set_default_tensor_type


def _patch_torch_namespace():
    torch.set_default_tensor_type = _wrap_set_default_tensor_type(
        torch.set_default_tensor_type)
    jit_table = _jit_builtins._get_builtin_table()
    for name in FACTORY_FUNCTIONS:
        fn = getattr(torch, name, None)
        if fn is None:
            continue
        wrapped = _wrap_factory(fn)
        setattr(torch, name, wrapped)
        op = jit_table.get(id(fn))
        if op is not None:  # keep torch.jit.script working on callers
            _jit_builtins._register_builtin(wrapped, op)
    torch.load = _wrap_load(torch.load)
    torch.device = device
    torch.Generator = Generator
    _jit_builtins._register_builtin(device, "aten::device")
    copyreg.pickle(_RealDevice, _reduce_device)
    torch.serialization.register_package(5, lambda obj: None,
                                         _restore_npu_location)


def install():
    """Apply the device patches (once)."""
    if _ORIG:
        return
    _patch_tensor_and_module()
    _patch_torch_namespace()
    _patch_dataloader()
