"""Project data structures that move themselves between devices."""
import torch
import torch_npu
from torch import nn


class Boxes:
    """Detection boxes; the tensor lives on any device."""

    def __init__(self, tensor):
        self.tensor = tensor

    def cuda(self, device=None):
        return Boxes(self.tensor.npu(device))
    npu = cuda

    def to(self, device):
        # forwarding override: keeps working with "npu" strings
        return Boxes(self.tensor.to(device=device))

    @property
    def is_cuda(self):
        return self.tensor.is_npu
    is_npu = is_cuda


class Masks(Boxes):
    def cuda(self, device=None): return Masks(self.tensor.npu(device))
    npu = cuda


class Results:
    def __init__(self, boxes):
        self.boxes = boxes

    def _apply(self, fn, *args):
        return Results(getattr(self.boxes, fn)(*args))

    def cuda(self):
        return self._apply("cuda")
    npu = cuda

    def to(self, *args, **kwargs):
        return self._apply("to", *args, **kwargs)


class Generator(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    @torch.no_grad()
    def cuda(self):
        self.model.npu()
        return self
    npu = cuda

    # the rest of the class
    def forward(self, x):
        return self.model(x)


class DataSample:
    """Has its own NPU method already: call sites renamed to .npu() use it."""

    def cuda(self):
        return self.to("npu")

    def npu(self):
        return self.to("npu")

    def to(self, device):
        if str(device).startswith("npu"):
            return self
        if device == "npu":
            return self
        return self


class Moves:
    if torch.__version__ >= "2":
        def cuda(self):
            return 2
        npu = cuda
    else:
        def cuda(self):
            return 1
        npu = cuda
    to_cuda = cuda


def cuda(x):
    """A module-level function named cuda is no method: nothing to alias."""
    return x
