#!/bin/sh
# Test runner: runs the cmocka unit programs of one or more build trees, then
# (with --all) every tests/check_*.sh suite against the release binary.
# Each suite reports counts (tests/lib.sh); this script adds them up and
# ends with the line "N passed, N failed" that CI reads. A suite without
# that line, or one that ran no check, counts as failed. Exit status 1 if
# anything failed.
#   tools/run-tests.sh --unit BUILD...
#   tools/run-tests.sh --all BUILD [ASAN_BUILD]
set -u
mode=$1; shift
main_build=$1
passed=0; failed=0; failed_suites=""
export LC_ALL=C

count_cmocka() { # $1 = log
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -n 1)
    echo "${p:-0} ${f:-0}"
}

run_suite() { # $1 = name, rest = command
    name=$1; shift
    log=$(mktemp)
    "$@" >"$log" 2>&1
    rc=$?
    case $name in
    unit:*) set -- $(count_cmocka "$log") ;;
    *) line=$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
       set -- $(echo "$line" | sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2 \3/')
       # a suite that does not say what it checked has not passed
       if [ $# -ne 2 ]; then
           echo "$name printed no 'N passed, N failed' line" >>"$log"
           set -- 0 1
       fi ;;
    esac
    p=$1; f=$2
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        echo "$name ran no check" >>"$log"; f=1
    fi
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -ne 0 ]; then
        failed_suites="$failed_suites $name"
        echo "---- $name FAILED (exit $rc), log:"; tail -n 60 "$log"
    else
        echo "ok   $name: $p passed"
    fi
    rm -f "$log"
}

for build in "$@"; do
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] || continue
        run_suite "unit:$(basename "$build")/$(basename "$t")" "$t"
    done
done

if [ "$mode" = --all ]; then
    for s in tests/check_*.sh; do
        [ -f "$s" ] || continue
        run_suite "$(basename "$s" .sh)" env NPUIFY="$main_build/npuify" sh "$s"
    done
fi

[ -n "$failed_suites" ] && echo "failed suites:$failed_suites"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
