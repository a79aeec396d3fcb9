# Device-neutral torch names (no NPU702) next to ones that stay unknown.
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler
from torch.utils.tensorboard import SummaryWriter

w = torch.nn.Parameter(torch.zeros(3))
ds = list(range(8))
loader = DataLoader(ds, batch_size=2, sampler=DistributedSampler(ds), drop_last=True)
angle = torch.pi / 2 + torch.inf * 0
x = torch.zeros(1, 3, 4, 4).to(memory_format=torch.channels_last)
legacy = torch.FloatTensor(3)
writer = SummaryWriter("runs")
with torch.inference_mode():
    y = torch.lgamma(x)          # binds aten::lgamma: no NPU kernel (unknown)
    z = torch.special.zeta(x, 2.0)
dist.destroy_process_group()
