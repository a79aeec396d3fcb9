import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu

model = torch.nn.Linear(2, 2).cuda()
print(model(torch.ones(1, 2).cuda()))
