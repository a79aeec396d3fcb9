import torch
import torchvision
from torchvision.ops import nms, RoIAlign
import apex
from apex.optimizers import FusedAdam
from flash_attn import flash_attn_func
import xformers.ops as xops
import bitsandbytes as bnb
import cupy
from numba import cuda as ncuda
import nvidia.dali.fn as dali_fn
import pyprof
import deepspeed


def step(model, b, s, q, k, v):
    keep = nms(b, s, 0.5)
    pool = RoIAlign((7, 7), 1.0, 2)
    opt = FusedAdam(model.parameters())
    out = flash_attn_func(q, k, v)
    att = xops.memory_efficient_attention(q, k, v)
    opt8 = bnb.optim.Adam8bit(model.parameters())
    engine, _, _, _ = deepspeed.initialize(model=model)
    return keep, pool, opt, out, att, opt8, engine, torchvision.ops.batched_nms
