#!/bin/sh
# valgrind (memcheck, full leak check) over every unit test program of the
# release build and over the CLI's main jobs on bundled inputs.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
. tests/lib.sh
command -v valgrind >/dev/null || { fail "valgrind missing"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# vg NAME CMD...: memcheck errors (exit 99) fail, and so does a crash: a
# signal (exit 128+N, 134 abort, 139 segfault) or valgrind's own failure.
# npuify's documented exit codes (0-4) are results, not errors.
vg() {
    name=$1; shift
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 99 ]; then
        fail "$name: memcheck errors"; head -n 40 "$tmp/err"
    elif [ "$rc" -gt 4 ]; then
        fail "$name: exit $rc (crash?)"; tail -n 20 "$tmp/err"
    else
        ok "$name"
    fi
}
for t in "$(dirname "$NPUIFY")"/tests/test_*; do
    case $t in *.d) continue ;; esac
    [ -x "$t" ] && vg "$(basename "$t")" "$t"
done
vg "convert examples" "$NPUIFY" convert examples -o "$tmp/conv" --quiet
vg "convert --diff" "$NPUIFY" convert tests/golden/030_device_strings/in --diff
vg "convert syntax error" "$NPUIFY" convert tests/golden/095_syntax_error/in --check
vg "ops text log" "$NPUIFY" ops tests/data/profiler/torch-1.13-cpu/synthetic_hard_mixed.log -o "$tmp/ops1"
vg "ops trace" "$NPUIFY" ops tests/data/profiler/torch-1.13-cpu/trace_legacy_unescaped_quote.json -o "$tmp/ops2"
vg "tokens" "$NPUIFY" tokens examples/lstm_lm/train.py
vg "rules explain" "$NPUIFY" rules --explain NPU101
finish
