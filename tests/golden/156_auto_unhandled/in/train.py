import torch
import amp_C

model = torch.nn.Linear(2, 2).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(3):
    torch.cuda.nvtx.range_push("step")
    x = torch.randn(4, 2).cuda()
    if x.device.type == "cuda":
        x = x * 2
    loss = model(x).sum()
    loss.backward()
    opt.step()
    torch.cuda.nvtx.range_pop()
