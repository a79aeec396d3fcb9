import torch as th
import torch_npu
import torch.npu as tc
from torch import npu as cuda
from torch.cuda import Stream, CUDAGraph

th.npu.synchronize()
n = th.npu.device_count()
th.npu.manual_seed_all(0)
th.npu.empty_cache()
mem = th.npu.max_memory_allocated()
frac = th.cuda.get_per_process_memory_fraction()
tc.synchronize()
cuda.current_device()
s = Stream()
g = CUDAGraph()
archs = th.cuda.get_arch_list()
th.cuda.nvtx.range_push("step")
th.cuda.nvtx.range_pop()
th.backends.cudnn.benchmark = True
th.backends.cudnn.deterministic = False
th.backends.cuda.matmul.allow_tf32 = True
print(th.version.cuda)

with torch_npu.profiler.profile(
    activities=[torch_npu.profiler.ProfilerActivity.CPU, torch_npu.profiler.ProfilerActivity.NPU],
    schedule=torch_npu.profiler.schedule(wait=1, warmup=1, active=2),
    on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./log"),
) as prof:
    prof.step()
