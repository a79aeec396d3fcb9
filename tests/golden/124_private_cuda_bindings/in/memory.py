import torch


def clear_memory():
    # the binding may be missing (torch.compile, builds without CUDA)
    if hasattr(torch._C, "_cuda_clearCublasWorkspaces"):
        torch._C._cuda_clearCublasWorkspaces()
    torch.cuda.empty_cache()


def device_count():
    return torch._C._cuda_getDeviceCount()


def compiled_for():
    return torch._C._cuda_getArchFlags()
