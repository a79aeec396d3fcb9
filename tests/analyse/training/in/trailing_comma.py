import torch
from torch.utils.data import DataLoader
from tqdm import tqdm

model = torch.nn.Linear(2, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(
    torch.randn(8, 2),
    batch_size=2,
    shuffle=True,
)
for epoch in range(2):
    for x in tqdm(
        loader,
        desc="x",
    ):
        loss = model(x.cuda()).sum()
        loss.backward()
        opt.step()
