"""`"cuda" in X` is a device test only when X names a device."""
import sys

import torch


def describe(tokens, fullname, args, device, model):
    if "cuda" in tokens:  # a transport list, not a device
        tokens.remove("cuda")
    if "gpu" in fullname or "cuda" in fullname:  # a test name
        return "skip"
    if "cuda" in sys.argv:
        return "argv"
    if "cuda" in torch.cuda.get_device_name():  # a marketing name
        return "name"
    if "cuda" in args.device:
        return "device arg"
    if "cuda" in str(device):
        return "device"
    if "cuda" not in str(model.device):
        return "not on the accelerator"
    on_gpu = "cuda" in device_type(model)
    return on_gpu


def device_type(model):
    return next(model.parameters()).device.type
