import torch
import torch.cuda as tcuda


def local_import():
    import torch.cuda as tc
    from torch.cuda import amp as A
    tc.synchronize()
    return A.autocast()


def param_named_cuda(cuda):
    cuda.synchronize()  # a parameter, not torch.cuda
    return cuda


def shadowed():
    torch = make_fake_torch()
    torch.cuda.synchronize()  # a local object
    return torch


def loop_target(items):
    for tcuda in items:
        tcuda.synchronize()


class Box:
    cuda = "x"

    def method(self):
        return torch.cuda.is_available()


try:
    from apex import amp
except ImportError:
    amp = None

alias = torch.cuda
alias.synchronize()
c = tcuda
c.empty_cache()
