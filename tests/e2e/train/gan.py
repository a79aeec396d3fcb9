# Two models, two optimizers (a GAN): each is trained, each is wrapped.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    torch.manual_seed(0)
    real = torch.randn(64, 4) * 0.5 + 1.0
    loader = DataLoader(TensorDataset(real), batch_size=args.batch)
    netG = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 4)).cuda()
    netD = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).cuda()
    optD = torch.optim.SGD(netD.parameters(), lr=0.05)
    optG = torch.optim.SGD(netG.parameters(), lr=0.05)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(args.epochs):
        for (xb,) in loader:
            xb = xb.cuda()
            noise = torch.sin(xb * 3.0)  # per-sample noise, rank-independent
            fake = netG(noise)
            optD.zero_grad()
            errD_real = criterion(netD(xb), torch.ones(xb.size(0), 1).cuda())
            errD_fake = criterion(netD(fake.detach()),
                                  torch.zeros(xb.size(0), 1).cuda())
            errD = errD_real + errD_fake
            errD.backward()
            optD.step()
            optG.zero_grad()
            errG = criterion(netD(fake), torch.ones(xb.size(0), 1).cuda())
            errG.backward()
            optG.step()
        with torch.no_grad():
            full = criterion(netD(netG(torch.sin(real.cuda() * 3.0))),
                             torch.ones(64, 1).cuda()).item()
        print("epoch %d loss %.6f" % (epoch, full))


if __name__ == "__main__":
    main()
