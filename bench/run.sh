#!/bin/sh
# Front-end benchmark: MB/s of npuify's tokenizer and tokenizer+structure
# (pylex + pysyn) against CPython's own tokenize and ast.parse, on the same
# files in the same run: the CPython 3.11 stdlib and Debian's torch sources.
# Every program reads all files into memory first and times only the work,
# best of N rounds (BENCH_ROUNDS, default 3), on one core. The main table
# uses process CPU time (steadier on a shared machine); wall time follows.
#   usage: bench/run.sh [BIN]    (BIN: build/release/npuify; bench_front is
#                                 built next to it by mk/bench.mk)
set -eu
BIN=${1:-build/release/npuify}
DIR=$(dirname "$BIN")
FRONT=$DIR/bench_front
PY=/usr/bin/python3
ROUNDS=${BENCH_ROUNDS:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
export LC_ALL=C

if [ ! -x "$FRONT" ]; then
    make -s MODE="$(basename "$DIR")" "$FRONT" || {
        echo "bench: cannot build $FRONT" >&2; exit 1; }
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

corpus() { # name dir
    find "$2" -name '*.py' -type f 2>/dev/null | sort >"$TMP/$1.list"
    if [ ! -s "$TMP/$1.list" ]; then
        echo "bench: no .py files under $2, corpus $1 skipped" >&2
        return 0
    fi
    echo "$1" >>"$TMP/corpora"
    "$FRONT" -n "$ROUNDS" -l "$TMP/$1.list" >"$TMP/$1.out"
    "$PY" "$HERE/bench_py.py" "$ROUNDS" "$TMP/$1.list" >>"$TMP/$1.out"
}

: >"$TMP/corpora"
corpus stdlib /usr/lib/python3.11
corpus torch /usr/lib/python3/dist-packages/torch

# Table: one row per corpus; columns from "NAME FILES BYTES CPU_S CPU_MB/S
# WALL_S WALL_MB/S" lines. col=5 for CPU MB/s, col=7 for wall MB/s.
table() { # title col
    echo
    echo "$1"
    printf '%-7s %6s %7s | %8s %8s %9s %8s | %8s %8s | %8s %8s\n' \
        corpus files MB scan tokenize tok+struct pysyn \
        py_tok py_ast struct/ast tok/py_tok
    while read -r c; do
        awk -v c="$c" -v col="$2" '
            { v[$1] = $col; files = $2; bytes = $3 }
            END {
                r1 = v["py_ast"] > 0 ? v["structure"] / v["py_ast"] : 0
                r2 = v["py_tokenize"] > 0 ? v["tokenize"] / v["py_tokenize"] : 0
                printf "%-7s %6d %7.1f | %8.1f %8.1f %9.1f %8.1f | %8.1f %8.1f | %7.1fx %7.1fx\n",
                    c, files, bytes / 1e6, v["scan"], v["tokenize"],
                    v["structure"], v["pysyn"], v["py_tokenize"], v["py_ast"],
                    r1, r2
            }' "$TMP/$c.out"
    done <"$TMP/corpora"
}

echo "npuify front-end benchmark ($(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m)," \
     "best of $ROUNDS, MB/s = 1e6 bytes/s)"
echo "scan = memchr newline count (memory baseline); tok+struct = pylex+pysyn;"
echo "pysyn = structure alone on tokens made beforehand; py_* = CPython 3.11"
table "MB/s per core, process CPU time:" 5
table "MB/s per core, wall-clock time:" 7

echo
while read -r c; do
    awk -v c="$c" '
        { v[$1] = $5 }
        END {
            ratio = 0
            if (v["py_ast"] > 0) ratio = v["structure"] / v["py_ast"]
            ok1 = "MISSED"; if (v["structure"] >= 300) ok1 = "met"
            ok2 = "MISSED"; if (ratio >= 20) ok2 = "met"
            printf "%s: tokenize+structure %.0f MB/s (target 300: %s), %.1fx ast.parse (target 20x: %s)\n", c, v["structure"], ok1, ratio, ok2
        }' "$TMP/$c.out"
done <"$TMP/corpora"
