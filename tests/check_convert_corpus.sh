#!/bin/sh
# Corpus properties of convert over real code: the CPython standard library
# and Debian's torch/torchvision sources. Every output of a parseable file
# parses, a second conversion changes nothing, and files without findings
# are byte-identical (tools/corpus_props.py).
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
run_corpus() { # name dir
    name=$1; dir=$2
    # CI installs the corpus (tools/deps.sh test): missing is a failure
    [ -d "$dir" ] || { fail "$name: $dir missing (sh tools/deps.sh test)"; return; }
    out=$tmp/$name.out; out2=$tmp/$name.out2
    "$NPUIFY" convert "$dir" -o "$out" --quiet --format json \
        --report-dir "$tmp/$name.rep" 2>"$tmp/$name.err"
    rc=$?
    [ $rc -le 3 ] || { fail "$name: convert crashed (exit $rc)"; return; }
    "$NPUIFY" convert "$out" -o "$out2" --quiet --format json \
        --report-dir "$tmp/$name.rep2" 2>/dev/null
    rc2=$?
    [ $rc2 -le 3 ] || { fail "$name: second convert crashed (exit $rc2)"; return; }
    echo "== $name ($dir): diagnostics: $(grep -c ': error\[' "$tmp/$name.err") errors"
    res=$($PY tools/corpus_props.py "$dir" "$out" "$out2" "$tmp/$name.rep/report.json")
    echo "$res"
    add_counts "$(echo "$res" | tail -n 1)"
}
run_corpus stdlib /usr/lib/python3.11
run_corpus torch /usr/lib/python3/dist-packages/torch
run_corpus torchvision /usr/lib/python3/dist-packages/torchvision
finish
