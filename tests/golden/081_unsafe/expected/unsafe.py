import torch
import torch_npu
from torch.npu import NPUGraph as CUDAGraph
from torch_npu.optim import NpuFusedAdamW as FusedAdam, NpuFusedLamb as FusedLAMB
from torch.nn.parallel import DistributedDataParallel as ApexDDP

g = CUDAGraph()
torch_npu.npu.mstx.range_push("step")
torch_npu.npu.mstx.range_pop()
torch.npu.matmul.allow_hf32 = True
opt = FusedAdam(params, lr=1e-3)
model = ApexDDP(model)


@torch.amp.custom_fwd(device_type="npu")
def fwd(ctx, x):
    return x


y = x.to(args.gpu)
