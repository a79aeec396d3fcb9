"""Device selection idioms: membership tests and branch assignments."""
import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def select_device(cpu=False, mps=False):
    if not cpu and torch.cuda.is_available():
        arg = "cuda:0"
    elif mps:
        arg = "mps"
    else:
        arg = "cpu"
    return torch.device(arg)


def use_autocast(device, dtype):
    if device.type in {"cuda", "mps"} and dtype == torch.float16:
        return True
    return device.type in ("cuda",)


def half_params(model):
    return [p for p in model.parameters()
            if p.type() in ["torch.cuda.HalfTensor", "torch.cuda.BFloat16Tensor"]]


def kernel_names():
    # neither a device nor compared: left alone, and reported
    names = ("cuda", "cpu")
    return [n.upper() for n in names]
