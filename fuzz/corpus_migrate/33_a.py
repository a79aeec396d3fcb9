import torch
from mylib import ops
import mylib.cudakit as ck
y = ops.cuda_gelu(x)
ops.launch('cuda', 3)
ck.run()
z = ops.cuda_relu(y)
ops.cuda_only(z)
