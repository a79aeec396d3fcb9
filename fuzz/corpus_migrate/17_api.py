import torch as th
import torch.cuda as tc
from torch import cuda
from torch.cuda import Stream, CUDAGraph

th.cuda.synchronize()
n = th.cuda.device_count()
th.cuda.manual_seed_all(0)
th.cuda.empty_cache()
mem = th.cuda.max_memory_allocated()
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

with th.profiler.profile(
    activities=[th.profiler.ProfilerActivity.CPU, th.profiler.ProfilerActivity.CUDA],
    schedule=th.profiler.schedule(wait=1, warmup=1, active=2),
    on_trace_ready=th.profiler.tensorboard_trace_handler("./log"),
    experimental_config=th._C._profiler._ExperimentalConfig(verbose=True),
) as prof:
    prof.step()
