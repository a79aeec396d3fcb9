# A GradScaler's scale() is AMP, and .half().float() goes back to fp32:
# no NPU407 (fp16 by hand) here.
import torch

model = torch.nn.Linear(4, 4).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler()
model.half().float()  # round the weights, stay in fp32
for x in [torch.randn(2, 4).cuda()]:
    with torch.cuda.amp.autocast():
        loss = model(x).sum()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
