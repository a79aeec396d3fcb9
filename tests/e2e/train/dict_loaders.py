# Loaders held in a dict (the transfer-learning tutorial's shape), the
# evaluation loader in a list; logging through the logging module and a
# named logger, which rank 0 alone must print.
import argparse
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

logger = logging.getLogger(__name__)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    torch.manual_seed(0)
    x = torch.randn(80, 8)
    y = x.sum(dim=1, keepdim=True)
    loaders = {
        "train": DataLoader(TensorDataset(x[:64], y[:64]),
                            batch_size=args.batch, shuffle=False),
        "val": DataLoader(TensorDataset(x[64:], y[64:]), batch_size=16),
    }
    evals = [DataLoader(TensorDataset(x[:64], y[:64]), batch_size=64)]
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        for xb, yb in loaders["train"]:
            loss = nn.functional.mse_loss(model(xb.cuda()), yb.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            val = sum(nn.functional.mse_loss(model(a.cuda()), b.cuda()).item()
                      for a, b in loaders["val"])
            full = sum(nn.functional.mse_loss(model(a.cuda()), b.cuda()).item()
                       for a, b in evals[0])
        logger.info("val %.6f", val)
        logging.info("epoch %d loss %.6f", epoch, full)


if __name__ == "__main__":
    main()
