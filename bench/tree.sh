#!/bin/sh
# Whole-tree throughput and peak memory of `npuify convert`, next to the
# baselines over the same tree in the same run: `cat` (the read limit),
# `cp -r`, `cp -r` + `sed -i s/cuda/npu/g` on the .py files, CPython
# ast.parse, ast.parse+ast.unparse, and torch.utils.hipify.hipify_python
# (on a copy; .py files only). Then a scaling table on 1x, 10x and 50x the
# tree (hard-linked copies in a temporary directory): wall time and peak
# RSS of --check and -o at -j1 and -j2. Wall time, one run each (BEST=N
# for best of N); ratios are from the same run, never a pass/fail.
#   sh bench/tree.sh [NPUIFY] [TREE]      (env SCALES="1 10 50", BEST=1)
set -u
NPUIFY=${1:-build/release/npuify}
TREE=${2:-/usr/lib/python3/dist-packages/torch}
PY=/usr/bin/python3
SCALES=${SCALES:-1 10 50}
BEST=${BEST:-1}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

pymb=$(find "$TREE" -name '*.py' -type f -printf '%s\n' | awk '{s+=$1} END {printf "%.2f", s/1e6}')
allmb=$(find "$TREE" -type f -printf '%s\n' | awk '{s+=$1} END {printf "%.2f", s/1e6}')
nfiles=$(find "$TREE" -type f | wc -l)
npy=$(find "$TREE" -name '*.py' -type f | wc -l)

# measure NAME CMD...: best wall seconds, its peak RSS (KiB) and the best
# CPU seconds (user+sys, steadier on a shared machine) into $tmp/r.NAME;
# output trees under $tmp/out removed before each run.
measure() {
    name=$1; shift
    best=; rss=; cpu=
    i=0
    while [ "$i" -lt "$BEST" ]; do
        rm -rf "$tmp/out" "$tmp/cp"
        /usr/bin/time -f '%e %M %U %S' -o "$tmp/time" "$@" >/dev/null 2>&1
        # the last line: a failing exit adds a line before it
        read -r t m u s <<EOF2
$(tail -1 "$tmp/time")
EOF2
        c=$(echo "$u + $s" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
            best=$t; rss=$m
        fi
        if [ -z "$cpu" ] || [ "$(echo "$c < $cpu" | bc -l)" = 1 ]; then
            cpu=$c
        fi
        i=$((i + 1))
    done
    echo "$best $rss $cpu" >"$tmp/r.$name"
}


measure check1 "$NPUIFY" convert --check --quiet -j 1 "$TREE"
measure check2 "$NPUIFY" convert --check --quiet -j 2 "$TREE"
measure out1 "$NPUIFY" convert --quiet -j 1 -o "$tmp/out" "$TREE"
measure out2 "$NPUIFY" convert --quiet -j 2 -o "$tmp/out" "$TREE"
measure cat sh -c 'find "$1" -type f -exec cat {} + >/dev/null' sh "$TREE"
measure cp cp -r "$TREE" "$tmp/cp"
measure cpsed sh -c 'cp -r "$1" "$2" &&
    find "$2" -name "*.py" -type f -exec sed -i s/cuda/npu/g {} +' sh "$TREE" "$tmp/cp"
cat >"$tmp/py.py" <<'PYEOF'
import ast, io, os, sys, tokenize, warnings
warnings.simplefilter("ignore")
mode, root = sys.argv[1], sys.argv[2]
for d, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith(".py"):
            continue
        p = os.path.join(d, f)
        if not os.path.isfile(p):
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
for mode in parse unparse tokenize; do
    measure "py_$mode" "$PY" "$tmp/py.py" "$mode" "$TREE"
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

echo "tree: $TREE ($nfiles files, $allmb MB; $npy .py files, $pymb MB); wall time, $(getconf _NPROCESSORS_ONLN) CPUs"
printf '%-40s %8s %9s %9s %9s %8s %8s\n' what seconds "py MB/s" "files/s" "peak MiB" "vs cp -r" "CPU s"
read -r tcp _ <"$tmp/r.cp"
row() { # name label files
    read -r t m c <"$tmp/r.$1"
    if [ "$(echo "$t <= 0" | bc -l)" = 1 ]; then t=0.001; fi
    printf '%-40s %8.2f %9.1f %9.0f %9.1f %7.2fx %8.2f\n' "$2" "$t" \
        "$(echo "$pymb / $t" | bc -l)" "$(echo "$3 / $t" | bc -l)" \
        "$(echo "$m / 1024" | bc -l)" "$(echo "$t / $tcp" | bc -l)" "$c"
}
row check1 "npuify convert --check -j1" "$npy"
row check2 "npuify convert --check -j2" "$npy"
row out1 "npuify convert -o -j1" "$nfiles"
row out2 "npuify convert -o -j2" "$nfiles"
row cat "cat (every file)" "$nfiles"
row cp "cp -r" "$nfiles"
row cpsed "cp -r + sed -i s/cuda/npu/g (*.py)" "$nfiles"
row py_tokenize "CPython tokenize (*.py)" "$npy"
row py_parse "CPython ast.parse (*.py)" "$npy"
row py_unparse "CPython ast.parse+ast.unparse (*.py)" "$npy"
row hipify "hipify_python ($hipped .py written)" "$npy"
r() { read -r a _ <"$tmp/r.$1"; read -r b _ <"$tmp/r.$2"; echo "$a / $b" | bc -l; }
# the same from CPU seconds (user+sys); a zero (too short to count) as 0.01
rc() {
    read -r _ _ a <"$tmp/r.$1"; read -r _ _ b <"$tmp/r.$2"
    echo "($a + ($a == 0) * 0.01) / ($b + ($b == 0) * 0.01)" | bc -l
}
printf 'ratios: -j2/-j1 speedup --check %.2fx, -o %.2fx; -o vs cp -r+sed %.2fx; --check vs ast.parse+unparse %.1fx\n' \
    "$(r check1 check2)" "$(r out1 out2)" "$(r out1 cpsed)" "$(r py_unparse check1)"
printf 'CPU time ratios: -o -j1 vs cp -r+sed %.2fx (target <= 1), vs cp -r %.2fx (target <= 2), vs cat %.2fx\n' \
    "$(rc out1 cpsed)" "$(rc out1 cp)" "$(rc out1 cat)"

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
        read -r t m _ <"$tmp/r.s"
        line="$line $(printf '%8.2f/%7.1f' "$t" "$(echo "$m / 1024" | bc -l)")"
        rm -rf "$tmp/out"
    done
    echo "$line"
    rm -rf "$root"
done
