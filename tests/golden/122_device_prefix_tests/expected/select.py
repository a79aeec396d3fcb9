"""Device selection idioms: membership tests and branch assignments."""
import torch
import torch_npu

DEVICE = "npu" if torch.npu.is_available() else "cpu"


def select_device(cpu=False, mps=False):
    if not cpu and torch.npu.is_available():
        arg = "npu:0"
    elif mps:
        arg = "mps"
    else:
        arg = "cpu"
    return torch.device(arg)


def use_autocast(device, dtype):
    if device.type in {"npu", "mps"} and dtype == torch.float16:
        return True
    return device.type in ("npu",)


def half_params(model):
    return [p for p in model.parameters()
            if p.type() in ["torch.npu.HalfTensor", "torch.npu.BFloat16Tensor"]]


def kernel_names():
    # neither a device nor compared: left alone, and reported
    names = ("cuda", "cpu")
    return [n.upper() for n in names]
