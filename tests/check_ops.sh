#!/bin/sh
# tests/check_ops.sh: `npuify ops` against independent expectations.
#
#  1. every text sample under tests/data/profiler/: the rows npuify reads
#     (--rows) must equal expected/<path>.rows, made by the independent
#     reference reader tools/ref_rows.py (see expected/README.md);
#  2. every trace sample: operator -> calls must equal expected/<path>.ops
#     (tools/trace_ops.py, json.load / regex);
#  3. fresh logs made now with Debian's torch 1.13 (tools/gen_fresh.py):
#     rows must equal what the profiler's own Python API (key_averages(),
#     function_events) reported in the same run;
#  4. the Ascend guide's extract_ops_by_step rule, re-implemented here in
#     Python, against our names and dynamic ops (spec: 3 steps, 62, 34);
#  5. CLI contract: exit codes, outputs present, determinism, stdin, UTF-16BE;
#  6. torch 2.x operators and cut names: a log made here with operators new
#     in PyTorch 2.x and two names cut to 52 chars + "...", checked on six
#     torch_npu versions against expected/torch-2.x-synthetic/ops_status.tsv,
#     which an inline Python re-implementation of the rules makes from the
#     data files (data/torch/native_functions_v*.tsv, data/npu/aten_ops_v*).
# Run from the repo root; NPUIFY names the binary. UPDATE=1 regenerates the
# expected files from the reference scripts (never from npuify itself).
# Prints "N passed, N failed"; exits non-zero on failure.

NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
DATA=tests/data/profiler
EXP=$DATA/expected
TOOLS=$DATA/tools
LC_ALL=C
export LC_ALL
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}
check_same() { # label got want
    if cmp -s "$2" "$3"; then ok; else
        bad "$1"
        diff "$3" "$2" | head -10
    fi
}

run_rows() { # input outdir -> $2/rows.tsv without the input column
    rm -rf "$2"
    "$NPUIFY" ops "$1" -o "$2" --rows -q >"$2.out" 2>"$2.err"
    echo $? >"$2.rc"
    if [ -f "$2/rows.tsv" ]; then cut -f2- "$2/rows.tsv" >"$2.rows"; else : >"$2.rows"; fi
}

is_trace() {
    case "$1" in *.json) return 0 ;; esac
    return 1
}

# ---- 1 + 2: samples against expected files --------------------------------
for f in $(find "$DATA" -type f ! -path "$EXP/*" ! -path "$TOOLS/*" \
    ! -name README.md | sort); do
    rel=${f#"$DATA"/}
    if is_trace "$f"; then want=$EXP/$rel.ops; else want=$EXP/$rel.rows; fi
    if [ "${UPDATE:-0}" = 1 ]; then
        mkdir -p "$(dirname "$want")"
        if is_trace "$f"; then
            "$PY" "$TOOLS/trace_ops.py" "$f" >"$want"
        else
            "$PY" "$TOOLS/ref_rows.py" "$f" >"$want"
        fi
    fi
    if [ ! -f "$want" ]; then
        bad "$rel: no expected file $want (run with UPDATE=1)"
        continue
    fi
    run_rows "$f" "$tmp/o"
    if is_trace "$f"; then
        awk -F'\t' '{c[$6] += $4} END {for (n in c) print n "\t" c[n]}' \
            "$tmp/o.rows" | sort >"$tmp/got"
        check_same "$rel: trace operators and calls" "$tmp/got" "$want"
    else
        check_same "$rel: rows" "$tmp/o.rows" "$want"
        # the reference reader itself still agrees with its stored output
        "$PY" "$TOOLS/ref_rows.py" "$f" >"$tmp/ref"
        check_same "$rel: ref_rows.py reproduces expected" "$tmp/ref" "$want"
    fi
done

# ---- 3: fresh logs from torch 1.13, compared with the profiler's API -----
if "$PY" -c 'import torch' 2>/dev/null; then
    if env -u PYTHONUNBUFFERED "$PY" "$TOOLS/gen_fresh.py" "$tmp/fresh" \
        >"$tmp/gen.out" 2>&1; then
        for log in "$tmp"/fresh/*.log; do
            run_rows "$log" "$tmp/f"
            awk -F'\t' '{print $2 "\t" $6 "\t" $4 "\t" $8}' "$tmp/f.rows" |
                sort >"$tmp/got"
            sort "$log.truth" >"$tmp/want"
            if [ -s "$tmp/want" ]; then
                check_same "fresh $(basename "$log"): rows vs key_averages()" \
                    "$tmp/got" "$tmp/want"
            else
                bad "fresh $(basename "$log"): empty truth"
            fi
        done
    else
        bad "gen_fresh.py failed: $(tail -3 "$tmp/gen.out")"
    fi
else
    echo "note: /usr/bin/python3 has no torch; fresh-log checks skipped"
fi

# ---- 4: Huawei's extract_ops_by_step rule on the per-step sample ----------
log=$DATA/torch-1.13-cpu/per_step_tables_mlp.log
rm -rf "$tmp/h"
"$NPUIFY" ops "$log" -o "$tmp/h" -q 2>/dev/null
"$PY" - "$log" "$tmp/h/ops.csv" >"$tmp/h.out" <<'EOF'
import csv, re, sys
# The guide's algorithm (profiler_formats.md section 7), minimally.
step, first, later, names = 0, {}, {}, []
for line in open(sys.argv[1], encoding='utf-8'):
    if re.match(r'^Name.*Input Shapes$', line.strip()):
        step += 1
        continue
    if step == 0 or ('[[' not in line and '[]' not in line):
        continue
    f = [x.strip() for x in line.strip().split('  ') if x.strip()]
    name, shape = f[0], f[-1]
    if name not in names:
        names.append(name)
    (first if step == 1 else later).setdefault(name, set()).add(shape)
dyn = {n for n, s in later.items() if n not in first or s - first[n]}
rows = list(csv.DictReader(open(sys.argv[2], encoding='utf-8')))
ours = {r['Op'] for r in rows}
our_dyn = {r['Op'] for r in rows if r['Dynamic'] != 'static'}
print(step, len(names), len(dyn))
print('names-equal' if ours == set(names) else 'names-differ %s' % (ours ^ set(names)))
print('dynamic-equal' if our_dyn == dyn else 'dynamic-differ %s' % (our_dyn ^ dyn))
EOF
if [ "$(sed -n 1p "$tmp/h.out")" = "3 62 34" ]; then ok; else
    bad "Huawei rule on per_step_tables_mlp.log: $(sed -n 1p "$tmp/h.out") (spec: 3 62 34)"
fi
if grep -qx names-equal "$tmp/h.out"; then ok; else bad "names vs Huawei: $(sed -n 2p "$tmp/h.out")"; fi
if grep -qx dynamic-equal "$tmp/h.out"; then ok; else bad "dynamic vs Huawei: $(sed -n 3p "$tmp/h.out")"; fi
if grep -q '"steps":3,' "$tmp/h/report.json"; then ok; else bad "report.json: steps != 3"; fi
for out in all_ops.txt ops.csv dynamic_ops.csv report.json summary.md; do
    if [ -s "$tmp/h/$out" ]; then ok; else bad "missing output $out"; fi
done
# all_ops.txt: sorted, unique, operators only (no user ranges, no autograd)
if sort -u "$tmp/h/all_ops.txt" | cmp -s - "$tmp/h/all_ops.txt" &&
    ! grep -q 'Backward\|Optimizer\|ProfilerStep' "$tmp/h/all_ops.txt" &&
    grep -qx 'aten::addmm' "$tmp/h/all_ops.txt"; then ok; else
    bad "all_ops.txt content"
fi

# ---- 5: CLI contract --------------------------------------------------------
"$NPUIFY" ops >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "no input: exit 2 expected"
"$NPUIFY" ops --bogus x >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "unknown option: exit 2 expected"
"$NPUIFY" ops "$log" --torch-version 0.1 -o "$tmp/v" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "unshipped --torch-version: exit 2 expected"
"$NPUIFY" ops "$log" "$tmp/does-not-exist.log" -o "$tmp/m" -q >/dev/null 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q aten::addmm "$tmp/m/all_ops.txt"; then ok; else
    bad "missing input: exit 3 with reports of the rest expected (rc=$rc)"
fi
"$NPUIFY" ops "$DATA/README.md" -o "$tmp/e" -q >/dev/null 2>&1
[ $? -eq 3 ] && ok || bad "file without tables: exit 3 expected"
"$NPUIFY" ops "$log" -o "$tmp/d1" -q --compare-versions 2>/dev/null
"$NPUIFY" ops "$log" -o "$tmp/d2" -q --compare-versions 2>/dev/null
if diff -r "$tmp/d1" "$tmp/d2" >/dev/null; then ok; else bad "output not deterministic"; fi
"$NPUIFY" ops "$log" -o "$tmp/f1" -q --format csv 2>/dev/null
if [ -f "$tmp/f1/ops.csv" ] && [ ! -f "$tmp/f1/report.json" ]; then ok; else
    bad "--format csv wrote the wrong files"
fi
"$NPUIFY" ops "$log" -o "$tmp/v21" -q --torch-version 2.1 2>/dev/null
grep -q '"version":"2.1"' "$tmp/v21/report.json" && ok || bad "--torch-version 2.1 not in report.json"
# stdin, and UTF-16BE made from the UTF-16LE sample
run_rows "$log" "$tmp/s0"
rm -rf "$tmp/s1"
"$NPUIFY" ops - -o "$tmp/s1" --rows -q <"$log" 2>/dev/null
cut -f2- "$tmp/s1/rows.tsv" >"$tmp/s1.rows" 2>/dev/null
check_same "stdin rows" "$tmp/s1.rows" "$tmp/s0.rows"
gzip -c "$log" >"$tmp/gz.log.gz"
run_rows "$tmp/gz.log.gz" "$tmp/gz"
check_same "gzipped text log rows" "$tmp/gz.rows" "$tmp/s0.rows"
le=$DATA/torch-1.13-cpu/mixed_training_mlp_utf16le_bom.log
"$PY" -c 'import sys; d=open(sys.argv[1],"rb").read()[2:].decode("utf-16-le"); open(sys.argv[2],"wb").write(b"\xfe\xff"+d.encode("utf-16-be"))' "$le" "$tmp/be.log"
run_rows "$tmp/be.log" "$tmp/be"
run_rows "$le" "$tmp/le"
if [ -s "$tmp/le.rows" ]; then check_same "UTF-16BE rows = UTF-16LE rows" "$tmp/be.rows" "$tmp/le.rows"; else bad "UTF-16LE: no rows"; fi

# ---- 6: torch 2.x operators and names cut by the profiler ----------------
# The log: a key_averages() table (layout of torch 1.13-2.x, CPU only).
"$PY" - "$tmp/t2x.log" <<'EOF'
import sys
ops = [("aten::scaled_dot_product_attention", 4),  # composite, NPU kernel
       ("aten::_scaled_dot_product_flash_attention_for_cpu", 4),  # 2.4 on
       ("aten::_scaled_dot_product_flash_attention", 2),  # 2.2 on, backend
       ("aten::rms_norm", 8),             # implicit from the 2.4 table
       ("aten::_foreach_lgamma", 1),      # backend -> explicit in 2.4
       ("aten::_foreach_max", 1),         # explicit, 2.4 on
       ("aten::_safe_softmax", 4),        # explicit, 2.6 on
       ("aten::sym_constrain_range", 1),  # explicit, 2.2 on
       ("aten::_native_decoder_only_multi_head_attention", 1),  # 1.13 only
       ("aten::addmm", 6),
       ("aten::_grouped_mm", 2),          # explicit, 2.9 table (2.8 on)
       # cut to 52 + "...": one known operator (2.4 on), two (2.6 on)
       ("aten::_scaled_dot_product_flash_attention_for_cpu_backward", 4),
       ("aten::_scaled_dot_product_fused_attention_overrideable_backward", 2)]
sep = "-" * 55 + "  " + "  ".join(["-" * 12] * 6) + "  "
fmt = "%55s  %12s  %12s  %12s  %12s  %12s  %12s  "
out = [sep, fmt % ("Name", "Self CPU %", "Self CPU", "CPU total %",
                   "CPU total", "CPU time avg", "# of Calls"), sep]
for i, (name, calls) in enumerate(ops):
    if len(name) > 55:
        name = name[:52] + "..."
    us = 100 - 5 * i
    out.append(fmt % (name, "%.2f%%" % (us / 10), "%.3fus" % us,
                      "%.2f%%" % (us / 10), "%.3fus" % us,
                      "%.3fus" % (us / calls), calls))
out += [sep, "Self CPU time total: 1.000ms"]
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(out) + "\n")
EOF
want=$EXP/torch-2.x-synthetic/ops_status.tsv
# The reference: the rules of include/npuify/apidb.h re-implemented over the
# data files (versions >= 2.1 only: no tocpu/unsupported lists there).
cat >"$tmp/ref2x.py" <<'EOF'
import glob, re, sys

def minor(v):
    a = v.split(".")
    return int(a[0]), int(a[1])

tables = []  # (minor, label, {op: kind}), oldest first
for p in glob.glob("data/torch/native_functions_v*.tsv"):
    label = re.search(r"_v(.+)\.tsv$", p).group(1)
    rows = dict(l.rstrip("\n").split("\t")[:2] for l in open(p)
                if l.strip() and not l.startswith("#"))
    tables.append((minor(label), label, rows))
tables.sort()
RANK = {"implicit": 2, "explicit": 1, "backend": 0}

def kind_in(rows, op):  # exact op, else the most composite overload
    if op in rows:
        return rows[op]
    ks = [rows[k] for k in rows if k.startswith(op + ".")]
    return max(ks, key=lambda k: RANK[k]) if ks else None

def bases(keys, prefix):
    return {k.split(".")[0] for k in keys if k.startswith(prefix)}

for ver in sys.argv[2:]:
    npu = {l.strip() for l in open("data/npu/aten_ops_v%s.txt" % ver)
           if l.strip() and not l.startswith("#")}
    chain = [t for t in tables if t[0] <= minor(ver)][::-1] or tables[:1]

    def status(op):
        if any(k == op or k.startswith(op + ".") for k in npu):
            return "supported"
        for _, _, rows in chain:
            k = kind_in(rows, op)
            if k:
                return "cpu-fallback" if k == "backend" else "composite"
        return "unknown"

    names, seps = [], 0
    for line in open(sys.argv[1], encoding="utf-8"):
        if line.startswith("-----"):
            seps += 1
        elif seps == 2:
            names.append(line[:55].strip())
    for name in names:
        op, cands = name[len("aten::"):], 0
        if name.endswith("...") and len(name) == 55:
            # no full name in this input: the known operators decide
            pre = op[:-3]
            found = bases(chain[0][2], pre) | bases(npu, pre)
            if len(found) != 1:
                print("%s\t%s\tunknown\t%d" % (ver, name, len(found)))
                continue
            op = found.pop()
            name = "aten::" + op
        print("%s\t%s\t%s\t%d" % (ver, name, status(op), cands))
EOF
if [ "${UPDATE:-0}" = 1 ]; then
    mkdir -p "$(dirname "$want")"
    "$PY" "$tmp/ref2x.py" "$tmp/t2x.log" 2.1 2.3 2.5 2.6 2.8 2.12 | sort >"$want"
fi
"$PY" "$tmp/ref2x.py" "$tmp/t2x.log" 2.1 2.3 2.5 2.6 2.8 2.12 | sort >"$tmp/ref2x"
check_same "torch 2.x ops: reference reproduces expected" "$tmp/ref2x" "$want"
: >"$tmp/got2x"
for v in 2.1 2.3 2.5 2.6 2.8 2.12; do
    rm -rf "$tmp/t2x"
    "$NPUIFY" ops "$tmp/t2x.log" -o "$tmp/t2x" -q --torch-version "$v" 2>/dev/null
    "$PY" - "$tmp/t2x/ops.csv" "$v" >>"$tmp/got2x" <<'EOF'
import csv, re, sys
for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    if r["Status"]:
        m = re.search(r"(\d+) known operators start so", r["Notes"])
        print("%s\t%s\t%s\t%s" % (sys.argv[2], r["Op"], r["Status"],
                                  m.group(1) if m else 0))
EOF
done
sort "$tmp/got2x" -o "$tmp/got2x"
check_same "torch 2.x ops: status per version" "$tmp/got2x" "$want"
# the resolved cut name is also what all_ops.txt lists (2.12, the last run)
if grep -qx 'aten::_scaled_dot_product_flash_attention_for_cpu_backward' \
    "$tmp/t2x/all_ops.txt"; then ok; else
    bad "all_ops.txt: cut name not resolved"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
