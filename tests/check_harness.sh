#!/bin/sh
# The test harness itself can fail: tests/lib.sh fails a suite that ran
# nothing or a sub-result without counts, and tools/run-tests.sh fails a
# suite that prints no "N passed, N failed" line or runs no check.
set -u
. tests/lib.sh
suite harness
ROOT=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# lib_case NAME WANT_RC WANT_LINE BODY: a suite made of BODY
lib_case() {
    printf '. %s/tests/lib.sh\n%s\nfinish\n' "$ROOT" "$4" >"$tmp/s.sh"
    sh "$tmp/s.sh" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -eq "$2" ] && tail -n 1 "$tmp/out" | grep -qx "$3"; then
        ok "lib: $1"
    else
        fail "lib: $1: exit $rc, last line '$(tail -n 1 "$tmp/out")'"
    fi
}
lib_case "two passes" 0 "2 passed, 0 failed" "ok; ok x"
lib_case "a failure" 1 "1 passed, 1 failed" "ok; fail x"
lib_case "nothing ran" 1 "0 passed, 1 failed" ":"
lib_case "counts added" 0 "5 passed, 0 failed" 'add_counts "sub: 5 passed, 0 failed"'
lib_case "no counts" 1 "0 passed, 1 failed" 'add_counts "Traceback"'
lib_case "suite name" 0 "x: 1 passed, 0 failed" "suite x; ok"

# run-tests.sh over fake suites
mkdir -p "$tmp/r/tests" "$tmp/r/b"
runner_case() { # NAME WANT_RC SUITE_BODY
    rm -f "$tmp/r/tests/"check_*.sh
    printf '%s\n' "$3" >"$tmp/r/tests/check_fake.sh"
    (cd "$tmp/r" && sh "$ROOT/tools/run-tests.sh" --all b) >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -eq "$2" ]; then ok "runner: $1"; else
        fail "runner: $1: exit $rc"; tail -n 5 "$tmp/out"; fi
}
runner_case "counted suite" 0 'echo "3 passed, 0 failed"'
runner_case "silent suite" 1 'echo hello'
runner_case "suite that ran nothing" 1 'echo "0 passed, 0 failed"'
runner_case "failing exit, no failure counted" 1 'echo "1 passed, 0 failed"; exit 2'
finish
