# The loader comes from a helper of another project file: not followed
# across files, and the reason names it.
import torch
import torch.nn as nn

from data_utils import get_loader


def main():
    loader = get_loader("data/", batch_size=8)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for i, (x, y) in enumerate(loader):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()


if __name__ == "__main__":
    main()
