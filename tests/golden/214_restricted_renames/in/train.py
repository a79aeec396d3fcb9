# torch_npu's lists restrict some torch.cuda APIs: a rename is made only
# where the restriction does not apply (data/npu/restriction_effects.tsv)
import torch

major, minor = torch.cuda.get_device_capability()  # None on NPU: manual
if torch.cuda.get_device_capability(0)[0] >= 8:  # manual
    pass
total = torch.cuda.get_device_properties(0).total_memory  # filled: safe
name = torch.cuda.get_device_properties(0).name  # filled: safe
props = torch.cuda.get_device_properties(0)  # attribute unknown: manual
arch = torch.cuda.get_device_properties(0).gcnArchName  # empty on NPU
stream = torch.cuda.current_stream()  # safe, with the note
