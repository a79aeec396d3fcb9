import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu

print(torch.cuda.is_available())
