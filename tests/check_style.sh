#!/bin/sh
# House style: clang-format clean (.clang-format) and no banned functions
# (tools/banned.sh), as `make format-check` checks.
set -u
passed=0; failed=0
if make -s format-check >/tmp/npuify-style.$$ 2>&1; then
    passed=$((passed + 1)); echo "ok   clang-format and banned functions"
else
    failed=$((failed + 1)); echo "FAIL style:"; tail -n 40 /tmp/npuify-style.$$
fi
rm -f /tmp/npuify-style.$$
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
