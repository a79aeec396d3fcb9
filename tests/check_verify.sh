#!/bin/sh
# npuify run / verify end to end. Ten GPU training scripts written for this
# suite (tests/e2e/verify/*/train.py, styles in its README section) each go
# through: convert (tool mode) + verify --as-is, convert --mode auto +
# verify --as-is, `npuify run` (emulator on PYTHONPATH, as real torch_npu
# would be), `npuify verify` (converting on the fly), and convert --amp
# where the script has no AMP. Every run must end with exit 0 (verify: with
# "verify: ok"), take the NPU path (emulator counters) and print the same
# loss sequence as the original script run on CPU torch, within
# |a - b| <= 1e-5 (1 + |b|) per value (same CPU kernels, one thread, AMP
# off in the emulator); the --amp runs run with bf16 autocast on (it must
# be entered) and agree within 1e-2 (1 + |b|). The hand port fused_ops/train_npu.py (fused APIs,
# NpuFusedAdamW) is compared with its original the same way.
# Then: CUDA calls left in unconverted code are named at the original
# file:line with their rule, line numbers are mapped through inserted
# lines, invented and unemulated names fail, the cache is reused and keyed
# by content, concurrent runs share it, exit codes / signals / argv / cwd
# pass through, no user file is touched, the installed layout is found.
# Run from the repo root; NPUIFY names the binary.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
ROOT=$(pwd)
EMU=$ROOT/tools/npu_emu
V=$ROOT/tests/e2e/verify
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# PYTHONFAULTHANDLER: a run killed for hanging prints each Python
# thread's traceback (see limited below).
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1 \
    PYTHONFAULTHANDLER=1
export NPUIFY_EMU_QUIET=1 NPUIFY_EMU_AMP=off XDG_CACHE_HOME=$tmp/cache
unset PYTHONPATH NPUIFY_EMU_DEVICES NPUIFY_EMU_LOG NPUIFY_EMU_NPU_MODULE \
    NPUIFY_EMU_TORCH_VERSION NPUIFY_EMU_DATA TORCH_TRANSFER_TO_NPU \
    LOCAL_RANK RANK WORLD_SIZE 2>/dev/null
. tests/lib.sh
indent() { sed 's/^/       /'; }

# limited STACKS SECONDS CMD...: CMD in its own process group (timeout's).
# Past SECONDS it is taken to hang: where each of its processes is goes to
# the file STACKS (threads and their kernel wait channels, native stacks
# when gdb is installed), then each gets SIGABRT, on which Python prints
# every thread's traceback to its stderr (PYTHONFAULTHANDLER). Exit
# status: CMD's, or 124 when it hung. No retry: a hang is a failure.
limited() {
    lim_stacks=$1; lim_secs=$2; shift 2
    ulimit -c 0 2>/dev/null  # no core files from the SIGABRT below
    timeout -k 10 $((lim_secs + 60)) "$@" &
    lim_group=$!
    watchdog "$lim_stacks" "$lim_secs" "$lim_group" </dev/null >/dev/null 2>&1 &
    lim_dog=$!
    wait "$lim_group"; lim_rc=$?
    kill "$lim_dog" 2>/dev/null
    wait "$lim_dog"
    [ -e "$lim_stacks" ] && lim_rc=124
    return "$lim_rc"
}
watchdog() { # stacks seconds group (see limited)
    trap 'kill "$wd_nap" 2>/dev/null; exit 0' TERM
    sleep "$2" & wd_nap=$!
    wait "$wd_nap" || exit 0
    trap '' TERM  # from here on limited waits for the whole group to go
    wd_pids=$(ps -e -o pid= -o pgid= |
        awk -v g="$3" '$2 == g && $1 != g { print $1 }' | sort -rn)
    for p in $wd_pids; do
        echo "pid $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
        ps -L -o lwp,stat,wchan:28,comm -p "$p" | sed 1d
        command -v gdb >/dev/null &&
            gdb -batch -nx -p "$p" -ex 'thread apply all bt 16' 2>&1 |
            sed -n '/^Thread /p; /^#/{
                s/^\(#[0-9]*\) *\(0x[0-9a-f]* in \)\{0,1\}/\1 /
                s/ (.*) at [^ ]*$//; s/ from .*\// from /; p; }'
    done >"$1.part" 2>&1
    mv "$1.part" "$1"
    for p in $wd_pids; do # one at a time, children first: they share stderr
        kill -ABRT "$p" 2>/dev/null && sleep 1
    done
    sleep 3
    kill -KILL -- "-$3" 2>/dev/null
}
# hang_report DIR: what a run killed by limited left (stacks, tracebacks)
hang_report() {
    echo "hung: where each process was when it was killed:"
    cat "$1/stacks"
    echo "Python tracebacks (stderr):"
    grep -v '^Extension modules' "$1/err" | tail -n 80
}

if [ ! -x "$NPUIFY" ]; then
    fail "$NPUIFY is not built"; finish
fi
NPUIFY=$(cd "$(dirname "$NPUIFY")" && pwd)/$(basename "$NPUIFY")
before=$(cd "$V" && find . -type f | sort | xargs sha256sum | sha256sum)

SCRIPTS="imagenet_ddp_amp cuda_everywhere device_string lstm_sync dcgan
transformer_amp torch_amp ddp_torchrun hf_accum fused_ops"
# Scripts without AMP for convert --amp (hf_accum's accumulated
# `(loss / n).backward()` step is one --amp does not rewrite).
NO_AMP="cuda_everywhere device_string lstm_sync dcgan fused_ops"

# ---- conversions ------------------------------------------------------------
for mode in manual auto amp; do
    opt="--mode $mode"; [ $mode = amp ] && opt="--mode manual --amp"
    # shellcheck disable=SC2086
    if "$NPUIFY" convert "$V" -o "$tmp/conv/$mode" --quiet $opt \
        >"$tmp/conv-$mode.log" 2>&1; then ok "convert $opt"
    else fail "convert $opt"; tail -n 5 "$tmp/conv-$mode.log" | indent; fi
done

# ---- runs: NAME KIND SCRIPT_PATH [npuify args] -----------------------------
# Rendezvous ports below the ephemeral range (no other process gets one
# of these as a local port), one block per suite run.
port=$((20000 + $$ % 190 * 64))
start() { # id name kind script
    id=$1; name=$2; kind=$3; script=$4
    dir=$tmp/run/$id; mkdir -p "$dir"
    port=$((port + 1))  # one rendezvous port per run (runs overlap)
    cmd="$PY $script"
    [ "$name" = ddp_torchrun ] &&
        cmd="$PY $V/torchrun_lite --nproc_per_node 2 --master_port $port $script"
    (
        cd "$dir" || exit 1
        export NPUIFY_EMU_LOG=$dir/emu.jsonl E2E_PORT=$port
        export NPUIFY_EMU_DEVICES=2
        st=$dir/stacks
        # shellcheck disable=SC2086
        case $kind in
        orig)   limited "$st" 90 $cmd ;;
        as-is)  limited "$st" 90 "$NPUIFY" verify --as-is -- $cmd ;;
        amp)    export NPUIFY_EMU_AMP=bf16
                limited "$st" 90 "$NPUIFY" verify --as-is -- $cmd ;;
        run)    export PYTHONPATH=$EMU
                limited "$st" 90 "$NPUIFY" run -- $cmd ;;
        verify) limited "$st" 90 "$NPUIFY" verify -- $cmd ;;
        esac >out 2>err
        echo $? >rc
    ) &
}
losses() { grep '^loss ' "$tmp/run/$1/out" 2>/dev/null | cut -d' ' -f2-; }
same_losses() { # a b [tol]: same count of values, each within tolerance
    tol=${3:-1e-5}
    losses "$1" | tr ' ' '\n' >"$tmp/a.txt"
    losses "$2" | tr ' ' '\n' >"$tmp/b.txt"
    [ -s "$tmp/b.txt" ] || return 1
    paste "$tmp/a.txt" "$tmp/b.txt" | awk -F'\t' -v tol="$tol" '
        NF != 2 || $1 == "" || $2 == "" { bad = 1; next }
        { d = $1 - $2; if (d < 0) d = -d; m = $2 < 0 ? -$2 : $2;
          if (d > tol * (1 + m)) bad = 1; n++ }
        END { exit bad || n == 0 }'
}
npu_path() { # the run used the emulated NPU (device specs or torch.npu)
    grep -o '"\(npu_device_uses\|cuda_device_uses\|npu_api_calls\)": [0-9]*' \
        "$tmp/run/$1/emu.jsonl" 2>/dev/null |
        awk '{ s += $2 } END { exit !(s > 0) }'
}
judge() { # id reference kind
    id=$1; ref=$2; kind=$3; dir=$tmp/run/$id
    rc=$(cat "$dir/rc" 2>/dev/null || echo missing)
    if [ -e "$dir/stacks" ]; then
        fail "$id: killed after 90 s"; hang_report "$dir" | indent; return
    fi
    if [ "$rc" != 0 ]; then
        fail "$id: exit $rc"; tail -n 6 "$dir/err" "$dir/out" | indent; return
    fi
    case $kind in as-is|verify|amp)
        if ! grep -q '^verify: ok' "$dir/out"; then
            fail "$id: no 'verify: ok'"; tail -n 4 "$dir/out" | indent; return
        fi ;;
    esac
    if ! npu_path "$id"; then fail "$id: never used the emulated NPU"; return; fi
    tol=1e-5
    if [ "$kind" = amp ]; then
        # bf16 autocast really on: losses agree to bf16 precision only
        tol=1e-2
        if ! grep -q '"autocast_enters": [1-9]' "$dir/emu.jsonl"; then
            fail "$id: autocast never entered"; return
        fi
    fi
    if ! same_losses "$id" "$ref" "$tol"; then
        fail "$id: losses differ from the CPU original"
        echo "got:      $(losses "$id" | tr '\n' ' ')" | indent
        echo "expected: $(losses "$ref" | tr '\n' ' ')" | indent
        return
    fi
    extra=$(grep '^verify: ok' "$dir/out" | sed 's/^verify: ok //')
    ok "$id: $(losses "$id" | wc -l) losses equal the original's (tolerance $tol) $extra"
}

echo "== originals on CPU torch, then every mode on the emulated NPU"
n=0
for s in $SCRIPTS; do
    start "$s.orig" "$s" orig "$V/$s/train.py"
    n=$((n + 1)); [ $((n % 2)) -eq 0 ] && wait
done
wait
for s in $SCRIPTS; do
    if [ "$(cat "$tmp/run/$s.orig/rc")" = 0 ] && [ -n "$(losses "$s.orig")" ]
    then ok "$s original: $(losses "$s.orig" | wc -l) losses on CPU"
    elif [ -e "$tmp/run/$s.orig/stacks" ]; then
        fail "$s original: killed after 90 s"
        hang_report "$tmp/run/$s.orig" | indent
    else fail "$s original"; tail -n 6 "$tmp/run/$s.orig/err" | indent; fi
done
jobs_of() { # script -> id:kind:path list
    s=$1
    echo "$s.tool:as-is:$tmp/conv/manual/$s/train.py"
    echo "$s.auto:as-is:$tmp/conv/auto/$s/train.py"
    echo "$s.run:run:$V/$s/train.py"
    echo "$s.verify:verify:$V/$s/train.py"
    case " $(echo $NO_AMP) " in *" $s "*)
        echo "$s.amp:amp:$tmp/conv/amp/$s/train.py" ;; esac
    [ "$s" = fused_ops ] && echo "$s.fused-port:as-is:$V/$s/train_npu.py"
}
all_jobs=$(for s in $SCRIPTS; do jobs_of "$s"; done)
n=0
for j in $all_jobs; do
    id=${j%%:*}; rest=${j#*:}; kind=${rest%%:*}; path=${rest#*:}
    start "$id" "${id%%.*}" "$kind" "$path"
    n=$((n + 1)); [ $((n % 2)) -eq 0 ] && wait
done
wait
for j in $all_jobs; do
    id=${j%%:*}; rest=${j#*:}; kind=${rest%%:*}
    judge "$id" "${id%%.*}.orig" "$kind"
done

# ---- failures are named at the original file:line ---------------------------
echo "== what verify catches"
w=$tmp/w; mkdir -p "$w/proj"
cat >"$w/proj/train.py" <<'PYEOF'
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
x = torch.randn(3, 4)
torch.cuda.nvtx.range_push("forward")
y = model(x)
PYEOF
expect_out() { # label pattern command...: run in $w; exit 1, the pattern
    label=$1; pat=$2; shift 2
    (cd "$w" && "$@") >"$w/out" 2>"$w/err"; rc=$?
    if [ $rc = 1 ] && grep -q "$pat" "$w/out" && grep -q '^verify: FAILED' "$w/out"
    then ok "$label: $(grep -m1 "$pat" "$w/out")"
    else fail "$label (exit $rc)"; cat "$w/out" | indent; tail -n 3 "$w/err" | indent
    fi
}
# convert inserts "import torch_npu" after line 1: line 6 is line 7 in the copy
expect_out "unconverted rule named through the line map" \
    '^proj/train.py:6: error\[NPU208\]: CUDA call left after migration: torch.cuda.nvtx.range_push (rule NPU208' \
    "$NPUIFY" verify -- $PY proj/train.py
cp "$V/device_string/train.py" "$w/ds.py"
expect_out "unconverted --as-is: first CUDA call" \
    '^ds.py:6: error\[NPU201\]: CUDA call left after migration: torch.cuda.is_available (rule NPU201' \
    "$NPUIFY" verify --as-is -- $PY ds.py
cp "$V/cuda_everywhere/train.py" "$w/ce.py"
sed -i 's/^CUDA = torch.cuda.is_available()/CUDA = True/' "$w/ce.py"
expect_out "unconverted .cuda() named" \
    '^ce.py:23: error\[NPU101\]: CUDA call left after migration: Module.cuda() (rule NPU101' \
    "$NPUIFY" verify --as-is -- $PY ce.py
printf 'import torch\nimport torch_npu\nprint(torch.npu.DEVICE_NAME)\n' >"$w/inv.py"
expect_out "invented torch.npu name" \
    '^inv.py:3: error\[verify-api\]: torch.npu.DEVICE_NAME does not exist in torch_npu 2.12' \
    "$NPUIFY" verify --as-is -- $PY inv.py
printf 'import torch\nimport torch_npu\nprint(torch_npu.npu_giou)\n' >"$w/ne.py"
expect_out "real but not emulated" \
    '^ne.py:3: error\[verify-emulator\]: torch_npu.npu_giou is torch_npu 2.12 API but not emulated' \
    "$NPUIFY" verify --as-is --torch-version 2.12 -- $PY ne.py
# the surface follows --torch-version: StreamContext is in 2.12's
# torch_npu.npu.__all__, not in 1.11's
printf 'import torch\nimport torch_npu\nprint(torch.npu.StreamContext)\n' >"$w/sc.py"
expect_out "torch.npu surface of --torch-version 1.11" \
    '^sc.py:3: error\[verify-api\]: torch.npu.StreamContext does not exist in torch_npu 1.11' \
    "$NPUIFY" verify --as-is --torch-version 1.11 -- $PY sc.py
if (cd "$w" && "$NPUIFY" verify --as-is --torch-version 2.12 -- $PY sc.py \
    >"$w/out" 2>&1) && grep -q '^verify: ok' "$w/out"; then
    ok "torch.npu surface of --torch-version 2.12 has StreamContext"
else fail "StreamContext on 2.12"; indent <"$w/out"; fi
printf 'import torch\nimport torch_npu\nprint(hasattr(torch.npu, "nothing"))\n' >"$w/probe.py"
if (cd "$w" && "$NPUIFY" verify --as-is -- $PY probe.py >"$w/out" 2>&1) &&
    grep -qx False "$w/out"; then ok "hasattr() probe of an absent name is no use"
else fail "hasattr probe"; indent <"$w/out"; fi
printf 'import torch\nimport sys\nsys.exit(5)\n' >"$w/five.py"
expect_out "script exit code fails verify" \
    'exited 5' "$NPUIFY" verify --as-is -- $PY five.py

# ---- run: cache, pass-through -----------------------------------------------
echo "== npuify run"
p=$tmp/p; mkdir -p "$p/proj/pkg" "$p/cwd"
cat >"$p/proj/main.py" <<'PYEOF'
import os, sys, torch
from pkg import helper
print("argv", sys.argv[1:])
print("cwd", os.getcwd())
print("file", __file__)
print("helper", helper.__file__)
if sys.argv[1] == "term":
    os.kill(os.getpid(), 15)
sys.exit(int(sys.argv[1]))
PYEOF
printf 'import torch\nDEV = torch.device("cuda")\n' >"$p/proj/pkg/helper.py"
: >"$p/proj/pkg/__init__.py"
entry=$(cd "$p/cwd" && "$NPUIFY" run --print-cache -- $PY ../proj/main.py)
(cd "$p/cwd" && PYTHONPATH=$EMU "$NPUIFY" run -- $PY ../proj/main.py 3 "a b" \
    >"$p/out" 2>"$p/err"); rc=$?
if [ $rc = 3 ] && grep -qx "argv \['3', 'a b'\]" "$p/out" &&
    grep -qx "cwd $p/cwd" "$p/out" && grep -qx "file $entry/main.py" "$p/out" &&
    grep -qx "helper $entry/pkg/helper.py" "$p/out"; then
    ok "run: exit code, argv, cwd kept; script and imports from the copy"
else fail "run pass-through (exit $rc)"; cat "$p/out" "$p/err" | indent; fi
(cd "$p/cwd" && PYTHONPATH=$EMU "$NPUIFY" run -- $PY ../proj/main.py term \
    >/dev/null 2>&1); rc=$?
[ $rc = 143 ] && ok "run: killed by SIGTERM gives 143" || fail "run signal: exit $rc"
if grep -q 'torch.device("npu")' "$entry/pkg/helper.py" &&
    grep -q 'torch.device("cuda")' "$p/proj/pkg/helper.py"; then
    ok "run: the copy is converted, the project untouched"
else fail "run: conversion of the copy"; fi
again=$(cd "$p/cwd" && "$NPUIFY" run --print-cache -- $PY ../proj/main.py)
ino1=$(stat -c %i "$entry")
[ "$again" = "$entry" ] && [ "$(ls "$tmp/cache/npuify" | grep -c .)" -ge 1 ] &&
    ok "run: unchanged project reuses its entry" || fail "run: reuse ($again)"
echo "# changed" >>"$p/proj/pkg/helper.py"
changed=$(cd "$p/cwd" && "$NPUIFY" run --print-cache -- $PY ../proj/main.py)
[ "$changed" != "$entry" ] && [ "$(stat -c %i "$entry")" = "$ino1" ] &&
    ok "run: one changed byte gives a new entry" || fail "run: new key"
key=$(basename "$(dirname "$changed")")
if printf '%s' "$key" | grep -Eqx '[0-9a-f]{64}' &&
    [ -f "$(dirname "$changed")/manifest.tsv" ] &&
    grep -q "^$(sha256sum "$p/proj/pkg/helper.py" | cut -c1-64)	pkg/helper.py$" \
        "$(dirname "$changed")/manifest.tsv"; then
    ok "run: SHA-256 key and per-file SHA-256 manifest"
else fail "run: manifest"; fi
# concurrent runs on a fresh cache: all succeed, one entry, nothing half-built
c=$tmp/conc; mkdir -p "$c"
cp -R "$p/proj" "$c/proj"
for i in 1 2 3 4; do
    (cd "$c" && XDG_CACHE_HOME=$c/cache PYTHONPATH=$EMU \
        "$NPUIFY" run -- $PY proj/main.py 0 >"$c/out$i" 2>&1; echo $? >"$c/rc$i") &
done
wait
rcs=$(cat "$c"/rc? | tr -d '\n')
entries=$(ls -A "$c/cache/npuify" | grep -c .)
if [ "$rcs" = 0000 ] && [ "$entries" = 1 ]; then
    ok "run: 4 concurrent runs share one published entry, no .tmp left"
else fail "run: concurrent (exit codes $rcs, entries $entries)"
    ls -A "$c/cache/npuify" | indent; fi
(cd "$p" && XDG_CACHE_HOME=$p/proj/.cache "$NPUIFY" run -- $PY proj/main.py 0 \
    >"$p/out" 2>&1); rc=$?
[ $rc = 2 ] && grep -q 'cache-inside' "$p/out" && [ ! -e "$p/proj/.cache/npuify/.tmp"* ] &&
    ok "run: a cache inside the project is refused" ||
    { fail "run: cache inside the project (exit $rc)"; indent <"$p/out"; }
rm -rf "$p/proj/.cache"
"$NPUIFY" run --clean-cache && [ ! -e "$tmp/cache/npuify" ] &&
    ok "run --clean-cache removes the cache" || fail "run --clean-cache"
[ "$("$NPUIFY" run --print-cache)" = "$tmp/cache/npuify" ] &&
    ok "run --print-cache: \$XDG_CACHE_HOME/npuify" || fail "run --print-cache"

# ---- the installed layout ---------------------------------------------------
inst=$tmp/inst
mkdir -p "$inst/bin" "$inst/share/npuify"
cp "$NPUIFY" "$inst/bin/npuify"
cp -R "$ROOT/data/." "$inst/share/npuify/"
cp -R "$EMU" "$inst/share/npuify/npu_emu"
got=$("$inst/bin/npuify" verify --print-path)
src=$("$NPUIFY" verify --print-path)
if [ "$got" = "$inst/share/npuify/npu_emu" ] && [ "$src" = "$EMU" ] &&
    (cd "$w" && "$inst/bin/npuify" verify -- $PY "$V/cuda_everywhere/train.py" \
        | grep -q '^verify: ok'); then
    ok "verify finds share/npuify/npu_emu (installed) and tools/npu_emu (build tree)"
else fail "verify --print-path: '$got' / '$src'"; fi

# ---- the emulator's strict surface and fused numerics ----------------------
PYTHONPATH=$EMU $PY "$V/test_emu_strict.py" >"$tmp/strict.out" 2>&1
line=$(tail -n 1 "$tmp/strict.out")
case $line in
*" passed, "*" failed")
    add_counts "$line"
    grep -v '^ok ' "$tmp/strict.out" | sed '$d' | indent
    echo "     emulator: $line" ;;
*)  fail "test_emu_strict.py did not finish"; tail -n 20 "$tmp/strict.out" | indent ;;
esac

# DDP teardown while a collective still holds a dead tensor (see the script)
d=$tmp/teardown; mkdir -p "$d"
(cd "$d" && export PYTHONPATH=$EMU NPUIFY_EMU_DEVICES=2 &&
    limited "$d/stacks" 90 $PY "$V/torchrun_lite" --nproc_per_node 2 \
        --master_port $((port + 1)) "$V/ddp_teardown.py" >out 2>err); rc=$?
if [ -e "$d/stacks" ]; then
    fail "DDP teardown with a collective in flight: killed after 90 s"
    hang_report "$d" | indent
elif [ $rc = 0 ] && grep -qx 'teardown ok' "$d/out"; then
    ok "DDP teardown with a collective in flight ends (the Reducer is freed first)"
else fail "DDP teardown (exit $rc)"; tail -n 6 "$d/err" | indent; fi

after=$(cd "$V" && find . -type f | sort | xargs sha256sum | sha256sum)
[ "$before" = "$after" ] && ok "no file under tests/e2e/verify was touched" ||
    fail "a user file changed"
finish
