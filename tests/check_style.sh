#!/bin/sh
# House style: clang-format clean (.clang-format) and no banned functions
# (tools/banned.sh), as `make format-check` checks.
set -u
. tests/lib.sh
if make -s format-check >/tmp/npuify-style.$$ 2>&1; then
    ok "clang-format and banned functions"
else
    fail "style:"; tail -n 40 /tmp/npuify-style.$$
fi
rm -f /tmp/npuify-style.$$
finish
