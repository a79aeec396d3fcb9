#!/bin/sh
# valgrind (memcheck, full leak check) over every unit test program of the
# release build and over the CLI's main jobs on bundled inputs.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
command -v valgrind >/dev/null || { echo "valgrind missing"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
vg() { # name command...
    name=$1; shift
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$@" >"$tmp/out" 2>"$tmp/err"
    if [ $? -eq 99 ]; then
        failed=$((failed + 1)); echo "FAIL $name"; head -n 40 "$tmp/err"
    else
        passed=$((passed + 1)); echo "ok   $name"
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
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
