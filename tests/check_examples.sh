#!/bin/sh
# The bundled examples stay valid: every Python file parses with Debian's
# Python, every shell script passes `sh -n`, and the two small examples train
# a few steps on the CPU. Run from the repository root; ends with the line
# "N passed, N failed" like the tests/check_*.sh suites.
set -u
PY=/usr/bin/python3
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # name command...
    name=$1; shift
    if "$@" >"$tmp/log" 2>&1; then
        ok
    else
        fail "$name:"; sed -n '1,30s/^/    /p' "$tmp/log"
    fi
}

for f in examples/*/*.py; do
    check "parse $f" $PY -c 'import ast, sys; ast.parse(open(sys.argv[1], "rb").read(), sys.argv[1])' "$f"
done
for f in examples/*/*.sh; do
    check "sh -n $f" sh -n "$f"
done
if $PY -c 'import torch' 2>/dev/null; then
    check "run small_cnn" sh -c "cd '$tmp' && $PY '$PWD/examples/small_cnn/train.py' --steps 3"
    check "run lstm_lm" sh -c "cd '$tmp' && $PY '$PWD/examples/lstm_lm/train.py' --steps 3"
    check "imagenet_ddp --help" $PY examples/imagenet_ddp/train.py --help
else
    echo "torch is not importable with $PY: training runs skipped"
fi
finish
