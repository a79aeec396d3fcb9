import torch

net = torch.nn.Linear(2, 1).cuda()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)


def train(epoch):
    loss = net(torch.randn(4, 2).cuda()).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


for epoch in range(2):
    train(epoch)
