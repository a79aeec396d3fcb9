import torch
import torch_npu


def device_index(device):
    if str(device).startswith("npu"):
        return int(str(device).replace("npu:", ""))
    return -1


def pick(rank):
    device = torch.device("npu:{}".format(rank))
    torch.npu.set_device(device_index(device))
    return device
