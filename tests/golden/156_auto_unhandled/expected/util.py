import torch


def on_gpu(t):
    # a library helper: not an entry script, but still checked
    return t.device.type == "cuda" or str(t.device).startswith("cuda:")
