"""`.cuda()` everywhere: model, inputs, targets, loss, a buffer."""
import torch
import torch.nn as nn

CUDA = torch.cuda.is_available()


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.Tanh(),
                                 nn.Linear(32, 3))
        self.register_buffer("scale", torch.ones(3))

    def forward(self, x):
        return self.net(x) * self.scale


def main():
    torch.manual_seed(0)
    model = MLP()
    if CUDA:
        model = model.cuda()
    criterion = nn.CrossEntropyLoss()
    if CUDA:
        criterion = criterion.cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(5):
        x = torch.randn(16, 10)
        y = torch.randint(0, 3, (16,))
        if CUDA:
            x, y = x.cuda(), y.cuda()
        assert x.is_cuda == CUDA
        loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"loss {loss.item():.9g}")


if __name__ == "__main__":
    main()
