import torch
x = torch.randn(3, 3)
y = x.matmul(x)
z = torch.matmul(x, x)
