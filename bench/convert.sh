#!/bin/sh
# convert throughput on Debian's torch sources, next to CPython's ast.parse
# over the same .py files in the same run (best of 3 each). Also `--check`
# (scan only, nothing written), each on one thread (-j 1) and on JOBS
# threads (default 2, or the online CPUs when more), best of 5 alternating
# runs.
#   sh bench/convert.sh [NPUIFY] [TREE]     (env JOBS=N)
set -eu
NPUIFY=${1:-build/release/npuify}
TREE=${2:-/usr/lib/python3/dist-packages/torch}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mb=$(find "$TREE" -name '*.py' -type f -printf '%s\n' | awk '{s+=$1} END {printf "%.2f", s/1e6}')
nfiles=$(find "$TREE" -name '*.py' -type f | wc -l)

# One timed run of a command, in seconds (the output tree removed first).
timed() {
    rm -rf "$tmp/out"
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }

# best2 ARGS...: best of 5 runs of `convert ARGS -j 1` and of `-j JOBS`,
# alternating, so a load that comes and goes hits both alike. Prints both.
best2() {
    b1=; bj=
    for _ in 1 2 3 4 5; do
        b1=$(min "$b1" "$(timed "$NPUIFY" convert "$TREE" "$@" --quiet -j 1)")
        bj=$(min "$bj" "$(timed "$NPUIFY" convert "$TREE" "$@" --quiet -j "$JOBS")")
    done
    echo "$b1 $bj"
}

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
JOBS=${JOBS:-$(( ncpu > 2 ? ncpu : 2 ))}
set -- $(best2 -o "$tmp/out"); t_convert=$1; t_convert_j=$2
set -- $(best2 --check); t_check=$1; t_check_j=$2
t_ast=$($PY - "$TREE" <<'PYEOF'
import ast, os, sys, time, warnings
warnings.simplefilter("ignore")
srcs = []
for d, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        if f.endswith(".py"):
            with open(os.path.join(d, f), "rb") as fh:
                srcs.append(fh.read())
best = None
for _ in range(3):
    t0 = time.perf_counter()
    for s in srcs:
        try:
            ast.parse(s)
        except SyntaxError:
            pass
    t = time.perf_counter() - t0
    best = t if best is None or t < best else best
print(f"{best:.4f}")
PYEOF
)
echo "corpus: $TREE ($nfiles .py files, $mb MB), $ncpu CPUs online"
printf '%-44s %9s %9s %8s\n' "what" "seconds" "MB/s" "vs ast"
row() { printf '%-44s %9.3f %9.1f %7.1fx\n' "$1" "$2" "$(echo "$mb / $2" | bc -l)" "$(echo "$t_ast / $2" | bc -l)"; }
row "npuify convert -o (tree copy + reports)" "$t_convert"
row "npuify convert --check (scan only)" "$t_check"
row "npuify convert -o -j $JOBS" "$t_convert_j"
row "npuify convert --check -j $JOBS" "$t_check_j"
row "CPython ast.parse (files in memory)" "$t_ast"
