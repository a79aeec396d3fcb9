#!/bin/sh
# bench/ops.sh: profiler TEXT log throughput of `npuify ops`, next to the
# method of Huawei's extract_ops_by_step (Python: keep lines holding "[["
# or "[]", split on two spaces, collect name -> shapes), on the same input,
# plus a raw read of the file as the floor. The input is the text samples
# of tests/data/profiler/ concatenated to about SIZE_MB (default 100) MB in
# a temporary directory. Each measurement is the best of RUNS (default 3).
# Target (DESIGN.md section 5): >= 300 MB/s for npuify, judged on CPU
# time (user+sys) when /usr/bin/time exists, else on wall time.
#
# usage: NPUIFY=build/release/npuify sh bench/ops.sh
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-3}
DATA=tests/data/profiler/torch-1.13-cpu

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
big=$tmp/big.log
: >"$big"
while [ "$(wc -c <"$big")" -lt $((SIZE_MB * 1000000)) ]; do
    cat "$DATA"/*.txt "$DATA"/*.log >>"$big"
done
bytes=$(wc -c <"$big")

now() { date +%s.%N; }

# a private copy: a rebuild of the tree while we measure cannot disturb it
cp "$NPUIFY" "$tmp/npuify" || exit 2
NPUIFY=$tmp/npuify
"$NPUIFY" ops "$big" -o "$tmp/out" -q >/dev/null 2>&1 || {
    echo "bench/ops.sh: npuify ops failed on the input" >&2
    exit 1
}

# best wall time of RUNS successful runs of "$@" (output discarded)
best_of() {
    best=
    i=0
    while [ $i -lt "$RUNS" ]; do
        t0=$(now)
        "$@" >/dev/null 2>&1 || { echo "bench/ops.sh: '$1' failed" >&2; exit 1; }
        t1=$(now)
        t=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
            best=$t
        fi
        i=$((i + 1))
    done
    echo "$best"
}

huawei_py() {
    "$PY" -c '
import sys
ops = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if "[[" in line or "[]" in line:
        f = [x.strip() for x in line.strip().split("  ") if x.strip()]
        if f:
            ops.setdefault(f[0], set()).add(f[-1])
print(len(ops))
' "$1"
}

# best CPU time (user+sys) of RUNS runs: steadier than wall time on a
# loaded machine; wall time also pays the reports' fsync.
best_cpu() {
    best=
    i=0
    while [ $i -lt "$RUNS" ]; do
        t=$(/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 |
            awk '{print $1 + $2}')
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
            best=$t
        fi
        i=$((i + 1))
    done
    echo "$best"
}

t_cat=$(best_of cat "$big")
t_npu=$(best_of "$NPUIFY" ops "$big" -o "$tmp/out" -q)
t_py=$(best_of huawei_py "$big")
c_npu=
[ -x /usr/bin/time ] && c_npu=$(best_cpu "$NPUIFY" ops "$big" -o "$tmp/out" -q)

mbs() { echo "scale=1; $bytes / 1000000 / $1" | bc -l; }
printf 'input: %s MB of profiler text (%s runs, best)\n' \
    "$(echo "scale=1; $bytes / 1000000" | bc -l)" "$RUNS"
printf '%-34s %8s s %9s MB/s\n' "raw read (cat)" "$t_cat" "$(mbs "$t_cat")"
printf '%-34s %8s s %9s MB/s\n' "npuify ops (parse+analyse+report)" "$t_npu" \
    "$(mbs "$t_npu")"
printf '%-34s %8s s %9s MB/s\n' "python two-space split (Huawei)" "$t_py" \
    "$(mbs "$t_py")"
if [ -n "$c_npu" ] && [ "$(echo "$c_npu > 0" | bc -l)" = 1 ]; then
    printf '%-34s %8s s %9s MB/s\n' "npuify ops, CPU time (user+sys)" \
        "$c_npu" "$(mbs "$c_npu")"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) on $(nproc) CPUs"
rows=$(grep -o '"rows":[0-9]*' "$tmp/out/report.json" | head -1 | cut -d: -f2)
echo "npuify read ${rows:-?} rows"
# The verdict uses CPU time when measured (wall time on a shared machine
# measures the neighbours); both numbers are printed above.
t_judge=${c_npu:-$t_npu}
if [ "$(echo "$(mbs "$t_judge") >= 300" | bc -l)" = 1 ]; then
    echo "target >= 300 MB/s: met ($(mbs "$t_judge") MB/s)"
else
    echo "target >= 300 MB/s: NOT met ($(mbs "$t_judge") MB/s)"
fi
