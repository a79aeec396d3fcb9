try:
    import torch
    import torch_npu
except ImportError:  # torch is optional here
    torch = None

try:
    pass
except ImportError:
    amp_C = None
