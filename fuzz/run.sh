#!/bin/sh
# Build every fuzz/fuzz_*.c target with clang's libFuzzer (ASan+UBSan) over
# a fuzz-instrumented build of the library, then run each for
# FUZZ_SECONDS (default 30) from its seed corpus (fuzz/corpus_<name>/ when
# present, regression inputs included). Crashes are written under
# build/fuzz/artifacts/. With FUZZ_RUNS=N each target instead replays its
# corpus and then runs N inputs from the fixed seed FUZZ_SEED (default 1):
# the same inputs every time, which is what the test suite wants.
#   sh fuzz/run.sh            build and run all targets
#   sh fuzz/run.sh lex        only fuzz_lex
set -eu
CLANG=${CLANG:-clang-14}
secs=${FUZZ_SECONDS:-30}
command -v "$CLANG" >/dev/null || { echo "fuzz: $CLANG not found (sh tools/deps.sh test)"; exit 1; }
make -s MODE=fuzz CC="$CLANG" WERROR= build/fuzz/libnpuify.a >/dev/null
mkdir -p build/fuzz/bin build/fuzz/artifacts
passed=0; failed=0
for src in fuzz/fuzz_*.c; do
    name=$(basename "$src" .c); short=${name#fuzz_}
    [ $# -eq 0 ] || [ "$1" = "$short" ] || continue
    bin=build/fuzz/bin/$name
    "$CLANG" -std=c11 -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE -O1 -g \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -Iinclude -Isrc -Ibuild/fuzz/gen "$src" build/fuzz/libnpuify.a \
        -ljansson -lsqlite3 -lz -lm -lpthread -o "$bin"
    corpus=build/fuzz/corpus_$short
    # A reproducible run starts from the committed corpus alone.
    [ -z "${FUZZ_RUNS:-}" ] || rm -rf "$corpus"
    mkdir -p "$corpus"
    [ -d "fuzz/corpus_$short" ] && cp -R "fuzz/corpus_$short/." "$corpus/"
    # fuzz_migrate starts from the repository's own training scripts and
    # golden inputs (under 6000 bytes), read from where they live.
    if [ "$short" = migrate ]; then
        find examples tests/golden -name '*.py' -size -6000c \
            \( -path 'examples/*' -o -path '*/in/*' \) | sort |
            while read -r f; do
                cp "$f" "$corpus/seed_$(echo "$f" | tr / _)"
            done
    fi
    if [ -n "${FUZZ_RUNS:-}" ]; then
        echo "fuzz: $name, $FUZZ_RUNS runs from seed ${FUZZ_SEED:-1}"
        budget="-runs=$FUZZ_RUNS -seed=${FUZZ_SEED:-1}"
    else
        echo "fuzz: $name for ${secs}s"
        budget="-max_total_time=$secs"
    fi
    # shellcheck disable=SC2086 # $budget is two options on purpose
    if "$bin" $budget -max_len=65536 -timeout=10 \
        -artifact_prefix=build/fuzz/artifacts/"$short"- "$corpus" \
        >build/fuzz/"$short".log 2>&1; then
        passed=$((passed + 1))
        grep -aE "^#[0-9]+.*DONE" build/fuzz/"$short".log | tail -n 1
    else
        failed=$((failed + 1))
        echo "fuzz: $name FAILED"; tail -n 40 build/fuzz/"$short".log
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
