#!/bin/sh
# `make bench`: one table of throughput and peak memory, every npuify
# command next to its baselines on the same input in the same run:
#   front end (bench_front: tokenize, tokenize+structure, files in memory)
#     vs CPython tokenize, ast.parse, ast.parse+ast.unparse;
#   convert --check and -o at -j1 and -j2 over the tree vs cat (the read
#     limit), cp -r, cp -r + sed -i s/cuda/npu/g, hipify_python (on a copy);
#   ops on a SIZE_MB profiler text log vs cat and Huawei's two-space split;
#   ops on a SIZE_MB Chrome trace vs cat and Python's json.load.
# Then the scaling table: 1x, 10x and 50x the tree (hard-linked copies),
# wall time and peak RSS of --check and -o at -j1 and -j2. Each row is the
# best of BEST runs by wall time, with its CPU time (user+sys) and peak
# RSS; MB/s is given on both (CPU time is the steadier on a shared
# machine). Ratios come from the same run and are never a pass/fail.
#   sh bench/tree.sh [NPUIFY] [TREE]   (env SCALES="1 10 50", BEST=1,
#                                       SIZE_MB=200)
set -u
NPUIFY=${1:-build/release/npuify}
TREE=${2:-/usr/lib/python3/dist-packages/torch}
PY=/usr/bin/python3
SCALES=${SCALES:-1 10 50}
BEST=${BEST:-1}
SIZE_MB=${SIZE_MB:-200}
HERE=$(cd "$(dirname "$0")" && pwd)
FRONT=$(dirname "$NPUIFY")/bench_front
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# npuify skips __pycache__ (and cp -r would copy it): measure everything
# on a copy without it, so every row reads and writes the same files
if [ -n "$(find "$TREE" -name __pycache__ -type d -print -quit)" ]; then
    cp -r "$TREE" "$tmp/tree"
    find "$tmp/tree" -name __pycache__ -type d -prune -exec rm -rf {} +
    TREE=$tmp/tree
fi

mb_of() { awk '{s+=$1} END {printf "%.2f", s/1e6}'; }
pymb=$(find "$TREE" -name '*.py' -type f -printf '%s\n' | mb_of)
allmb=$(find "$TREE" -type f -printf '%s\n' | mb_of)
nfiles=$(find "$TREE" -type f | wc -l)
npy=$(find "$TREE" -name '*.py' -type f | wc -l)
find "$TREE" -name '*.py' -type f | sort >"$tmp/py.list"

# measure NAME CMD...: best wall seconds, its CPU seconds and peak RSS
# (KiB) into $tmp/r.NAME; output trees under $tmp/out removed first.
measure() {
    name=$1; shift
    best=
    i=0
    while [ "$i" -lt "$BEST" ]; do
        rm -rf "$tmp/out" "$tmp/cp"
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" >"$tmp/stdout" 2>&1
        # the last line: a failing exit adds a line before it
        read -r t u s m <<EOF
$(tail -1 "$tmp/time")
EOF
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
            best=$t
            echo "$t $(echo "$u + $s" | bc -l) $m" >"$tmp/r.$name"
        fi
        i=$((i + 1))
    done
}

# ---- the front end, files in memory (bench_front's own timing) ----------
if [ -x "$FRONT" ]; then
    /usr/bin/time -f '%M' -o "$tmp/front.rss" "$FRONT" -n "$BEST" \
        -l "$tmp/py.list" >"$tmp/front.out" 2>/dev/null
    frss=$(tail -1 "$tmp/front.rss")
    # lines "NAME FILES BYTES CPU_S CPU_MB/S WALL_S WALL_MB/S"
    for k in tokenize structure; do
        awk -v k="$k" -v m="$frss" '$1 == k {print $6, $4, m}' \
            "$tmp/front.out" >"$tmp/r.front_$k"
    done
fi

# ---- convert over the tree, and its baselines ----------------------------
measure check1 "$NPUIFY" convert --check --quiet -j 1 "$TREE"
measure check2 "$NPUIFY" convert --check --quiet -j 2 "$TREE"
measure out1 "$NPUIFY" convert --quiet -j 1 -o "$tmp/out" "$TREE"
measure out2 "$NPUIFY" convert --quiet -j 2 -o "$tmp/out" "$TREE"
measure cat sh -c 'find "$1" -type f -exec cat {} + >/dev/null' sh "$TREE"
measure cp cp -r "$TREE" "$tmp/cp"
measure cpsed sh -c 'cp -r "$1" "$2" &&
    find "$2" -name "*.py" -type f -exec sed -i s/cuda/npu/g {} +' sh "$TREE" "$tmp/cp"
cat >"$tmp/py.py" <<'PYEOF'
import ast, io, sys, tokenize, warnings
warnings.simplefilter("ignore")
mode, listfile = sys.argv[1], sys.argv[2]
for p in open(listfile).read().split("\n"):
    if not p:
        continue
    with open(p, "rb") as fh:
        s = fh.read()
    try:
        if mode == "tokenize":
            for _ in tokenize.tokenize(io.BytesIO(s).readline):
                pass
        else:
            t = ast.parse(s)
            if mode == "unparse":
                ast.unparse(t)
    except (SyntaxError, tokenize.TokenError, ValueError):
        pass
PYEOF
for mode in tokenize parse unparse; do
    measure "py_$mode" "$PY" "$tmp/py.py" "$mode" "$tmp/py.list"
done
mkdir -p "$tmp/hip"
cp -r "$TREE" "$tmp/hip/src" 2>/dev/null
measure hipify timeout 300 "$PY" -c "
import sys
from torch.utils.hipify import hipify_python as h
h.hipify(project_directory=sys.argv[1], output_directory=sys.argv[2],
         extensions=('.py',), includes=('*',), show_progress=False,
         show_detailed=False)" "$tmp/hip/src" "$tmp/hip/out"
hipped=$(find "$tmp/hip/out" -name '*.py' 2>/dev/null | wc -l)
rm -rf "$tmp/hip"

# ---- ops on a profiler text log and on a Chrome trace --------------------
log=$tmp/big.log
: >"$log"
while [ "$(wc -c <"$log")" -lt $((SIZE_MB * 1000000)) ]; do
    cat tests/data/profiler/torch-1.13-cpu/*.txt \
        tests/data/profiler/torch-1.13-cpu/*.log >>"$log"
done
logmb=$(wc -c <"$log" | mb_of)
measure ops_log "$NPUIFY" ops "$log" -o "$tmp/out" -q
measure cat_log cat "$log"
measure py_log "$PY" -c '
import sys
ops = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if "[[" in line or "[]" in line:
        f = [x.strip() for x in line.strip().split("  ") if x.strip()]
        if f:
            ops.setdefault(f[0], set()).add(f[-1])
print(len(ops))' "$log"
rm -f "$log"
trace=$tmp/trace.json
"$PY" "$HERE/gen_trace.py" "$trace" "$SIZE_MB"
trmb=$(wc -c <"$trace" | mb_of)
measure ops_trace "$NPUIFY" ops "$trace" -o "$tmp/out" -q
measure cat_trace cat "$trace"
measure py_trace "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for e in d["traceEvents"] if e.get("ph") == "X"))' "$trace"
rm -f "$trace"

# ---- the table -----------------------------------------------------------
echo "tree: $TREE ($nfiles files, $allmb MB; $npy .py files, $pymb MB);" \
    "$(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-38s %7s %7s %7s %8s %8s %8s %8s\n' what "in MB" "wall s" "cpu s" \
    "MB/s cpu" "MB/s wal" "files/s" "peak MiB"
row() { # name label MB files
    [ -s "$tmp/r.$1" ] || { printf '%-38s (not measured)\n' "$2"; return; }
    read -r t c m <"$tmp/r.$1"
    t=$(echo "if ($t <= 0) 0.001 else $t" | bc -l)
    c=$(echo "if ($c <= 0) 0.001 else $c" | bc -l)
    printf '%-38s %7.1f %7.2f %7.2f %8.1f %8.1f %8.0f %8.1f\n' "$2" "$3" \
        "$t" "$c" "$(echo "$3 / $c" | bc -l)" "$(echo "$3 / $t" | bc -l)" \
        "$(echo "$4 / $t" | bc -l)" "$(echo "$m / 1024" | bc -l)"
}
row front_tokenize "npuify tokens (pylex, in memory)" "$pymb" "$npy"
row front_structure "npuify tokens+structure (in memory)" "$pymb" "$npy"
row py_tokenize "CPython tokenize (*.py)" "$pymb" "$npy"
row py_parse "CPython ast.parse (*.py)" "$pymb" "$npy"
row py_unparse "CPython ast.parse+ast.unparse (*.py)" "$pymb" "$npy"
row check1 "npuify convert --check -j1" "$pymb" "$npy"
row check2 "npuify convert --check -j2" "$pymb" "$npy"
row out1 "npuify convert -o -j1" "$pymb" "$nfiles"
row out2 "npuify convert -o -j2" "$pymb" "$nfiles"
row hipify "hipify_python ($hipped .py written)" "$pymb" "$npy"
row cpsed "cp -r + sed -i s/cuda/npu/g (*.py)" "$allmb" "$nfiles"
row cp "cp -r" "$allmb" "$nfiles"
row cat "cat (every file)" "$allmb" "$nfiles"
row ops_log "npuify ops, profiler text log" "$logmb" 1
row py_log "Python two-space split (Huawei)" "$logmb" 1
row cat_log "cat (the log)" "$logmb" 1
row ops_trace "npuify ops, Chrome trace" "$trmb" 1
row py_trace "Python json.load (the trace)" "$trmb" 1
row cat_trace "cat (the trace)" "$trmb" 1
# ratio A B COL: A's time over B's (COL 1 wall, 2 cpu)
ratio() {
    a=$(cut -d' ' -f"$3" "$tmp/r.$1" 2>/dev/null)
    b=$(cut -d' ' -f"$3" "$tmp/r.$2" 2>/dev/null)
    if [ -n "$a" ] && [ -n "$b" ] && [ "$(echo "$b > 0" | bc -l)" = 1 ]; then
        printf '%.2f' "$(echo "$a / $b" | bc -l)"
    else
        printf '?'
    fi
}
echo "-j2 speedup (wall): --check $(ratio check1 check2 1)x, -o $(ratio out1 out2 1)x;" \
    "CPU work -j2/-j1: --check $(ratio check2 check1 2)x, -o $(ratio out2 out1 2)x"
echo "convert --check vs ast.parse+unparse (cpu): $(ratio py_unparse check1 2)x;" \
    "-o -j1 time / cp -r+sed: $(ratio out1 cpsed 1)x, / cp -r: $(ratio out1 cp 1)x (wall)"
echo "-o -j1 CPU / cp -r+sed: $(ratio out1 cpsed 2)x (target <= 1), / cp -r: $(ratio out1 cp 2)x" \
    "(target <= 2), / cat: $(ratio out1 cat 2)x"

echo
echo "scaling (hard-linked copies of the tree): wall seconds / peak MiB"
printf '%-6s %16s %16s %16s %16s\n' copies "--check -j1" "--check -j2" "-o -j1" "-o -j2"
for n in $SCALES; do
    root=$tmp/scale$n
    mkdir -p "$root"
    i=1
    while [ "$i" -le "$n" ]; do
        # cp fails on the tree's dangling links but copies the rest; a
        # second cp would copy into the first, doubling the tree
        cp -rl "$TREE" "$root/c$i" 2>/dev/null ||
            [ -d "$root/c$i" ] || cp -r "$TREE" "$root/c$i" 2>/dev/null
        i=$((i + 1))
    done
    line=$(printf '%-6s' "${n}x")
    for what in "--check -j 1" "--check -j 2" "-o $tmp/out -j 1" "-o $tmp/out -j 2"; do
        # shellcheck disable=SC2086
        measure s "$NPUIFY" convert --quiet $what "$root"
        read -r t _ m <"$tmp/r.s"
        line="$line $(printf '%8.2f/%7.1f' "$t" "$(echo "$m / 1024" | bc -l)")"
        rm -rf "$tmp/out"
    done
    echo "$line"
    rm -rf "$root"
done
