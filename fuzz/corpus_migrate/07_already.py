import torch
import torch_npu

x = torch.ones(2)
