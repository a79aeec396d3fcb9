"""SyncBatchNorm on the emulated NPU (CPU tensors).

torch 1.13's SyncBatchNorm refuses CPU input and its synchronised path uses
CUDA-only kernels (batch_norm_stats, ...), while torch_npu supports it. For
CPU input the emulator computes it in plain torch: per-channel count, sum
and sum of squares are all-reduced over the process group with the
differentiable torch.distributed.nn.functional.all_reduce (so the backward
pass synchronises too), then the batch is normalised with the global
statistics and the running statistics are updated with the unbiased global
variance, as SyncBatchNorm does. Without synchronisation (eval, or one
process) it is ordinary batch norm.
"""
import torch
import torch.distributed as dist
from torch.nn.modules.batchnorm import SyncBatchNorm, _BatchNorm


def _sync_group(module):
    if not (module.training and dist.is_available() and
            dist.is_initialized()):
        return None
    group = module.process_group or dist.group.WORLD
    return group if dist.get_world_size(group) > 1 else None


def _momentum(module):
    if module.momentum is not None:
        return module.momentum
    return 1.0 / float(module.num_batches_tracked)


def _synced_batch_norm(module, x, group):
    from torch.distributed.nn.functional import all_reduce
    dims = [0] + list(range(2, x.dim()))
    shape = [1, -1] + [1] * (x.dim() - 2)
    count = torch.full((1,), x.numel() / x.size(1), dtype=x.dtype)
    stats = torch.cat([x.sum(dims), (x * x).sum(dims), count])
    stats = all_reduce(stats, group=group)
    channels = x.size(1)
    total = stats[-1]
    mean = stats[:channels] / total
    var = stats[channels:2 * channels] / total - mean * mean
    if module.track_running_stats:
        module.num_batches_tracked.add_(1)
        m = _momentum(module)
        with torch.no_grad():
            unbiased = var * total / (total - 1).clamp(min=1)
            module.running_mean.mul_(1 - m).add_(mean, alpha=m)
            module.running_var.mul_(1 - m).add_(unbiased, alpha=m)
    out = (x - mean.view(shape)) * torch.rsqrt(var.view(shape) + module.eps)
    if module.affine:
        out = out * module.weight.view(shape) + module.bias.view(shape)
    return out


def install():
    forward = SyncBatchNorm.forward

    def sync_bn_forward(self, input):
        if input.device.type != "cpu":
            return forward(self, input)
        self._check_input_dim(input)
        group = _sync_group(self)
        if group is None:
            return _BatchNorm.forward(self, input)
        return _synced_batch_norm(self, input, group)

    SyncBatchNorm.forward = sync_bn_forward
