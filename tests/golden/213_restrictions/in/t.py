import torch
arch = torch.cuda.get_device_properties(0).gcnArchName
if torch.version.hip is not None:
    pass
dt = torch.get_autocast_gpu_dtype()
on = torch.is_autocast_enabled()
g = torch.cuda.graphs.make_graphed_callables(model, (x,))
gr = torch.cuda.graphs.CUDAGraph()
major, minor = torch.cuda.get_device_capability()
torch.set_default_tensor_type("torch.cuda.FloatTensor")
x = x.type("torch.cuda.HalfTensor")
