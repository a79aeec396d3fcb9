"""torch_npu.optim: the fused optimizers, emulated by torch's own.

torch_npu documents each NpuFused* optimizer as "core function compatible
with" the torch optimizer it is named after, fused over flattened parameter
groups (https://hiascend.com/doc_center/source/zh/Pytorch/600/apiref/
apilist/ptaoplist_000983.html for NpuFusedAdamW: torch.optim.AdamW; the
Adam page ptaoplist_000655 of Pytorch/700 likewise). The emulation is that
torch optimizer, so a script that switched to a fused optimizer takes the
same steps as before.
Lamb, AdamP, BertAdam and RMSpropTF have no torch counterpart here and are
real-but-not-emulated names.
"""
import torch


def _fused(base, name):
    cls = type(name, (base,), {"__module__": __name__,
                               "__doc__": f"{name}: {base.__name__}'s math"})
    return cls


NpuFusedSGD = _fused(torch.optim.SGD, "NpuFusedSGD")
NpuFusedAdam = _fused(torch.optim.Adam, "NpuFusedAdam")
NpuFusedAdamW = _fused(torch.optim.AdamW, "NpuFusedAdamW")
NpuFusedAdadelta = _fused(torch.optim.Adadelta, "NpuFusedAdadelta")
NpuFusedRMSprop = _fused(torch.optim.RMSprop, "NpuFusedRMSprop")
NpuFusedOptimizerBase = torch.optim.Optimizer

__all__ = ["NpuFusedSGD", "NpuFusedAdam", "NpuFusedAdamW",
           "NpuFusedAdadelta", "NpuFusedRMSprop", "NpuFusedOptimizerBase"]
