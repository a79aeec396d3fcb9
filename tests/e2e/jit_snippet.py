"""A TorchScript function that calls factory functions the emulator wraps
(test_emu.py: scripting must still compile them as aten builtins)."""
import torch


@torch.jit.script
def scripted(x: torch.Tensor) -> torch.Tensor:
    return x + torch.zeros(3, device=torch.device("cpu")) * torch.ones(3)
