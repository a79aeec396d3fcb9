"""DCGAN: generator and discriminator, two optimizers, BCE."""
import torch
import torch.nn as nn

ngpu = 1
device = torch.device("cuda:0" if (torch.cuda.is_available() and ngpu > 0)
                      else "cpu")


class G(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(8, 16, 4, 1, 0, bias=False),
            nn.BatchNorm2d(16), nn.ReLU(True),
            nn.ConvTranspose2d(16, 1, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class D(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(1, 16, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, True),
            nn.Conv2d(16, 1, 4, 1, 0, bias=False), nn.Sigmoid())

    def forward(self, x):
        return self.main(x).view(-1)


def main():
    torch.manual_seed(0)
    netG, netD = G().to(device), D().to(device)
    criterion = nn.BCELoss()
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fixed = torch.randn(4, 8, 1, 1, device=device)
    for step in range(4):
        real = torch.randn(4, 1, 8, 8).to(device)
        label = torch.full((4,), 1.0, dtype=torch.float, device=device)
        netD.zero_grad()
        errD_real = criterion(netD(real), label)
        errD_real.backward()
        noise = torch.randn(4, 8, 1, 1, device=device)
        fake = netG(noise)
        label.fill_(0.0)
        errD_fake = criterion(netD(fake.detach()), label)
        errD_fake.backward()
        optD.step()
        netG.zero_grad()
        label.fill_(1.0)
        errG = criterion(netD(fake), label)
        errG.backward()
        optG.step()
        print(f"loss {(errD_real + errD_fake).item():.9g} "
              f"{errG.item():.9g}")
    with torch.no_grad():
        assert netG(fixed).shape == (4, 1, 8, 8)


if __name__ == "__main__":
    main()
