# NVTX ranges are profiler annotations: manual work, not a blocker.
import nvtx
import torch


def step(model, x, profile):
    if profile:
        torch.cuda.nvtx.range_push("fwd")
    y = model(x)
    if profile:
        torch.cuda.nvtx.range_pop()
    with nvtx.annotate("bwd"):
        y.sum().backward()
