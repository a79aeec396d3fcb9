#!/usr/bin/python3
"""English for Huawei's restriction notes (the Chinese 限制与说明 texts of
data/npu/torch_native_api_support_v*.tsv, column 6, and the notes of
data/npu/torch_api_supported_v*.tsv, column 2).

Each distinct note is split at its " | " / " ; " joins into parts; a part is
translated by the formula it follows ("input仅支持fp16，fp32" = "input: only
fp16, fp32"; "支持fp32" = "supports fp32") or by the phrase table below
(translated by hand, npuify's authors). Output rows:
  original<TAB>english<TAB>how
how: "formula" (every part by formula), "phrase" (some part from the
phrase table), "partial" (some part left in Chinese, marked [zh: ...]).
Usage: tools/translate_notes.py data/npu > data/npu/restriction_notes_en.tsv
"""
import glob
import os
import re
import sys

TERMS = [
    ("<term>Atlas A2 训练系列产品</term>", "Atlas A2 training series"),
    ("<term>Atlas A3 训练系列产品</term>", "Atlas A3 training series"),
    ("<term>Ascend 950DT</term>", "Ascend 950DT"),
    ("Atlas A2 训练系列产品", "Atlas A2 training series"),
    ("Atlas A3 训练系列产品", "Atlas A3 training series"),
    ("<term>Atlas 训练系列产品</term>", "Atlas training series"),
    ("Atlas 训练系列产品", "Atlas training series"),
]

PHRASES = {
    "在输入x为六维以上时可能会出现性能下降问题":
        "inputs of more than 6 dimensions may be slower",
    "输入张量在重复后得到输出，输出中元素个数需小于$2^{22}$":
        "the output (the input repeated) must have fewer than 2^22 elements",
    "输入最大支持6维": "at most 6 input dimensions",
    "在输入包含0的情况下，输出中可能会包含正0和负0，而非只输出一个0":
        "with zeros in the input the output may hold both +0 and -0",
    "index维度需与input维度一致": "index must have the dimensions of input",
    "eps参数需大于0": "eps must be > 0",
    "当输入tensor值处于计数区间交界时，归于左区间计数还是右区间计数可能存在误差":
        "values on a bin edge may be counted in either neighbouring bin",
    "当前log_target参数仅支持False": "log_target must be False for now",
    "不支持nan场景": "NaN inputs are not supported",
    "memory_format仅支持torch.contiguous_format和torch.preserve_format":
        "memory_format: only torch.contiguous_format and "
        "torch.preserve_format",
    "当前NPU设备仅支持设置memory_format为torch.contiguous_format或"
    "torch.preserve_format":
        "on NPU memory_format may only be torch.contiguous_format or "
        "torch.preserve_format",
    "该API仅支持2维及以上的输入input": "input must have 2 or more dimensions",
    "目标序列的长度不支持0，即属性target_lengths的取值不能包含0":
        "target lengths cannot be 0 (target_lengths holds no 0)",
    "属性max_norm仅支持非负值": "max_norm must be non-negative",
    "参数dim指定为输入tensor中shape维度值为1的轴时，计算结果可能存在精度误差":
        "dim naming an axis of size 1 may give precision errors",
    "创建序列大小为steps的1维向量": "creates a 1-D tensor of steps elements",
    "入参target不支持反向计算": "no backward for the target argument",
    "不支持log_probs 2D输入": "2-D log_probs is not supported",
    "tensor、index、src参数不能为空且不能为scalar":
        "tensor, index and src cannot be empty or scalars",
    "return_indices为True时，返回的argmax的数据类型为int32":
        "with return_indices=True the argmax indices are int32",
    "**约束**：": "constraints:",
    "可能回退至CPU执行": "may fall back to the CPU",
    "回退至CPU执行": "falls back to the CPU",
    "仅CPU支持": "CPU only",
    "当前仅支持推理场景，不支持训练场景": "inference only for now, not training",
    "目前嵌套张量只支持创建，不支持其他操作":
        "nested tensors: only creation is supported, no other operation",
    "未设置device时，调用该接口会隐式地初始化当前device（默认0卡）":
        "without a device set, calling it initialises the current device "
        "implicitly (device 0 by default)",
    "不支持double数据类型": "double (fp64) is not supported",
    "需通过torch.compile获取SymInt": "SymInt must come from torch.compile",
    "依赖稀疏tensor": "depends on sparse tensors",
    "不涉及dtype参数": "no dtype argument involved",
    "不支持传入torch.npu.DtypeTensor类型":
        "torch.npu.DtypeTensor types cannot be passed",
    "不支持5维度及以上输入": "inputs of 5 or more dimensions are not supported",
    "输入范围为1-99": "input range 1-99",
    "backend可支持npugraphs，整体功能与backend=\"cudagraphs\"一致":
        "backend may be npugraphs, which does what backend=\"cudagraphs\" does",
    "支持Named Tensor": "supports named tensors",
    "两个输入的shape要保持一致": "both inputs must have the same shape",
    "weights维度需与input维度一致":
        "weights must have the dimensions of input",
    "int64类型不支持三个tensor同时广播":
        "int64: three tensors cannot broadcast together",
    "取值范围[-65504,65504]": "value range [-65504, 65504]",
    "支持的输入类型为Python Object对象": "input type: a Python object",
    "支持的输入类型为torch.nn.Optimizer对象":
        "input type: a torch.nn.Optimizer object",
    "不支持NPU融合优化器对象": "NPU fused optimizer objects are not supported",
    "导出文件内容为json格式": "the exported file is JSON",
    "不支持dropout参数": "the dropout argument is not supported",
    "不支持变长序列输入": "variable-length sequence input is not supported",
    "eps取值大于1时输出为nan，eps取值为1时输出为inf":
        "eps > 1 gives nan, eps = 1 gives inf",
    "approximate参数仅支持设置为tanh": "approximate must be 'tanh'",
    "建议使用已适配的torch_npu.distributed.rpc.options."
    "NPUTensorPipeRpcBackendOptions":
        "use the adapted torch_npu.distributed.rpc.options."
        "NPUTensorPipeRpcBackendOptions",
    "建议使用已适配的torch_npu.distributed.rpc.options."
    "NPUTensorPipeRpcBackendOptions.set_devices":
        "use the adapted torch_npu.distributed.rpc.options."
        "NPUTensorPipeRpcBackendOptions.set_devices",
    "建议使用已适配的torch_npu.distributed.rpc.options."
    "NPUTensorPipeRpcBackendOptions.set_device_map":
        "use the adapted torch_npu.distributed.rpc.options."
        "NPUTensorPipeRpcBackendOptions.set_device_map",
    "通过设置torch_npu.npu.use_compatible_impl(True)，保证与社区同名接口在内存"
    "一致性上对齐":
        "torch_npu.npu.use_compatible_impl(True) makes its memory behaviour "
        "match the upstream API of the same name",
    "Ascend 950DT：不支持fp64，complex64，complex128":
        "Ascend 950DT: fp64, complex64, complex128 not supported",
    "Ascend 950DT：不支持complex64，complex128":
        "Ascend 950DT: complex64, complex128 not supported",
    "Atlas A3 训练系列产品额外支持bf16":
        "Atlas A3 training series also supports bf16",
    "Atlas A3 training series额外支持bf16":
        "Atlas A3 training series also supports bf16",
    "仅支持name、total_memory、L2_cache_size、cube_core_num和vector_core_num"
    "属性，原cuda上支持的其余属性均返回空字段":
        "only the name, total_memory, L2_cache_size, cube_core_num and "
        "vector_core_num properties; the other CUDA properties are empty",
    "通过环境变量TORCH_NPU_DEVICE_CAPABILITY配置torch_npu.npu."
    "get_device_capability()的返回值，仅用于兼容原生PyTorch，不代表NPU硬件实际能力":
        "TORCH_NPU_DEVICE_CAPABILITY sets what torch_npu.npu."
        "get_device_capability() returns, for compatibility only: it is not "
        "the NPU's real capability",
}

DTYPE = r"(?:bf16|fp16|fp32|fp64|uint8|int8|int16|int32|int64|bool|" \
    r"complex32|complex64|complex128|hf32|fp8\w*|uint16|uint32|uint64)"
DLIST = DTYPE + r"(?:(?:，|, )" + DTYPE + r")*"


def dtypes(s):
    return s.replace("，", ", ")


FORMULAS = [
    (re.compile(r"^(\w+)仅支持(" + DLIST + r")$"),
     lambda m: "%s: only %s" % (m.group(1), dtypes(m.group(2)))),
    (re.compile(r"^支持(" + DLIST + r")$"),
     lambda m: "supports %s" % dtypes(m.group(1))),
    (re.compile(r"^仅支持(" + DLIST + r")$"),
     lambda m: "only %s" % dtypes(m.group(1))),
    (re.compile(r"^(\w+)不支持(" + DLIST + r")$"),
     lambda m: "%s: %s not supported" % (m.group(1), dtypes(m.group(2)))),
    (re.compile(r"^不支持(" + DLIST + r")$"),
     lambda m: "%s not supported" % dtypes(m.group(1))),
]


def terms(s):
    for zh, en in TERMS:
        s = s.replace(zh, en)
    return s


def part(p):
    """(english, how) for one part."""
    p = terms(p.strip())
    m = re.match(r"^((?:Atlas A2 training series|Atlas A3 training series|"
                 r"Atlas training series|Ascend 950DT)"
                 r"(?:(?:/|、)(?:Atlas A2 training series|"
                 r"Atlas A3 training series|Atlas training series|"
                 r"Ascend 950DT))*)：(.*)$", p)
    if m:
        en, how = part(m.group(2))
        return "%s: %s" % (m.group(1).replace("、", "/"), en), how
    for rx, fn in FORMULAS:
        m = rx.match(p)
        if m:
            return fn(m), "formula"
    if p in PHRASES:
        return PHRASES[p], "phrase"
    if not re.search(r"[\u3000-\u9fff\uff00-\uffef]", p):
        return p, "formula"  # already English (names, code)
    return "[zh: %s]" % p, "partial"


def translate(note):
    parts = re.split(r" \| | ; ", note)
    out, hows = [], set()
    for p in parts:
        en, how = part(p)
        out.append(en)
        hows.add(how)
    how = "partial" if "partial" in hows else \
        "phrase" if "phrase" in hows else "formula"
    return "; ".join(out), how


def notes(datadir):
    seen = set()
    for path, col in [(f, 5) for f in glob.glob(os.path.join(
            datadir, "torch_native_api_support_v*.tsv"))] + \
            [(f, 1) for f in glob.glob(os.path.join(
                datadir, "torch_api_supported_v*.tsv"))]:
        for line in open(path, encoding="utf-8"):
            if line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) > col and cols[col] not in ("", "-"):
                seen.add(cols[col])
    return sorted(seen, key=lambda s: s.encode())


def main():
    rows = [(n,) + translate(n) for n in notes(sys.argv[1])]
    counts = {}
    for r in rows:
        counts[r[2]] = counts.get(r[2], 0) + 1
    print("# English for the distinct restriction notes (Chinese, 限制与说明) "
          "of torch_native_api_support_v*.tsv (column 6) and "
          "torch_api_supported_v*.tsv (column 2); the original is column 1.")
    print("# Source: those files (their own headers name Huawei's pages); "
          "produced by tools/translate_notes.py: dtype formulas and a phrase "
          "table translated by hand by npuify's authors; parts without a "
          "translation stay in Chinese as [zh: ...]")
    print("# counts: %s" % ", ".join("%s=%d" % kv for kv in sorted(
        counts.items())))
    print("# columns: original<TAB>english<TAB>how (formula, phrase, "
          "partial)")
    for r in rows:
        print("\t".join(r))


main()
