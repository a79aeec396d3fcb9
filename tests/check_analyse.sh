#!/bin/sh
# npuify analyse and npuify db: golden projects under tests/analyse/ (each
# CASE/in/ with optional CASE/args, CASE/rc and the expected report files in
# CASE/expected/; UPDATE=1 writes them), SRC left untouched, convert's
# torch-API rows equal to analyse's, db counts against an independent count
# of the data files, db answers, usage errors, bad input, and corpus runs
# over the stdlib and Debian's torch sources.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
suite analyse
bad() { fail "$*"; }
check() { # name, then a command that must succeed
    name=$1; shift
    if "$@"; then ok; else bad "$name"; fi
}
tree_sum() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum) | sha256sum; }
# Every finding but the edits, one line each, from report.json.
findings_of() {
    $PY -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["category"] != "change":
        print("%s:%s %s %s | %s" % (f["file"], f["start"]["line"], f["rule"], f["api"], f["message"]))
' "$1"
}
expected_files="findings.txt unsupported_api.csv unknown_api.csv cuda_op_list.csv api_precision_advice.csv api_performance_advice.csv affinity_api_call.csv"

# ---- golden projects ----
for case in tests/analyse/*/; do
    case=${case%/}; name=${case##*/}
    [ -d "$case/in" ] || continue
    args=$(cat "$case/args" 2>/dev/null || true)
    want_rc=$(cat "$case/rc" 2>/dev/null || echo 0)
    before=$(tree_sum "$case/in")
    # shellcheck disable=SC2086
    LC_ALL=C "$NPUIFY" analyse "$case/in" -o "$tmp/$name" $args \
        >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    [ "$rc" = "$want_rc" ] && ok || bad "$name: exit $rc, expected $want_rc"
    [ "$(tree_sum "$case/in")" = "$before" ] && ok || bad "$name: SRC changed"
    sed -n 's/^## Effort: //p' "$tmp/$name/summary.md" >"$tmp/$name/effort"
    findings_of "$tmp/$name/report.json" >"$tmp/$name/findings.txt"
    # the training program as summary.md and the console summary show it
    sed -n '/^## Training program/,/^## /{/^## [^T]/!p;}' "$tmp/$name/summary.md" \
        >"$tmp/$name/training.txt"
    sed -n '/^training program of /,/^report: /{/^report: /!p;}' "$tmp/$name.out" \
        >"$tmp/$name/console.txt"
    if [ "${UPDATE:-0}" = 1 ]; then
        mkdir -p "$case/expected"
        for f in $expected_files effort; do cp "$tmp/$name/$f" "$case/expected/"; done
        for f in training.txt console.txt; do
            [ -s "$tmp/$name/$f" ] && cp "$tmp/$name/$f" "$case/expected/"
        done
        continue
    fi
    [ -d "$case/expected" ] || { bad "$name: missing expected, run with UPDATE=1"; continue; }
    for f in "$case"/expected/*; do
        f=${f##*/}
        if cmp -s "$case/expected/$f" "$tmp/$name/$f"; then ok; else
            bad "$name: $f differs"; diff "$case/expected/$f" "$tmp/$name/$f" | head -20
        fi
    done
    for f in training.txt console.txt; do # none where none is expected
        [ -e "$case/expected/$f" ] && continue
        if [ -s "$tmp/$name/$f" ]; then bad "$name: unexpected $f"; else ok; fi
    done
done

# ---- convert writes the same torch-API rows ----
"$NPUIFY" convert tests/analyse/torch21/in --check --torch-version 2.1 \
    --report-dir "$tmp/conv21" --quiet 2>/dev/null
for f in unsupported_api.csv unknown_api.csv; do
    check "convert $f = analyse $f" cmp -s "$tmp/conv21/$f" "$tmp/torch21/$f"
done
check "convert finds torch.cdist for 2.1" grep -q ',torch.cdist,' "$tmp/conv21/unknown_api.csv"
check "torch.cdist 2.1 is a check (its kernel is registered)" grep -q ',torch.cdist,"check on the device' "$tmp/conv21/unknown_api.csv"

# ---- db stats against the data files ----
"$NPUIFY" db stats --format json >"$tmp/stats.json"
count() { grep -v '^#' "$1" | cut -f"$2" | sed 's/ (class)$//' | LC_ALL=C sort -u | wc -l; }
stat_of() { # version set
    $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["versions"][sys.argv[2]][sys.argv[3]]["count"])' \
        "$tmp/stats.json" "$1" "$2"
}
for v in 2.1 2.6 2.7 2.8; do
    check "db stats $v supported" [ "$(stat_of $v torch_api_supported)" -eq "$(count data/npu/torch_api_supported_v$v.tsv 1)" ]
    check "db stats $v unsupported" [ "$(stat_of $v torch_api_unsupported)" -eq "$(count data/npu/torch_api_unsupported_v$v.txt 1)" ]
done
for v in 1.11 2.1 2.6 2.13; do
    check "db stats $v aten ops" [ "$(stat_of $v aten_ops)" -eq "$(count data/npu/aten_ops_v$v.txt 1)" ]
    check "db stats $v custom ops" [ "$(stat_of $v npu_custom_ops)" -eq "$(count data/npu/npu_custom_ops_v$v.txt 1)" ]
done
check "db stats 2.12 native" [ "$(stat_of 2.12 native_api)" -eq "$(count data/npu/torch_native_api_support_v2.12.0.tsv 2)" ]
check "db stats 2.3 uses the 2.1 lists" [ "$(stat_of 2.3 torch_api_unsupported)" -eq "$(count data/npu/torch_api_unsupported_v2.1.txt 1)" ]

table_of() { $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["tables"][sys.argv[2]])' "$tmp/stats.json" "$1"; }
rows() { grep -v '^#' "$1" | grep -c .; }
check "db stats renames" [ "$(table_of msft_renames)" -eq "$(rows data/npu/msfmktransplt_func_rename.tsv)" ]
check "db stats affinity" [ "$(table_of affinity)" -eq "$(rows data/npu/msfmktransplt_affinity_apis.tsv)" ]
check "db stats affinity torch" [ "$(table_of affinity_torch_apis)" -eq "$(grep -c '^torch	' data/npu/msfmktransplt_affinity_apis.tsv)" ]
check "db stats msFmkTransplt rules" [ "$(table_of msft_rules)" -eq "$(rows data/npu/msfmktransplt_common_rules.tsv)" ]
check "db stats cpp apis" [ "$(table_of cpp_apis)" -eq "$(rows data/npu/cpp_npu_api_cuda_equivalents.tsv)" ]
check "db stats cpp with cuda" [ "$(table_of cpp_apis_with_cuda_counterpart)" -eq "$(grep -v '^#' data/npu/cpp_npu_api_cuda_equivalents.tsv | awk -F'\t' '$2 != "-" && $2 != ""' | wc -l)" ]

# ---- db diff against comm ----
"$NPUIFY" db diff 2.1 2.6 --format json >"$tmp/diff.json"
grep -v '^#' data/npu/torch_api_unsupported_v2.1.txt | LC_ALL=C sort -u >"$tmp/u21"
grep -v '^#' data/npu/torch_api_unsupported_v2.6.txt | LC_ALL=C sort -u >"$tmp/u26"
added=$(LC_ALL=C comm -13 "$tmp/u21" "$tmp/u26" | wc -l)
removed=$(LC_ALL=C comm -23 "$tmp/u21" "$tmp/u26" | wc -l)
jd() { $PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]]))' "$tmp/diff.json" "$1" "$2"; }
check "db diff added" [ "$(jd torch_api_unsupported added)" -eq "$added" ]
check "db diff removed" [ "$(jd torch_api_unsupported removed)" -eq "$removed" ]

# ---- db query answers ----
q() { "$NPUIFY" db query "$@" --format json; }
jq_get() { $PY -c 'import json,sys; d=json.load(sys.stdin); print(d.get(sys.argv[1]))' "$1"; }
check "query cdist 2.1 unsupported" [ "$(q torch.cdist --torch-version 2.1 | jq_get status)" = unsupported ]
check "query cdist 2.8 supported" [ "$(q torch.cdist --torch-version 2.8 | jq_get status)" = supported ]
check "query nanquantile 2.8 unsupported" [ "$(q torch.nanquantile --torch-version 2.8 | jq_get status)" = unsupported ]
check "query aten::nonzero supported" [ "$(q aten::nonzero | jq_get status)" = supported ]
check "query nvtx alternative" sh -c "'$NPUIFY' db query torch.cuda.nvtx.range_push | grep -q torch_npu.npu.mstx.range_push"
check "query FusedAdam alternative" sh -c "'$NPUIFY' db query apex.optimizers.FusedAdam | grep -q torch_npu.optim.NpuFusedAdamW"
check "query: the restriction that makes a rename manual" sh -c "'$NPUIFY' db query torch.cuda.get_device_capability | grep -q '^rename_to_npu: manual: not renamed, named at its line (on NPU it returns what TORCH_NPU_DEVICE_CAPABILITY sets'"
check "query: a rename safe for some attributes only" sh -c "'$NPUIFY' db query torch.cuda.get_device_properties | grep -q '^rename_to_npu: safe only when reading name,total_memory,'"
check "query: no effect line for an API without a restriction row" sh -c "! '$NPUIFY' db query torch.cuda.synchronize | grep -q '^rename_to_npu'"
check "query supported restriction" sh -c "'$NPUIFY' db query torch.cdist --torch-version 2.12 --format json | grep -q '\"restriction\": \"Atlas A2 training series: yes, .*(A2=Y'"

# ---- usage errors ----
usage() { "$NPUIFY" "$@" >/dev/null 2>&1; [ $? -eq 2 ]; }
check "analyse without -o" usage analyse tests/analyse/torch21/in
check "analyse bad version" usage analyse tests/analyse/torch21/in -o "$tmp/x" --torch-version 9.9
check "analyse bad mode" usage analyse tests/analyse/torch21/in -o "$tmp/x" --mode nope
check "analyse missing SRC" usage analyse "$tmp/none" -o "$tmp/x"
check "db bad command" usage db nope
check "db query without name" usage db query
check "db bad version" usage db query torch.cdist --torch-version 0.1

# ---- bad input: no crash, the rest still analysed ----
mkdir -p "$tmp/badin/csrc"
printf 'import torch\nx = torch.cdist(a, b\n' >"$tmp/badin/broken.py"
printf 'import torch\0\n\377\376 torch.nanquantile(x)\n' >"$tmp/badin/nul.py"
printf 'PYBIND11_MODULE(m\n m.def("\n' >"$tmp/badin/csrc/cut.cpp"
printf 'TORCH_LIBRARY(ns, m) { m.def("' >"$tmp/badin/csrc/cut2.cu"
printf 'torch==\377+cu\n' >"$tmp/badin/requirements.txt"
printf 'import torch\ny = torch.cdist(a, b)\n' >"$tmp/badin/good.py"
"$NPUIFY" analyse "$tmp/badin" -o "$tmp/badout" --quiet --torch-version 2.1 2>/dev/null
rc=$?
check "bad input: exit $rc <= 3" [ $rc -le 3 ]
check "bad input: good.py still analysed" grep -q '^good.py,2,2,torch.cdist' "$tmp/badout/unknown_api.csv"

# ---- -o inside SRC: the reports are not analysed on the next run ----
cp -r tests/analyse/torch21/in "$tmp/selfin"
"$NPUIFY" analyse "$tmp/selfin" -o "$tmp/selfin/rep" --quiet 2>/dev/null
"$NPUIFY" analyse "$tmp/selfin" -o "$tmp/selfin/rep" --quiet 2>/dev/null
check "-o inside SRC: exit 0" [ $? -eq 0 ]
check "-o inside SRC: its files are not in the report" sh -c "! grep -q '\"rep/' '$tmp/selfin/rep/report.json'"

# ---- --deps: the installed packages the project imports ----
mkdir -p "$tmp/depsin"
printf 'import torch\nimport torchvision.ops\nimport json\nimport mylocal\n' >"$tmp/depsin/train.py"
printf 'X = 1\n' >"$tmp/depsin/mylocal.py"
if /usr/bin/python3 -c 'import torchvision' 2>/dev/null; then
    "$NPUIFY" analyse "$tmp/depsin" -o "$tmp/depsout" --quiet --deps \
        --python /usr/bin/python3 --torch-version 2.1 2>/dev/null
    check "--deps: exit 0" [ $? -eq 0 ]
    check "--deps: torchvision rows" grep -q '^deps:torchvision/models/alexnet.py,[0-9]*,[0-9]*,torch.nn.MaxPool2d,' "$tmp/depsout/unsupported_api.csv"
    check "--deps: stdlib and local modules not analysed" sh -c "! grep -q -e '--deps: json' -e '--deps: mylocal' '$tmp/depsout/npuify.log'"
else
    echo "--deps: /usr/bin/python3 has no torchvision, skipped"
fi
"$NPUIFY" analyse "$tmp/depsin" -o "$tmp/depsout2" --quiet --deps \
    --python /nonexistent/python 2>"$tmp/deps2.err"
check "--deps: a missing Python is a warning" [ $? -eq 0 ]
check "--deps: warning text" grep -q 'could not list' "$tmp/deps2.err"

# ---- corpus: finishes, reports parse ----
corpus() { # name dir
    [ -d "$2" ] || { echo "$1: $2 missing, skipped"; return; }
    "$NPUIFY" analyse "$2" -o "$tmp/c_$1" --quiet -j 2 --format json,csv,md 2>/dev/null
    rc=$?
    check "corpus $1: exit $rc <= 3" [ $rc -le 3 ]
    check "corpus $1: report.json parses" $PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/c_$1/report.json"
    echo "== corpus $1: $(($(wc -l <"$tmp/c_$1/unsupported_api.csv") - 1)) unsupported, $(($(wc -l <"$tmp/c_$1/unknown_api.csv") - 1)) unknown rows"
}
corpus stdlib /usr/lib/python3.11
corpus torch /usr/lib/python3/dist-packages/torch

finish
