import torch
import torch_npu

y = torch.zeros(2).npu()
