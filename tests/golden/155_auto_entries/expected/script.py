import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu

model = torch.nn.Linear(2, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(4, 2).cuda()).sum()
    loss.backward()
    opt.step()
