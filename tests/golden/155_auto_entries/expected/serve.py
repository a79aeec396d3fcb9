import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu

net = torch.jit.load("model.pt").cuda()
