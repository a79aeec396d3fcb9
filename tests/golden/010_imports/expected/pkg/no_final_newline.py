import torch
import torch_npu
x = torch.zeros(1).npu()