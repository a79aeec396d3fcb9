import torch

model = torch.nn.Linear(4, 2).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def step(x, y):
    # AMP switched off explicitly: this is not mixed precision
    with torch.cuda.amp.autocast(enabled=False):
        loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
