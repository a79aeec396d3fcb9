# One finding per site and API, with every reason in it.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

model = nn.DataParallel(nn.Linear(4, 4))   # NPU306 only, not NPU701 too
x = torch.randn(8)
u = torch.unique_consecutive(x)            # one finding: check + dynamic shape
loader = DataLoader(list(range(8)), batch_size=3)   # one finding: drop_last
