# A helper module standing in for a third-party library: its function
# calls the operator, so the site is here, not in the model.
import torch


def step_fn(x):
    return torch.heaviside(x, torch.zeros(1))
