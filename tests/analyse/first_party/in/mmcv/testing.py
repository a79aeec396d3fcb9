import torch


def require_cuda(fn):
    return fn if torch.cuda.is_available() else None
