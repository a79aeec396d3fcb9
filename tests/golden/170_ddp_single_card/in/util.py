import torch
import torch.nn as nn


def wrap(model, ngpus):
    # DataParallel outside the main script: DDP when a process group runs
    if ngpus > 1:
        model = nn.DataParallel(model)
    return model
