#!/bin/sh
# convert throughput on Debian's torch sources, next to CPython's ast.parse
# over the same .py files in the same run (best of 3 each). Also `--check`
# (scan only, nothing written) and a raw read of the tree as a floor.
#   sh bench/convert.sh [NPUIFY] [TREE]
set -eu
NPUIFY=${1:-build/release/npuify}
TREE=${2:-/usr/lib/python3/dist-packages/torch}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mb=$(find "$TREE" -name '*.py' -type f -printf '%s\n' | awk '{s+=$1} END {printf "%.2f", s/1e6}')
nfiles=$(find "$TREE" -name '*.py' -type f | wc -l)

best() { # command... ; prints the best wall time of 3 runs in seconds
    b=
    for _ in 1 2 3; do
        rm -rf "$tmp/out"
        t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N)
        t=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
    done
    echo "$b"
}

t_convert=$(best "$NPUIFY" convert "$TREE" -o "$tmp/out" --quiet)
t_check=$(best "$NPUIFY" convert "$TREE" --check --quiet)
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
echo "corpus: $TREE ($nfiles .py files, $mb MB)"
printf '%-44s %9s %9s %8s\n' "what" "seconds" "MB/s" "vs ast"
row() { printf '%-44s %9.3f %9.1f %7.1fx\n' "$1" "$2" "$(echo "$mb / $2" | bc -l)" "$(echo "$t_ast / $2" | bc -l)"; }
row "npuify convert -o (tree copy + reports)" "$t_convert"
row "npuify convert --check (scan only)" "$t_check"
row "CPython ast.parse (files in memory)" "$t_ast"
