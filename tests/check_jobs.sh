#!/bin/sh
# convert --jobs N gives the same results for every N: the converted tree,
# every report file, stdout (summary, --diff), stderr (diagnostics, in
# order) and the exit code are compared byte for byte with -j 1, over the
# golden inputs, the examples, a tree full of bad input and write errors,
# Debian's torch sources and the CPython standard library, in every action
# (-o, --diff, --check, --in-place). Then the same on the ASan build (small
# trees), ThreadSanitizer (build/tsan, built here with clang-14 when
# missing) and helgrind look for data races, and strace checks that -j N
# really converts on N threads (N - 1 started, and the calling one).
#   NPUIFY=build/release/npuify sh tests/check_jobs.sh
# Env: CHECK_JOBS_BIG=0 skips torch and the stdlib; CHECK_JOBS_TSAN=0 skips
# the ThreadSanitizer build and runs; CHECK_JOBS_HELGRIND=0 skips helgrind.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
ROOT=$(pwd)
case $NPUIFY in /*) ;; *) NPUIFY=$ROOT/$NPUIFY ;; esac
TORCH=/usr/lib/python3/dist-packages/torch
STDLIB=/usr/lib/python3.11
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

# run BIN TAG J SRC ACTION [ARGS...]: one conversion in a fresh directory
# $tmp/w (always the same path, so printed paths agree), whose stdout,
# stderr, exit code and outputs are kept as $tmp/r.TAG.J.
run() {
    rbin=$1; rtag=$2; rj=$3; rsrc=$4; raction=$5; shift 5
    w=$tmp/w
    rm -rf "$w" && mkdir -p "$w"
    case $raction in
    write) set -- -o out "$@" ;;
    conflict) # pre-existing output entries in the way: write errors
        mkdir -p "$w/out"
        for d in "$rsrc"/*/; do : >"$w/out/$(basename "$d")"; done
        set -- -o out --force "$@" ;;
    diff) set -- --diff "$@" ;;
    check) set -- --check "$@" ;;
    inplace) cp -a "$rsrc" "$w/tree" && rsrc=tree && set -- --in-place "$@" ;;
    esac
    (cd "$w" && "$rbin" convert "$rsrc" -j "$rj" "$@" >stdout 2>stderr
     echo $? >rc)
    rm -rf "$tmp/r.$rtag.$rj"
    mv "$w" "$tmp/r.$rtag.$rj"
}

# same TAG J: the -j J results equal the -j 1 ones.
same() {
    if diff -r --no-dereference "$tmp/r.$1.1" "$tmp/r.$1.$2" >"$tmp/d" 2>&1
    then ok
    else fail "$1: -j $2 differs from -j 1"; head -n 20 "$tmp/d"
    fi
}

# compare BIN TAG SRC ACTION [ARGS...]: -j 1 against each of $JOBS.
JOBS=${CHECK_JOBS_LIST:-"2 3 4"}
# with_jobs LIST COMMAND...: run COMMAND with JOBS=LIST.
with_jobs() {
    saved_jobs=$JOBS; JOBS=$1; shift
    "$@"
    JOBS=$saved_jobs
}
compare() {
    bin=$1; tag=$2; src=$3; action=$4; shift 4
    run "$bin" "$tag" 1 "$src" "$action" "$@"
    r=$tmp/r.$tag.1
    # Not vacuous: the reference run did its job.
    case $action in
    write|conflict) [ -f "$r/out/npuify_report/npuify.log" ] ;;
    inplace) [ -f "$r/tree/npuify_report/npuify.log" ] ;;
    diff) [ -s "$r/stdout" ] || [ -s "$r/stderr" ] ||
          [ "$src" = "$STDLIB" ] ;; # nothing to change there
    check) [ "$(cat "$r/rc")" -le 3 ] ;;
    esac || fail "$tag: the -j 1 run produced nothing (exit $(cat "$r/rc"))"
    [ "$(cat "$r/rc")" -le 3 ] || fail "$tag: -j 1 crashed (exit $(cat "$r/rc"))"
    for j in $JOBS; do
        run "$bin" "$tag" "$j" "$src" "$action" "$@"
        same "$tag" "$j"
        rm -rf "$tmp/r.$tag.$j"
    done
    rm -rf "$r"
}

# A tree of bad input: syntax errors, undecodable bytes, a NUL, shell
# launchers, a CUDA kernel (file rule), links, deep nesting, many files.
make_bad_tree() {
    b=$1
    mkdir -p "$b/pkg/sub/deeper" "$b/scripts" "$b/kernels" "$b/empty"
    printf 'import torch\nx = torch.randn(3).cuda(\n' >"$b/a_syntax.py"
    printf 'import torch\ns = "\377\376"\ntorch.cuda.set_device(0)\n' >"$b/b_bytes.py"
    printf 'import torch\nx = 1\0\ny = torch.cuda.is_available()\n' >"$b/c_nul.py"
    printf 'def f(:\n    return torch.cuda\n' >"$b/pkg/broken.py"
    printf '#!/bin/sh\nexport NCCL_DEBUG=INFO\nCUDA_VISIBLE_DEVICES=0,1 python train.py --backend nccl\n' >"$b/scripts/run.sh"
    printf '#!/usr/bin/env python3\nimport torch\nprint(torch.cuda.device_count())\n' >"$b/scripts/tool"
    printf '__global__ void k() {}\n' >"$b/kernels/k.cu"
    ln -s ../a_syntax.py "$b/pkg/link.py"
    ln -s /nonexistent/target "$b/pkg/dangling"
    i=0
    while [ $i -lt 40 ]; do
        printf 'import torch\nm = torch.nn.Linear(2, 2).cuda()\nif %d:\n  x = (\n' $i \
            >"$b/pkg/sub/deeper/m$i.py"
        printf 'import torch\ndev = torch.device("cuda:%d")\nt = torch.zeros(1).to(dev)\n' $i \
            >"$b/pkg/sub/ok$i.py"
        i=$((i + 1))
    done
    cp "$ROOT/tests/golden/095_syntax_error/in/"* "$b/pkg/" 2>/dev/null
    cp -r "$ROOT/examples/imagenet_ddp" "$b/"
}

bad_tree=$tmp/bad_tree
make_bad_tree "$bad_tree"
GOLDEN=$ROOT/tests/golden
EXAMPLES=$ROOT/examples

# equivalence BIN LABEL BIG: the whole comparison matrix for one binary.
equivalence() {
    bin=$1; label=$2; big=$3
    for a in write diff check inplace; do
        compare "$bin" "$label.golden.$a" "$GOLDEN" "$a"
        compare "$bin" "$label.examples.$a" "$EXAMPLES" "$a"
        compare "$bin" "$label.bad.$a" "$bad_tree" "$a"
    done
    compare "$bin" "$label.bad.conflict" "$bad_tree" conflict
    compare "$bin" "$label.bad.json" "$bad_tree" write --json-diagnostics
    compare "$bin" "$label.examples.auto" "$EXAMPLES" write --mode auto
    compare "$bin" "$label.examples.amp" "$EXAMPLES" write --amp --unsafe
    compare "$bin" "$label.golden.csv" "$GOLDEN" write --format csv,log
    for g in "$GOLDEN"/*/in; do
        n=$(basename "$(dirname "$g")")
        with_jobs 3 compare "$bin" "$label.$n" "$g" write
    done
    [ "$big" = 1 ] || return 0
    # Writing these trees is the slow part: fewer -j values there.
    if [ -d "$TORCH" ]; then
        with_jobs 4 compare "$bin" "$label.torch.write" "$TORCH" write
        compare "$bin" "$label.torch.diff" "$TORCH" diff
        compare "$bin" "$label.torch.check" "$TORCH" check
    fi
    if [ -d "$STDLIB" ]; then
        with_jobs 3 compare "$bin" "$label.stdlib.write" "$STDLIB" write
        with_jobs 2 compare "$bin" "$label.stdlib.diff" "$STDLIB" diff
        with_jobs 4 compare "$bin" "$label.stdlib.check" "$STDLIB" check
    fi
    return 0
}

echo "== release build: $NPUIFY"
equivalence "$NPUIFY" rel "${CHECK_JOBS_BIG:-1}"

# The command line: forms of the option and its bounds.
jobs_rc() { "$NPUIFY" convert "$EXAMPLES" --check -q "$@" >/dev/null 2>&1; echo $?; }
for arg in "-j 0" "-j 257" "-j x" "--jobs=" "-j -1" "-j2x"; do
    # shellcheck disable=SC2086
    rc=$(jobs_rc $arg)
    [ "$rc" = 2 ] && ok || fail "'$arg' should be a usage error, got exit $rc"
done
for arg in "-j 1" "-j2" "--jobs 3" "--jobs=256"; do
    # shellcheck disable=SC2086
    rc=$(jobs_rc $arg)
    [ "$rc" = 1 ] && ok || fail "'$arg' should run (exit 1 for pending changes), got $rc"
done
"$NPUIFY" convert --help | grep -q -- "--jobs N" && ok || fail "--help lists --jobs"

# -j N converts on N threads: N - 1 started besides the calling one (and
# -j 1 none).
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
    for j in 1 3; do
        strace -f -qq -e trace=clone,clone3 -o "$tmp/st" \
            "$NPUIFY" convert "$GOLDEN" --check -q -j $j >/dev/null 2>&1
        n=$(grep -cE 'clone.*= [1-9][0-9]*$' "$tmp/st")
        want=$((j > 1 ? j - 1 : 0))
        [ "$n" -eq "$want" ] && ok || fail "-j $j started $n threads, want $want"
    done
fi

# Many threads under a low descriptor limit, in a deep tree: the output
# directories each thread keeps open stay within its share of the limit,
# so every file is still written.
deep=$tmp/deep/src
for lvl in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
    deep=$deep/l$lvl && mkdir -p "$deep"
    i=0
    while [ $i -lt 400 ]; do
        i=$((i + 1)) && echo "x = torch.ones(2).cuda()" >"$deep/f$i.py"
    done
done
if (ulimit -n 1024 && "$NPUIFY" convert "$tmp/deep/src" -o "$tmp/deep/out" \
    -q -j 256 >"$tmp/deep.log" 2>&1) &&
    [ "$(find "$tmp/deep/out" -name '*.py' | wc -l)" -eq 6000 ]; then ok
else fail "-j 256 under ulimit -n 1024 lost files"; head -n 5 "$tmp/deep.log"
fi
rm -rf "$tmp/deep"

# ASan+UBSan build: the small trees.
ASAN=$ROOT/build/asan/npuify
if [ -x "$ASAN" ]; then
    echo "== ASan build: $ASAN"
    with_jobs 4 equivalence "$ASAN" asan 0
else
    echo "ASan binary missing (make MODE=asan all): skipped"
fi

# ThreadSanitizer: build with clang-14 (incremental when already there).
tsan_run() { # TAG SRC ACTION: no report, same results as release -j 1
    run "$NPUIFY" "tsan.$1" 1 "$2" "$3"
    run "$TSAN" "tsan.$1" 4 "$2" "$3"
    if grep -q "ThreadSanitizer" "$tmp/r.tsan.$1.4/stderr"; then
        fail "tsan $1: data race"; grep -A 30 "WARNING: ThreadSanitizer" "$tmp/r.tsan.$1.4/stderr" | head -n 40
    else
        ok
        same "tsan.$1" 4
    fi
}
TSAN=$ROOT/build/tsan/npuify
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
if [ "${CHECK_JOBS_TSAN:-1}" = 1 ] && command -v clang-14 >/dev/null; then
    echo "== ThreadSanitizer build: $TSAN"
    if make -s MODE=tsan CC=clang-14 'OPT_tsan=-O1 -g -fsanitize=thread' \
        build/tsan/npuify build/tsan/tests/test_convert_jobs \
        >"$tmp/tsan_build" 2>&1; then
        # clang-14's TSan runtime cannot start under the high mmap
        # randomisation of newer kernels ("unexpected memory mapping");
        # without ASLR it can. That is the environment, not a race.
        if "$TSAN" rules 2>&1 >/dev/null | grep -q "FATAL: ThreadSanitizer" &&
            command -v setarch >/dev/null; then
            echo "tsan: runtime needs ASLR off here; running under setarch -R"
            printf '#!/bin/sh\nexec setarch "$(uname -m)" -R %s "$@"\n' \
                "$ROOT/build/tsan/npuify" >"$tmp/tsan-npuify"
            chmod +x "$tmp/tsan-npuify"
            TSAN=$tmp/tsan-npuify
            TSAN_UNIT="setarch $(uname -m) -R build/tsan/tests/test_convert_jobs"
        else
            TSAN_UNIT=build/tsan/tests/test_convert_jobs
        fi
        if $TSAN_UNIT >"$tmp/tsan_unit" 2>&1; then
            ok
        else
            fail "tsan test_convert_jobs"; grep -A 30 "ThreadSanitizer\|FAIL" "$tmp/tsan_unit" | head -n 40
        fi
        for a in write diff inplace; do
            tsan_run "golden.$a" "$GOLDEN" "$a"
            tsan_run "bad.$a" "$bad_tree" "$a"
        done
        tsan_run bad.conflict "$bad_tree" conflict
        [ "${CHECK_JOBS_BIG:-1}" = 1 ] && [ -d "$TORCH" ] &&
            tsan_run torch.write "$TORCH" write
    else
        fail "ThreadSanitizer build (clang-14 is installed)"; tail -n 5 "$tmp/tsan_build"
    fi
fi

# helgrind: lock order, races on the small trees.
if [ "${CHECK_JOBS_HELGRIND:-1}" = 1 ] && command -v valgrind >/dev/null; then
    echo "== helgrind"
    for a in write diff; do
        (cd "$tmp" && rm -rf hg && valgrind --tool=helgrind -q --error-exitcode=99 \
            "$NPUIFY" convert "$bad_tree" $( [ $a = write ] && echo "-o hg" || echo --diff ) \
            -j 3 -q >/dev/null 2>"$tmp/hg.err")
        if [ $? -eq 99 ]; then
            fail "helgrind $a"; head -n 40 "$tmp/hg.err"
        else
            ok
        fi
    done
fi

finish
