import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from tqdm import tqdm


class Trainer:
    def __init__(self, dataset):
        self.loader = DataLoader(dataset, batch_size=32, shuffle=True)
        self.val_loader = DataLoader(dataset, batch_size=32)

    def fit(self, netG, netD, epochs):
        optG = torch.optim.Adam(filter(lambda p: p.requires_grad,
                                       netG.parameters()), lr=2e-4)
        optD = torch.optim.Adam([{"params": netD.parameters()}], lr=2e-4)
        sched = torch.optim.lr_scheduler.StepLR(optG, 10)
        for epoch in range(epochs):
            for real in tqdm(self.loader, desc="train"):
                real = real.cuda()
                fake = netG(torch.randn(real.size(0), 8).cuda())
                lossD = netD(real).mean() - netD(fake.detach()).mean()
                optD.zero_grad()
                lossD.backward()
                torch.nn.utils.clip_grad_norm_(netD.parameters(), 1.0)
                optD.step()
                lossG = -netD(fake).mean()
                optG.zero_grad()
                lossG.backward()
                optG.step()
            sched.step()
            torch.save(netG.state_dict(), "g.pt")


if __name__ == "__main__":
    torch.manual_seed(0)
    netG = nn.Linear(8, 4).cuda()
    netD = nn.Linear(4, 1).cuda()
    Trainer(torch.randn(64, 4)).fit(netG, netD, 2)
