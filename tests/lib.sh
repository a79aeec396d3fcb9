# Shared by the tests/check_*.sh suites: the counters, the ok/fail helpers
# and the closing line that tools/run-tests.sh reads. Source it from the
# repository root:
#     . tests/lib.sh
#     suite rules                 # optional: prefix of the closing line
#     ok; ok "message"; fail "message"
#     add_counts "$(tail -n 1 sub.log)"   # another tool's "N passed, N failed"
#     finish                      # closing line; exit 1 on a failure
# A suite in which nothing passed fails too: a check that ran nothing
# proves nothing.
passed=0
failed=0
suite_name=

suite() { suite_name=$1; }

# ok [MESSAGE]: one check passed (printed when a message is given).
ok() {
    passed=$((passed + 1))
    [ $# -eq 0 ] || echo "ok   $*"
}

# fail MESSAGE: one check failed.
fail() {
    failed=$((failed + 1))
    echo "FAIL $*"
}

# add_counts LINE: add the counts of a "[NAME: ]N passed, N failed" line
# printed by another program; a line without them is one failure.
add_counts() {
    case $1 in
    *[0-9]" passed, "[0-9]*" failed"*)
        lc_p=${1%% passed*}; lc_p=${lc_p##* }
        lc_f=${1#* passed, }; lc_f=${lc_f%% failed*}
        passed=$((passed + lc_p)); failed=$((failed + lc_f)) ;;
    *) fail "no 'N passed, N failed' line in: ${1:-(nothing)}" ;;
    esac
}

# finish: print the closing line and exit (1 when anything failed, or when
# nothing passed).
finish() {
    [ "$passed" -gt 0 ] || [ "$failed" -gt 0 ] || fail "no check ran"
    echo "${suite_name:+$suite_name: }$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit $?
}
