#!/bin/sh
# A short, reproducible libFuzzer run of every fuzz target: its seed and
# regression corpus, then FUZZ_RUNS inputs (default 10000) from a fixed seed:
# lexer, edits, the whole per-file conversion (idempotence included),
# profiler text and JSON trace readers. Open-ended, time-boxed
# fuzzing with random seeds is `make fuzz` (fuzz/run.sh).
# Needs clang-14 and libclang-rt-14-dev (tools/deps.sh test installs them).
set -u
export FUZZ_RUNS=${FUZZ_RUNS:-10000}
. tests/lib.sh
out=$(sh fuzz/run.sh 2>&1)
rc=$?
echo "$out"
add_counts "$(echo "$out" | grep -aE '^fuzz: [0-9]+ passed, [0-9]+ failed' | tail -n 1)"
[ "$rc" -eq 0 ] || [ "$failed" -gt 0 ] || fail "fuzz/run.sh exited $rc"
finish
