import argparse

import torch
import torch_npu
import torch.nn as nn

from utils.helpers import describe

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="npu", choices=["npu", "cpu"])
args = parser.parse_args()

device = torch.device(args.device if torch.npu.is_available() else "cpu")
model = nn.Linear(4, 2).npu()
x = torch.randn(8, 4).to(device)
torch.npu.synchronize()
print("trained on cuda:", describe(model(x)))
