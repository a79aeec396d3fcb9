"""`"cuda" in X` is a device test only when X names a device."""
import sys

import torch
import torch_npu


def describe(tokens, fullname, args, device, model):
    if "cuda" in tokens:  # a transport list, not a device
        tokens.remove("cuda")
    if "gpu" in fullname or "cuda" in fullname:  # a test name
        return "skip"
    if "cuda" in sys.argv:
        return "argv"
    if "cuda" in torch.npu.get_device_name():  # a marketing name
        return "name"
    if "npu" in args.device:
        return "device arg"
    if "npu" in str(device):
        return "device"
    if "npu" not in str(model.device):
        return "not on the accelerator"
    on_gpu = "npu" in device_type(model)
    return on_gpu


def device_type(model):
    return next(model.parameters()).device.type
