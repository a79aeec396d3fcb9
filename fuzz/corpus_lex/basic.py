import torch
if x:
    y = f"{a!r:>{w}}" + 0x1_f
# c
