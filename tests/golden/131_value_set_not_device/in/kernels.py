import logging

import torch

log = logging.getLogger(__name__)


def fused_gelu(x, impl="cuda"):
    assert impl in ["ref", "cuda"]
    if impl == "cuda":
        return torch.nn.functional.gelu(x, approximate="tanh")
    return 0.5 * x * (1.0 + torch.tanh(0.79788456 * (x + 0.044715 * x ** 3)))


class Block(torch.nn.Module):
    def __init__(self, backend_impl="cuda"):
        super().__init__()
        self.backend_impl = backend_impl
        self.tag = "cuda"

    def forward(self, x):
        if self.backend_impl == "cuda":
            x = fused_gelu(x, impl="cuda")
        else:
            x = fused_gelu(x, impl="ref")
        log.info("ran %s", self.tag)
        return x


def run(x):
    return Block(backend_impl="cuda").to("cuda")(x.to("cuda"))
