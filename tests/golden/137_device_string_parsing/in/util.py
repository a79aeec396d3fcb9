import torch


def device_index(device):
    if str(device).startswith("cuda"):
        return int(str(device).replace("cuda:", ""))
    return -1


def pick(rank):
    device = torch.device("cuda:{}".format(rank))
    torch.cuda.set_device(device_index(device))
    return device
