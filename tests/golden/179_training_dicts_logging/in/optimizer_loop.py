# Two optimizers stepped in a range() loop through a list: --amp refuses
# with that reason (not "no optimizer step").
import torch
import torch.nn as nn

G = nn.Linear(4, 4).cuda()
D = nn.Linear(4, 1).cuda()
optG = torch.optim.Adam(G.parameters())
optD = torch.optim.Adam(D.parameters())
opts = [optG, optD]
for epoch in range(3):
    x = torch.randn(8, 4).cuda()
    loss = D(G(x)).mean()
    for o in opts:
        o.zero_grad()
    loss.backward()
    for i in range(2):
        opts[i].step()
