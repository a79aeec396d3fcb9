import torch

y = torch.zeros(2).cuda()
