#!/bin/sh
# Build the release binary, then run the golden tests (tests/golden/README.md).
#   sh tools/run-golden.sh [CASE...]        UPDATE=1 sh tools/run-golden.sh CASE
set -e
cd "$(dirname "$0")/.."
make -j2 MODE=release build/release/npuify >/dev/null
NPUIFY=build/release/npuify exec sh tests/check_golden.sh "$@"
