#!/bin/sh
# tests/check_ops_gpu.sh: `npuify ops` on a GPU profiler log.
#
#  1. backend-only kernels (cudnn_convolution, cudnn_batch_norm,
#     _fused_adam_, _scaled_dot_product_flash_attention, miopen_*, and the
#     oneDNN mkldnn_convolution of CPU logs) get the status of their NPU
#     counterpart from data/npu/backend_ops.tsv, named in the Notes column
#     and in report.json "npu_counterpart"; none is cpu-fallback or unknown;
#  2. "composite": CompositeImplicitAutograd, or a CompositeExplicitAutograd
#     kernel (one for every backend: t, expand) outside a backend's own
#     family (mkldnn_convolution is filed so but calls oneDNN: item 1);
#  3. --compare-versions names the first torch_npu version newer than the
#     target that supports an op, never an older one (_cat: NPU kernel in
#     1.11 only, so none is named for 2.0 or 2.1).
# The expectations are written out here by hand from the data files.
# Run from the repo root; NPUIFY names the binary. Prints "N passed, N failed".

NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
LC_ALL=C
export LC_ALL
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bad() { fail "$1"; }

# A key_averages() table of a CUDA run (torch 2.x layout with CUDA columns).
"$PY" - "$tmp/gpu.log" <<'EOF'
import sys
ops = ["aten::cudnn_convolution", "aten::cudnn_batch_norm",
       "aten::cudnn_convolution_transpose", "aten::_fused_adam_",
       "aten::_fused_adamw_", "aten::_scaled_dot_product_flash_attention",
       "aten::_scaled_dot_product_efficient_attention", "aten::_cudnn_rnn",
       "aten::miopen_convolution", "aten::_fused_dropout",
       "aten::mkldnn_convolution", "aten::addmm", "aten::_cat", "aten::t",
       "aten::expand"]
cols = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
        "Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg",
        "# of Calls"]
sep = "-" * 55 + "  " + "  ".join(["-" * 12] * len(cols)) + "  "
fmt = "%55s  " + "%12s  " * len(cols)
out = [sep, fmt % tuple(["Name"] + cols), sep]
for i, name in enumerate(ops):
    us = 100 - 5 * i
    out.append(fmt % (name, "%.2f%%" % (us / 10), "%.3fus" % us,
                      "%.2f%%" % (us / 10), "%.3fus" % us, "%.3fus" % us,
                      "%.3fus" % us, "%.2f%%" % (us / 10), "%.3fus" % us,
                      "%.3fus" % us, 2))
out += [sep, "Self CPU time total: 1.000ms", "Self CUDA time total: 1.000ms"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF

# version<TAB>op<TAB>status<TAB>supported since<TAB>counterpart
cat >"$tmp/want" <<'EOF'
2.0	aten::_cat	unknown		
2.0	aten::_cudnn_rnn	supported		aten::lstm
2.0	aten::_fused_adam_	supported		npu::npu_apply_adam
2.0	aten::_fused_adamw_	supported		npu::npu_apply_adam_w
2.0	aten::_fused_dropout	supported		aten::native_dropout
2.0	aten::_scaled_dot_product_efficient_attention	unsupported	2.1	aten::scaled_dot_product_attention
2.0	aten::_scaled_dot_product_flash_attention	unsupported	2.1	aten::scaled_dot_product_attention
2.0	aten::addmm	supported		
2.0	aten::cudnn_batch_norm	supported		aten::native_batch_norm
2.0	aten::cudnn_convolution	supported		aten::convolution
2.0	aten::cudnn_convolution_transpose	supported		aten::convolution
2.0	aten::expand	composite		
2.0	aten::miopen_convolution	supported		aten::convolution
2.0	aten::mkldnn_convolution	supported		aten::convolution
2.0	aten::t	composite		
2.1	aten::_cat	unknown		
2.1	aten::_cudnn_rnn	supported		aten::lstm
2.1	aten::_fused_adam_	supported		npu::npu_apply_adam
2.1	aten::_fused_adamw_	supported		
2.1	aten::_fused_dropout	supported		aten::native_dropout
2.1	aten::_scaled_dot_product_efficient_attention	supported		aten::scaled_dot_product_attention
2.1	aten::_scaled_dot_product_flash_attention	supported		aten::scaled_dot_product_attention
2.1	aten::addmm	supported		
2.1	aten::cudnn_batch_norm	supported		aten::native_batch_norm
2.1	aten::cudnn_convolution	supported		aten::convolution
2.1	aten::cudnn_convolution_transpose	supported		aten::convolution
2.1	aten::expand	composite		
2.1	aten::miopen_convolution	supported		aten::convolution
2.1	aten::mkldnn_convolution	supported		aten::convolution
2.1	aten::t	composite		
EOF

: >"$tmp/got"
for v in 2.0 2.1; do
    rm -rf "$tmp/o$v"
    if "$NPUIFY" ops "$tmp/gpu.log" -o "$tmp/o$v" -q --torch-version "$v" \
        --compare-versions 2>"$tmp/err$v"; then ok; else bad "ops --torch-version $v failed: $(cat "$tmp/err$v")"; fi
    "$PY" - "$tmp/o$v/ops.csv" "$tmp/o$v/report.json" "$v" >>"$tmp/got" <<'EOF'
import csv, json, re, sys
cp = {o["name"]: o["npu_counterpart"]
      for o in json.load(open(sys.argv[2]))["ops"]}
for r in csv.DictReader(open(sys.argv[1])):
    if not r["Status"]:
        continue
    m = re.search(r"on NPU: (\S+)", r["Notes"])
    note = m.group(1) if m else ""
    if note != cp.get(r["Op"], ""):
        print("report.json and ops.csv disagree on", r["Op"])
    print("\t".join([sys.argv[3], r["Op"], r["Status"], r["Supported Since"],
                     note]))
EOF
done
sort "$tmp/got" >"$tmp/got.s"
if diff -u "$tmp/want" "$tmp/got.s"; then ok; else bad "statuses of backend-only kernels, composite, --compare-versions"; fi
# no backend-only kernel is ever cpu-fallback or unknown
if grep -E 'cudnn|miopen|mkldnn|_fused_|_scaled_dot' "$tmp/got" | grep -qE '	(cpu-fallback|unknown)	'; then
    bad "a backend-only kernel reported cpu-fallback or unknown"
else ok; fi
# --compare-versions never names a version at or before the target
if awk -F'\t' '$4 != "" && $4 + 0 <= $1 + 0 { exit 1 }' "$tmp/got"; then ok; else bad "--compare-versions named an older version"; fi
# every row of the table names an operator that exists in the data
# (an NPU kernel, or a PyTorch operator that needs none)
"$PY" - <<'EOF' && ok || bad "backend_ops.tsv: a counterpart is not a known operator"
import glob, sys
known = set()
for p in glob.glob("data/npu/aten_ops_v*.txt") + glob.glob("data/npu/npu_custom_ops_v*.txt"):
    known |= {l.strip().split(".")[0] for l in open(p) if l.strip() and not l.startswith("#")}
for p in glob.glob("data/torch/native_functions_v*.tsv"):  # composite ones
    known |= {l.split("\t")[0].split(".")[0] for l in open(p) if l.strip() and not l.startswith("#")}
rows = [l.rstrip("\n").split("\t") for l in open("data/npu/backend_ops.tsv") if l.strip() and not l.startswith("#")]
badrows = [r for r in rows if len(r) != 3 or r[1].split("::", 1)[1] not in known]
for r in badrows:
    print("bad row:", r)
sys.exit(1 if badrows else 0)
EOF

finish
