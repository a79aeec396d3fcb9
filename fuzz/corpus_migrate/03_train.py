import argparse

import torch
import torch.nn as nn

from utils.helpers import describe

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
args = parser.parse_args()

device = torch.device(args.device if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 2).cuda()
x = torch.randn(8, 4).to(device)
torch.cuda.synchronize()
print("trained on cuda:", describe(model(x)))
