import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, 1)

    def fit(self, loader, accum=2):
        for i, (x, y) in enumerate(loader):
            out = self.model(x.cuda())
            loss = nn.functional.mse_loss(out, y.cuda()) / accum
            loss.backward()
            if (i + 1) % accum == 0:
                nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.scheduler.step()
                self.optimizer.zero_grad()


def gan(netD, netG, optD, optG, data, crit):
    for real, noise in data:
        netD.zero_grad()
        output = netD(real)
        errD_real = crit(output, torch.ones(1))
        errD_real.backward()
        fake = netG(noise)
        output = netD(fake.detach())
        errD_fake = crit(output, torch.zeros(1))
        errD_fake.backward()
        optD.step()
        netG.zero_grad()
        output = netD(fake)
        errG = crit(output, torch.ones(1))
        errG.backward()
        optG.step()


def helper(loss):
    loss.backward()


def sgd(model, data, lr):
    for x, y in data:
        loss = (model(x) - y).pow(2).mean()
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)


def lbfgs(model, opt, x, y):
    for _ in range(3):
        def closure():
            opt.zero_grad()
            loss = (model(x) - y).pow(2).mean()
            loss.backward()
            return loss
        opt.step(closure)
