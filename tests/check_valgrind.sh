#!/bin/sh
# valgrind (memcheck, full leak check) over every unit test program of the
# release build and over the CLI's main jobs on bundled inputs.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
. tests/lib.sh
command -v valgrind >/dev/null || { fail "valgrind missing"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# vg NAME WANT CMD...: passes when memcheck finds nothing (exit 99 is its
# verdict) and CMD exits WANT; a crash (134 abort, 139 segfault, any other
# signal) or any other exit fails.
vg() {
    name=$1; want=$2; shift 2
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 99 ]; then
        fail "$name: memcheck errors"; head -n 40 "$tmp/err"
    elif [ "$rc" -ne "$want" ]; then
        fail "$name: exit $rc, want $want"; tail -n 20 "$tmp/err"
    else
        ok "$name"
    fi
}
for t in "$(dirname "$NPUIFY")"/tests/test_*; do
    case $t in *.d) continue ;; esac
    [ -x "$t" ] && vg "$(basename "$t")" 0 "$t"
done
vg "convert examples" 0 "$NPUIFY" convert examples -o "$tmp/conv" --quiet
vg "convert --diff" 0 "$NPUIFY" convert tests/golden/030_device_strings/in --diff
vg "convert syntax error" 3 "$NPUIFY" convert tests/golden/095_syntax_error/in --check
vg "ops text log" 0 "$NPUIFY" ops tests/data/profiler/torch-1.13-cpu/synthetic_hard_mixed.log -o "$tmp/ops1"
vg "ops trace" 0 "$NPUIFY" ops tests/data/profiler/torch-1.13-cpu/trace_legacy_unescaped_quote.json -o "$tmp/ops2"
vg "tokens" 0 "$NPUIFY" tokens examples/lstm_lm/train.py
vg "rules explain" 0 "$NPUIFY" rules --explain NPU101
vg "rules explain preview" 0 "$NPUIFY" rules --explain NPU307
vg "bad rule file" 3 "$NPUIFY" rules --rules tests/data/rules/bad_pass.json
finish
