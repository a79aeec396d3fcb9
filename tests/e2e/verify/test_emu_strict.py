"""Emulator checks for npuify verify: the strict torch.npu / torch_npu
surface against npuify's API lists, and each fused API against a plain
torch implementation of its documented formula. Run with the emulator on
PYTHONPATH; ends with one "N passed, N failed" line.
Tolerance: |emulated - reference| <= 1e-5 + 1e-5 * |reference| (fp32)."""
import math
import os
import sys
import traceback

import torch
import torch_npu
from torch_npu._surface import SURFACE, data_dir

ROOT = os.path.dirname(os.path.abspath(__file__))
RESULTS = []


def check(fn):
    try:
        fn()
        RESULTS.append(True)
        print(f"ok {fn.__name__}")
    except Exception as exc:  # report and go on
        RESULTS.append(False)
        print(f"FAIL {fn.__name__}: {type(exc).__name__}: {exc}")
        traceback.print_exc(limit=3, file=sys.stdout)
    return fn


def close(a, b):
    assert a.shape == b.shape, (a.shape, b.shape)
    assert torch.allclose(a, b, rtol=1e-5, atol=1e-5), \
        float((a - b).abs().max())


def list_rows(name):
    with open(os.path.join(data_dir(), name), encoding="utf-8") as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}


@check
def helper_names_do_not_leak():
    for name in ("DEVICE_NAME", "TOTAL_MEMORY", "STATE", "count", "os",
                 "torch", "functools", "check_index", "device_index"):
        assert not hasattr(torch.npu, name), name
    for name in ("os", "sys", "torch", "BANNER", "SURFACE"):
        assert not hasattr(torch_npu, name), name


@check
def npu_all_is_the_shipped_list_implemented():
    listed = list_rows("torch_npu_npu_module_v2.12.txt")
    assert SURFACE.npu_all == listed
    assert set(torch.npu.__all__) <= listed
    for name in torch.npu.__all__:
        assert getattr(torch.npu, name) is not None
    # names used by real scripts are both listed and emulated
    for name in ("synchronize", "set_device", "device_count", "Event",
                 "manual_seed", "memory_allocated", "mstx"):
        assert name in torch.npu.__all__, name


@check
def real_but_not_emulated_differs_from_invented():
    try:
        torch.npu.NPUGraph
        raise AssertionError("NPUGraph should not be emulated")
    except AttributeError as exc:
        assert "real torch_npu" in str(exc) and "not emulate" in str(exc)
    try:
        torch.npu.no_such_api
        raise AssertionError("invented name accepted")
    except AttributeError as exc:
        assert "has no torch.npu.no_such_api" in str(exc)
    try:
        torch_npu.npu_giou
        raise AssertionError("npu_giou should not be emulated")
    except AttributeError as exc:
        assert "real torch_npu" in str(exc)


@check
def mstx_ranges():
    mstx = torch_npu.npu.mstx
    mstx.mark("m")
    assert mstx.range_push("a") == 1
    assert mstx.range_pop() == 0
    try:
        mstx.range_pop()
        raise AssertionError("unbalanced pop accepted")
    except RuntimeError:
        pass
    rid = mstx.range_start("r")
    mstx.range_end(rid)


@check
def rms_norm_matches_formula():
    torch.manual_seed(0)
    x, g = torch.randn(3, 5, 8), torch.randn(8)
    y, rstd = torch_npu.npu_rms_norm(x, g, epsilon=1e-5)
    ref_rms = torch.sqrt((x * x).sum(-1, keepdim=True) / 8 + 1e-5)
    close(y, x / ref_rms * g)
    close(rstd, 1 / ref_rms)


@check
def rotary_mul_matches_formula():
    torch.manual_seed(1)
    x, r1, r2 = torch.randn(2, 3, 4, 6), torch.randn(1, 1, 4, 6), \
        torch.randn(1, 1, 4, 6)
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    close(torch_npu.npu_rotary_mul(x, r1, r2), x * r1 + rotated * r2)


def reference_attention(q, k, v, mask, scale):
    # per batch and head, the textbook softmax(scale * q k^T) v
    b, n, s, d = q.shape
    out = torch.empty_like(q)
    for i in range(b):
        for h in range(n):
            sc = scale * q[i, h] @ k[i, h].T
            if mask is not None:
                sc = torch.where(mask, torch.tensor(-math.inf), sc)
            out[i, h] = torch.softmax(sc, dim=-1) @ v[i, h]
    return out


@check
def fusion_attention_layouts_and_mask():
    torch.manual_seed(2)
    b, n, s, d = 2, 3, 5, 4
    q, k, v = (torch.randn(b, n, s, d) for _ in range(3))
    mask = torch.triu(torch.ones(s, s, dtype=torch.bool), 1)
    ref = reference_attention(q, k, v, mask, 0.5)
    layouts = {
        "BNSD": (lambda t: t, lambda t: t),
        "BSND": (lambda t: t.transpose(1, 2), lambda t: t.transpose(1, 2)),
        "BSH": (lambda t: t.transpose(1, 2).reshape(b, s, n * d),
                lambda t: t.view(b, s, n, d).transpose(1, 2)),
        "SBH": (lambda t: t.permute(2, 0, 1, 3).reshape(s, b, n * d),
                lambda t: t.view(s, b, n, d).permute(1, 2, 0, 3)),
    }
    for name, (to, back) in layouts.items():
        out = torch_npu.npu_fusion_attention(
            to(q), to(k), to(v), n, name, atten_mask=mask, scale=0.5)
        assert len(out) == 7, name
        close(back(out[0]), ref)


@check
def fused_adamw_steps_like_adamw():
    torch.manual_seed(3)
    w = torch.randn(4, 4)
    a, b = w.clone().requires_grad_(), w.clone().requires_grad_()
    fused = torch_npu.optim.NpuFusedAdamW([a], lr=1e-2, weight_decay=0.1)
    plain = torch.optim.AdamW([b], lr=1e-2, weight_decay=0.1)
    for step in range(3):
        for p, opt in ((a, fused), (b, plain)):
            opt.zero_grad()
            (p.sin() * torch.arange(16.0).view(4, 4)).sum().backward()
            opt.step()
    close(a.detach(), b.detach())
    assert not hasattr(torch_npu.optim, "NpuFusedNothing")


passed = sum(RESULTS)
print(f"{passed} passed, {len(RESULTS) - passed} failed")
