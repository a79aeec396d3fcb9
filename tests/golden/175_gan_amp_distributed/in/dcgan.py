import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def main(dataset, netG, netD, nz, epochs):
    device = torch.device("cuda:0")
    dataloader = DataLoader(dataset, batch_size=64, shuffle=True)
    criterion = nn.BCELoss()
    netD = netD.to(device)
    netG = netG.to(device)
    optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4)
    optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4)
    for epoch in range(epochs):
        for i, data in enumerate(dataloader, 0):
            netD.zero_grad()
            real = data[0].to(device)
            label = torch.full((real.size(0),), 1.0, device=device)
            output = netD(real).view(-1)
            errD_real = criterion(output, label)
            errD_real.backward()
            noise = torch.randn(real.size(0), nz, 1, 1, device=device)
            fake = netG(noise)
            label.fill_(0.0)
            output = netD(fake.detach()).view(-1)
            errD_fake = criterion(output, label)
            errD_fake.backward()
            optimizerD.step()
            netG.zero_grad()
            label.fill_(1.0)
            output = netD(fake).view(-1)
            errG = criterion(output, label)
            errG.backward()
            optimizerG.step()
        torch.save(netG.state_dict(), "netG_epoch_%d.pth" % epoch)


if __name__ == "__main__":
    main(None, None, None, 100, 1)
