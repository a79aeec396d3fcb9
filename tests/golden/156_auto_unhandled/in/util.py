import torch


def on_gpu(t):
    # a library helper: not an entry script, but still checked
    return t.device.type == "cuda" or str(t.device).startswith("cuda:")


def pick(args, t):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" or args.device == "cuda":
        # the user's own strings: transfer_to_npu leaves them equal
        pass
    return t.device == "cuda:0"
