"""The hand port that adopted the replacements npuify suggests (NPU604,
NPU606, NPU608): torch_npu.npu_rms_norm, npu_rotary_mul,
npu_fusion_attention and torch_npu.optim.NpuFusedAdamW."""
import math

import torch
import torch_npu
from torch_npu.optim import NpuFusedAdamW

import model as plain


class NpuBlock(plain.Block):
    def forward(self, x):
        h = torch_npu.npu_rms_norm(x, self.norm.weight, self.norm.eps)[0]
        q, k, v = (self.split(t) for t in self.qkv(h).chunk(3, dim=-1))
        q = torch_npu.npu_rotary_mul(q, self.cos, self.sin)
        k = torch_npu.npu_rotary_mul(k, self.cos, self.sin)
        a = torch_npu.npu_fusion_attention(
            q, k, v, self.heads, "BNSD", atten_mask=self.mask,
            scale=1.0 / math.sqrt(q.shape[-1]))[0]
        b, n, s, d = a.shape
        return x + self.out(a.transpose(1, 2).reshape(b, s, n * d))


def main():
    torch.manual_seed(0)
    device = torch.device("npu" if torch.npu.is_available() else "cpu")
    model = NpuBlock().to(device)
    opt = NpuFusedAdamW(model.parameters(), lr=1e-2)
    x = torch.randn(2, 8, 16, device=device)
    for step in range(4):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"loss {loss.item():.9g}")


if __name__ == "__main__":
    main()
