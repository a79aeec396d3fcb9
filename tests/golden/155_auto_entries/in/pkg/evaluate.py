import torch

model = torch.nn.Linear(2, 2).cuda()
print(model(torch.ones(1, 2).cuda()))
