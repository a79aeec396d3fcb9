#!/bin/sh
# analyse throughput on Debian's torch sources, next to `convert --check`
# and CPython's ast.parse over the same .py files, in the same run: best of
# 5 alternating runs of analyse (reports written, as a user gets them),
# convert --check without reports and with the same reports, best of 3 for
# ast.parse; all on one thread. Ratios are against ast.parse and --check.
#   sh bench/analyse.sh [NPUIFY] [TREE]
set -eu
NPUIFY=${1:-build/release/npuify}
TREE=${2:-/usr/lib/python3/dist-packages/torch}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mb=$(find "$TREE" -name '*.py' -type f -printf '%s\n' | awk '{s+=$1} END {printf "%.2f", s/1e6}')
nfiles=$(find "$TREE" -name '*.py' -type f | wc -l)

timed() {
    rm -rf "$tmp/out"
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }

t_an=; t_check=; t_checkr=
for _ in 1 2 3 4 5; do
    t_an=$(min "$t_an" "$(timed "$NPUIFY" analyse "$TREE" -o "$tmp/out" --quiet -j 1)")
    t_check=$(min "$t_check" "$(timed "$NPUIFY" convert "$TREE" --check --quiet -j 1)")
    t_checkr=$(min "$t_checkr" "$(timed "$NPUIFY" convert "$TREE" --check --quiet -j 1 --report-dir "$tmp/out")")
done
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
echo "corpus: $TREE ($nfiles .py files, $mb MB), one thread"
printf '%-44s %9s %9s %8s %9s\n' "what" "seconds" "MB/s" "vs ast" "vs check"
row() {
    printf '%-44s %9.3f %9.1f %7.1fx %8.2fx\n' "$1" "$2" "$(echo "$mb / $2" | bc -l)" \
        "$(echo "$t_ast / $2" | bc -l)" "$(echo "$t_check / $2" | bc -l)"
}
row "npuify analyse -o (all modes, reports)" "$t_an"
row "npuify convert --check (scan only)" "$t_check"
row "npuify convert --check --report-dir (reports)" "$t_checkr"
row "CPython ast.parse (files in memory)" "$t_ast"
