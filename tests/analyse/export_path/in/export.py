# An export path: unsupported on NPU, but not on the training path (NPU714).
import torch
from torch.utils.mobile_optimizer import optimize_for_mobile


def export(model, x):
    ts = torch.jit.trace(model.cpu(), x.cpu())
    optimize_for_mobile(ts)._save_for_lite_interpreter("m.ptl")
