#!/bin/sh
# tests/check_npuprof.sh: `npuify ops NPU_DIR [--compare GPU_PROFILE]` on the
# Ascend profiler fixtures of tests/npuprof/ (layouts: tests/npuprof/README.md).
#  1. golden outputs: npu_summary.md, npu_report.json, npu_types.csv (and
#     compare.md/.csv) equal tests/npuprof/expected/<case>/;
#  2. independent numbers: kernels, kernel time, time per core, FP32 matrix
#     time, optimizer kernels, from the CSV / the .db by Python's csv and
#     sqlite3 (check_numbers.py), equal npuify's report (report_numbers.py);
#     the framework-op calls in compare.csv equal trace_view.json's;
#  3. findings: every class fires on the FP32 run, none on the BF16 run, the
#     .db export gives the CSV's findings;
#  4. bad input: truncated CSV, wrong columns, a huge cell, broken JSON, a
#     file that is not SQLite, an empty directory: exit 3 with FILE:LINE
#     diagnostics, never a crash; usage errors exit 2;
#  5. npu_report.html parses with balanced tags, no script, nothing external;
#     a hostile type name comes back as text ('|' escaped in Markdown);
#  6. determinism: two runs are byte-identical.
# Run from the repo root; NPUIFY names the binary; UPDATE=1 rewrites the
# golden files (review the diff). Prints "N passed, N failed".

NPUIFY=${NPUIFY:-build/release/npuify}
PY=python3
D=tests/npuprof
EXP=$D/expected
LC_ALL=C
export LC_ALL
. tests/lib.sh
suite npuprof
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

same() { # label got want
    if [ -n "${UPDATE:-}" ]; then
        mkdir -p "$(dirname "$3")" && cp "$2" "$3"
    fi
    if cmp -s "$2" "$3"; then ok; else
        fail "$1"
        diff "$3" "$2" | head -10
    fi
}

run_case() { # case dir [gpu]
    out=$tmp/$1
    if [ -n "${3:-}" ]; then
        "$NPUIFY" ops "$2" --compare "$3" -o "$out" >"$tmp/$1.stdout" 2>"$tmp/$1.stderr"
    else
        "$NPUIFY" ops "$2" -o "$out" >"$tmp/$1.stdout" 2>"$tmp/$1.stderr"
    fi
    rc=$?
    [ $rc -eq 0 ] && ok || { fail "$1: exit $rc"; cat "$tmp/$1.stderr"; }
    for f in npu_summary.md npu_report.json npu_types.csv npu_report.html compare.md compare.csv; do
        [ -f "$out/$f" ] || continue
        same "$1/$f golden" "$out/$f" "$EXP/$1/$f"
    done
}

# 1. golden
run_case fp32 $D/mlp_fp32_ascend_pt
run_case fp32_db $D/mlp_fp32_db
run_case bf16 $D/mlp_bf16_ascend_pt/ASCEND_PROFILER_OUTPUT
run_case compare_cpu $D/mlp_fp32_ascend_pt $D/gpu_mlp_trace.json
run_case compare_kineto $D/mlp_fp32_ascend_pt $D/gpu_kineto_mlp.json

# 2. independent numbers
for c in fp32:mlp_fp32_ascend_pt fp32_db:mlp_fp32_db bf16:mlp_bf16_ascend_pt; do
    name=${c%%:*} dir=$D/${c#*:}/ASCEND_PROFILER_OUTPUT
    $PY $D/check_numbers.py "$dir" | grep -v '^calls ' >"$tmp/want.$name"
    $PY $D/report_numbers.py "$tmp/$name" >"$tmp/got.$name"
    same "$name numbers" "$tmp/got.$name" "$tmp/want.$name"
done
$PY $D/check_numbers.py $D/mlp_fp32_ascend_pt/ASCEND_PROFILER_OUTPUT |
    grep '^calls ' >"$tmp/want.calls"
$PY $D/report_numbers.py "$tmp/compare_kineto" | grep '^calls ' |
    sort >"$tmp/got.calls"
same "compare: NPU calls per operator" "$tmp/got.calls" "$tmp/want.calls"

# 3. findings
codes() { $PY -c 'import json,sys; print(" ".join(f["code"] for f in json.load(open(sys.argv[1]))["findings"]))' "$1"; }
[ "$(codes "$tmp/fp32/npu_report.json")" = "NPU801 NPU802 NPU803 NPU804 NPU805 NPU806" ] &&
    ok || fail "fp32: every finding class: $(codes "$tmp/fp32/npu_report.json")"
[ "$(codes "$tmp/fp32_db/npu_report.json")" = "$(codes "$tmp/fp32/npu_report.json")" ] &&
    ok || fail "db findings differ from the CSV's"
[ -z "$(codes "$tmp/bf16/npu_report.json")" ] && ok || fail "bf16: findings on a healthy run"
grep -q 'Cast (AI_CPU, INT64): 2 kernels, 170.0 us, shapes 64' "$tmp/fp32/npu_summary.md" &&
    ok || fail "AI_CPU finding names Cast with dtype and shape"
grep -q 'host time' "$tmp/compare_cpu/compare.md" && ok ||
    fail "a CPU-only GPU trace is compared on host time and says so"
head -12 "$tmp/compare_kineto/compare.md" | grep -q '^| aten::mm | both | 14 | 14 | 97.0 | 291.0 | 3.00x' &&
    ok || fail "kineto compare: aten::mm is the biggest regression"

# 4. bad input
bad() { # label expected-rc dir grep-pattern
    rm -rf "$tmp/bad"
    "$NPUIFY" ops "$3" -o "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    if [ $rc -ne "$2" ]; then fail "$1: exit $rc, want $2"; cat "$tmp/bad.err"; return; fi
    grep -q "$4" "$tmp/bad.err" && ok || { fail "$1: no '$4' in"; cat "$tmp/bad.err"; }
}
mk() { rm -rf "$tmp/in"; mkdir -p "$tmp/in"; }
KD=$D/mlp_fp32_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
mk; head -c 2000 $KD >"$tmp/in/kernel_details.csv"; printf '1,0,x,Cast,AI_CPU,"12\n' >>"$tmp/in/kernel_details.csv"
bad "truncated CSV (open quote)" 3 "$tmp/in" 'kernel_details.csv:[0-9]*:[0-9]*: error\[npu-csv-quote\]'
[ -s "$tmp/bad/npu_report.json" ] && ok || fail "truncated CSV: what was read is reported"
mk; printf 'Name,Self CPU,Calls\naten::mm,1,2\n' >"$tmp/in/kernel_details.csv"
bad "wrong columns" 3 "$tmp/in" "kernel_details.csv:1:.*no 'Duration(us)' column"
mk; { head -1 $KD; printf '1,0,'; head -c 300000 /dev/zero | tr '\0' x; printf ',Add,AI_CORE,1,2,0\n'; } >"$tmp/in/kernel_details.csv"
bad "huge cell" 0 "$tmp/in" 'npu-csv-long-cell'
mk; printf '[{"ph":"X","name":"a","ts":1,\n "dur": tru' >"$tmp/in/trace_view.json"
bad "broken JSON" 3 "$tmp/in" 'trace_view.json:2:[0-9]*: error\[npu-json\]'
mk; printf 'not sqlite\n' >"$tmp/in/ascend_pytorch_profiler_0.db"; printf 'Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%%)\n' >"$tmp/in/op_statistic.csv"
bad "not a database" 3 "$tmp/in" 'error\[npu-db\]'
mk; bad "empty directory" 3 "$tmp/in" 'error\[npu-input\]'
[ ! -e "$tmp/bad/npu_report.json" ] && ok || fail "empty directory: no report written"
"$NPUIFY" ops --compare $D/gpu_mlp_trace.json tests/npuprof/gpu_mlp_trace.json -o "$tmp/u" >/dev/null 2>&1
[ $? -eq 2 ] && ok || fail "--compare without an NPU directory: exit 2"
"$NPUIFY" ops $D/mlp_fp32_ascend_pt $D/mlp_bf16_ascend_pt -o "$tmp/u" >/dev/null 2>&1
[ $? -eq 2 ] && ok || fail "two NPU directories: exit 2"

$PY $D/html_check.py "$tmp"/fp32/npu_report.html "$tmp"/bf16/npu_report.html \
    "$tmp"/fp32_db/npu_report.html && ok || fail "npu_report.html: balanced, self-contained"

# hostile names: markup comes back as text in the page, '|' is escaped in tables
mk; printf 'Name,Type,Accelerator Core,Duration(us)\nx,<script>alert(1)</script>|t,AI_CPU,5\n' >"$tmp/in/kernel_details.csv"
"$NPUIFY" ops "$tmp/in" -o "$tmp/hostile" >/dev/null 2>&1
if grep -q '<script' "$tmp/hostile/npu_report.html" ||
    ! grep -q '&lt;script&gt;alert(1)&lt;/script&gt;|t' "$tmp/hostile/npu_report.html"; then
    fail "hostile type name in npu_report.html"
else ok; fi
$PY $D/html_check.py "$tmp/hostile/npu_report.html" && ok || fail "hostile: page balanced"
grep -q '^| &lt;script\|^| <script>alert(1)</script>\\|t |' "$tmp/hostile/npu_summary.md" && ok ||
    fail "'|' escaped in npu_summary.md"
$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/hostile/npu_report.json" && ok ||
    fail "hostile name: npu_report.json is valid JSON"

# 6. determinism
"$NPUIFY" ops $D/mlp_fp32_ascend_pt --compare $D/gpu_kineto_mlp.json -o "$tmp/again" -q >/dev/null 2>&1
for f in npu_summary.md npu_report.json npu_types.csv npu_report.html compare.md compare.csv; do
    cmp -s "$tmp/again/$f" "$tmp/compare_kineto/$f" && ok || fail "determinism: $f"
done
finish
