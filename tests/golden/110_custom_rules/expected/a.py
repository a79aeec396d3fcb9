import torch
import torch_npu
from mylib import ops
import mylib.npukit as ck
y = ops.npu_gelu(x)
ops.launch('npu', 3)
ck.run()
z = ops.npu_relu(y)
ops.cuda_only(z)
