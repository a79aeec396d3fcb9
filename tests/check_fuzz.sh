#!/bin/sh
# A short libFuzzer run of every fuzz target (FUZZ_SECONDS each, default 10)
# from its seed corpus: lexer, edits, profiler text and JSON trace readers.
# Needs clang-14 and libclang-rt-14-dev (tools/deps.sh test installs them).
set -u
export FUZZ_SECONDS=${FUZZ_SECONDS:-10}
out=$(sh fuzz/run.sh 2>&1)
rc=$?
echo "$out"
line=$(echo "$out" | grep -E '^fuzz: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
if [ -n "$line" ]; then
    echo "${line#fuzz: }"
else
    echo "0 passed, 1 failed"
fi
exit $rc
