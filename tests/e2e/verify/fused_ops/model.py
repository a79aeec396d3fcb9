"""A tiny attention block, in plain torch (the GPU original's math)."""
import math

import torch
import torch.nn as nn


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        rms = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * rms * self.weight


class Block(nn.Module):
    def __init__(self, dim=16, heads=2, seq=8):
        super().__init__()
        self.heads, self.dim = heads, dim
        self.norm = RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        pos = torch.arange(seq).float()[:, None]
        freq = 1.0 / 10000 ** (torch.arange(0, dim // heads, 2) / (dim // heads))
        ang = torch.cat((pos * freq, pos * freq), dim=-1)
        self.register_buffer("cos", ang.cos()[None, None])
        self.register_buffer("sin", ang.sin()[None, None])
        self.register_buffer("mask", torch.triu(
            torch.ones(seq, seq, dtype=torch.bool), diagonal=1))

    def split(self, t):
        b, s, _ = t.shape
        return t.view(b, s, self.heads, -1).transpose(1, 2)  # BNSD

    def rotary(self, t):
        return t * self.cos + rotate_half(t) * self.sin

    def attention(self, q, k, v):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(self.mask, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v

    def forward(self, x):
        h = self.norm(x)
        q, k, v = (self.split(t) for t in self.qkv(h).chunk(3, dim=-1))
        a = self.attention(self.rotary(q), self.rotary(k), v)
        b, n, s, d = a.shape
        return x + self.out(a.transpose(1, 2).reshape(b, s, n * d))
