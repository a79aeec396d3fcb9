import torch
import torch_npu

model = torch.nn.Linear(4, 2).npu()
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def step(x, y):
    # AMP switched off explicitly: this is not mixed precision
    with torch.npu.amp.autocast(enabled=False):
        loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
