"""The GPU side of the compare test: the fixture model (a 4-layer MLP,
16-64-64-64-4, cross entropy, AdamW) trained 2 steps under torch.profiler
with Debian's torch (python3-torch 1.13, CPU only, no kineto: the legacy
chrome trace, host times only). Run with /usr/bin/python3; writes
gpu_mlp_trace.json. The NPU fixtures (make_fixtures.py) model the same
operators as torch_npu would run them."""
import sys

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
model = torch.nn.Sequential(
    torch.nn.Linear(16, 64), torch.nn.ReLU(),
    torch.nn.Linear(64, 64), torch.nn.ReLU(),
    torch.nn.Linear(64, 64), torch.nn.ReLU(),
    torch.nn.Linear(64, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(64, 16)
y = torch.randint(0, 4, (64,))
with torch.profiler.profile(record_shapes=True) as prof:
    for _ in range(2):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        prof.step()
prof.export_chrome_trace(sys.argv[1] if len(sys.argv) > 1 else "gpu_mlp_trace.json")
