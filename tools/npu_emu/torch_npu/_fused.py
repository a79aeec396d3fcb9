"""torch_npu's fused operators, emulated by their documented reference math.

Each one computes what torch_npu's documentation defines, in plain torch
(fp32 where the inputs are fp32), so a converted script that adopted the
fused replacement npuify suggested can be compared numerically with the
original. Sources (Ascend/op-plugin, docs/context/ at master
517f2e7d0f202f38b76310706cb977ca2388ad21, and Huawei's API pages):
  npu_rms_norm          docs/context/（beta）torch_npu-npu_rms_norm.md:
                        RmsNorm(x)_i = x_i / Rms(x) * g_i,
                        Rms(x) = sqrt(mean(x^2) + eps); returns (y, 1/Rms)
  npu_rotary_mul        docs/context/torch_npu-npu_rotary_mul.md:
                        x1, x2 = chunk(x, 2, -1); y = x*r1 + cat(-x2, x1)*r2
  npu_fusion_attention  https://www.hiascend.com/document/detail/zh/Pytorch/
                        600/apiref/apilist/ptaoplist_000850.html:
                        out = Dropout(Softmax(Mask(scale*(pse + Q K^T),
                        atten_mask)), keep_prob) V; atten_mask True/1 marks
                        a position that does NOT take part; layouts BSH,
                        SBH, BSND, BNSD; returns 7 values (out, softmax_max,
                        softmax_sum, softmax_out, seed, offset, numels)
Dropout (keep_prob < 1) draws from the CPU generator, so it does not
reproduce an NPU's mask; sparse modes other than 0 and pre/next_tockens
windows are not emulated (they raise).
"""
import torch

_ALL_TOKENS = 2147483647


def npu_rms_norm(x, gamma, epsilon=1e-6):
    rstd = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + epsilon)
    y = (x.float() * rstd).to(x.dtype) * gamma
    return y, rstd


def npu_rotary_mul(x, r1, r2, rotary_mode="half"):
    if rotary_mode != "half":
        raise NotImplementedError("torch_npu emulator: npu_rotary_mul only "
                                  "emulates rotary_mode='half'")
    x1, x2 = torch.chunk(x, 2, dim=-1)
    return x * r1 + torch.cat((-x2, x1), dim=-1) * r2


def _to_bnsd(t, layout, heads):
    if layout == "BNSD":
        return t
    if layout == "BSND":
        return t.transpose(1, 2)
    if layout == "BSH":
        b, s, h = t.shape
        return t.view(b, s, heads, h // heads).transpose(1, 2)
    if layout == "SBH":
        s, b, h = t.shape
        return t.view(s, b, heads, h // heads).permute(1, 2, 0, 3)
    raise ValueError(f"input_layout {layout!r}: BSH, SBH, BSND or BNSD")


def _from_bnsd(t, layout):
    if layout == "BNSD":
        return t
    if layout == "BSND":
        return t.transpose(1, 2)
    b, n, s, d = t.shape
    if layout == "BSH":
        return t.transpose(1, 2).reshape(b, s, n * d)
    return t.permute(2, 0, 1, 3).reshape(s, b, n * d)  # SBH


def npu_fusion_attention(query, key, value, head_num, input_layout, pse=None,
                         padding_mask=None, atten_mask=None, scale=1.0,
                         keep_prob=1.0, pre_tockens=_ALL_TOKENS,
                         next_tockens=_ALL_TOKENS, inner_precise=0,
                         prefix=None, actual_seq_qlen=None,
                         actual_seq_kvlen=None, sparse_mode=0,
                         gen_mask_parallel=True, sync=False):
    if sparse_mode != 0 or prefix is not None or actual_seq_qlen is not None \
            or pre_tockens != _ALL_TOKENS or next_tockens != _ALL_TOKENS:
        raise NotImplementedError("torch_npu emulator: npu_fusion_attention "
                                  "emulates sparse_mode=0 without token "
                                  "windows only")
    q = _to_bnsd(query, input_layout, head_num)
    k = _to_bnsd(key, input_layout, head_num)
    v = _to_bnsd(value, input_layout, head_num)
    scores = torch.matmul(q, k.transpose(-2, -1))
    if pse is not None:
        scores = scores + pse
    scores = scores * scale
    if atten_mask is not None:
        scores = scores.masked_fill(atten_mask.bool(), float("-inf"))
    softmax_max = scores.amax(dim=-1, keepdim=True)
    probs = torch.softmax(scores.float(), dim=-1).to(q.dtype)
    softmax_sum = torch.exp(scores - softmax_max).sum(-1, keepdim=True)
    if keep_prob < 1.0:
        probs = torch.nn.functional.dropout(probs, p=1.0 - keep_prob)
    out = _from_bnsd(torch.matmul(probs, v), input_layout)
    return (out, softmax_max, softmax_sum, torch.empty(0), 0, 0, 0)
