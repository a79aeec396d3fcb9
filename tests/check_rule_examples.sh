#!/bin/sh
# Every rule's before/after example is a test (one fixture per rule of
# data/rules/rules.json, run through `npuify convert` with the options its
# gates need; tests/rule_examples.py says what is compared). Known engine
# defects owned elsewhere are listed there as xfail.
#   NPUIFY=build/release/npuify sh tests/check_rule_examples.sh [ID...]
set -u
. tests/lib.sh
suite rule-examples
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$NPUIFY" ] || [ ! -x "$PY" ]; then
    fail "need $NPUIFY and $PY"; finish
fi
"$PY" tests/rule_examples.py "$NPUIFY" data/rules/rules.json "$tmp/case" "$@" \
    >"$tmp/log" 2>&1
rc=$?
grep -v '^[0-9]* passed, [0-9]* failed$' "$tmp/log"
add_counts "$(tail -n 1 "$tmp/log")"
[ "$rc" -eq 0 ] || [ "$failed" -gt 0 ] || fail "rule_examples.py exited $rc"
finish
