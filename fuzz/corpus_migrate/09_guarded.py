try:
    import torch
except ImportError:  # torch is optional here
    torch = None

try:
    import amp_C
except ImportError:
    amp_C = None
