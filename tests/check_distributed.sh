#!/bin/sh
# convert --distributed end to end: the single-card scripts of the golden
# cases below, converted with --distributed (and --distributed --amp), run
# as 2 processes through the generated run_distributed_npu.sh (its
# per-device loop: RANK_SIZE=2) on the torch_npu emulator, hccl emulated
# over gloo (tools/npu_emu). Each rank sees half of the full-batch data, so
# DDP's averaged gradient equals the single-card full-batch gradient: the
# final loss of rank 0 must equal the original run on the CPU (one
# process, batch 64) within a relative 1e-5 (float reduction order). Rank 1
# must print nothing (rank-0 logging) and both ranks must join one hccl
# group (emulator counters).
#   NPUIFY=build/release/npuify sh tests/check_distributed.sh
set -u
. tests/lib.sh
suite distributed
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
ROOT=$(pwd)
EMU=$ROOT/tools/npu_emu
TOL=1e-5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH NPUIFY_EMU_LOG LOCAL_RANK RANK WORLD_SIZE 2>/dev/null
if [ ! -x "$NPUIFY" ] || [ ! -x "$PY" ]; then
    fail "need $NPUIFY and $PY"; finish
fi

free_port() {
    $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
last_loss() { sed -n 's/^epoch [0-9]* loss \([0-9.e+-]*\)$/\1/p' "$1" | tail -n 1; }
close() { # a b: |a - b| <= TOL * max(1, |a|)
    $PY -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]);
sys.exit(0 if abs(a - b) <= $TOL * max(1.0, abs(a)) else 1)" "$1" "$2"
}

# run_case NAME CASE SCRIPT CONVERT-OPTIONS...
run_case() {
    name=$1; case_dir=tests/golden/$2; script=$3; shift 3
    out=$tmp/$name
    if ! "$NPUIFY" convert "$case_dir/in" -o "$out" --quiet "$@" \
        >"$tmp/$name.conv" 2>&1; then
        fail "$name: convert $*"; sed 's/^/       /' "$tmp/$name.conv"; return
    fi
    if [ ! -x "$out/run_distributed_npu.sh" ]; then
        fail "$name: no executable run_distributed_npu.sh"; return
    fi
    mkdir -p "$tmp/$name.orig"
    (cd "$tmp/$name.orig" && $PY "$ROOT/$case_dir/in/$script" --batch 64 \
        >out 2>&1)
    (cd "$out" && LAUNCH=loop RANK_SIZE=2 PYTHON=$PY NPUIFY_EMU_AMP=off \
        PYTHONPATH=$EMU NPUIFY_EMU_DEVICES=2 NPUIFY_EMU_QUIET=1 \
        NPUIFY_EMU_LOG=$tmp/$name.emu.jsonl MASTER_PORT=$(free_port) \
        SCRIPT=$script timeout 300 sh run_distributed_npu.sh --batch 32 \
        >"$tmp/$name.run" 2>&1)
    rc=$?
    want=$(last_loss "$tmp/$name.orig/out")
    got=$(last_loss "$out/train_0.log")
    groups=$(grep -o '"hccl_groups": [0-9]*' "$tmp/$name.emu.jsonl" \
        2>/dev/null | awk '{ s += $2 } END { print s + 0 }')
    if [ "$rc" -ne 0 ] || [ -z "$want" ] || [ -z "$got" ]; then
        fail "$name: 2-process run rc=$rc, loss single=${want:-none} ddp=${got:-none}"
        tail -n 5 "$out/train_0.log" "$out/train_1.log" 2>/dev/null |
            sed 's/^/       /'
    elif ! close "$want" "$got"; then
        fail "$name: loss single-card $want != 2 ranks $got (tol $TOL)"
    else
        ok "$name: 2 ranks reach the single-card loss ($got, tol $TOL)"
    fi
    if [ -s "$out/train_1.log" ] && grep -q '^epoch' "$out/train_1.log"; then
        fail "$name: rank 1 logs too"
    else
        ok "$name: rank 1 prints no log lines"
    fi
    if [ "$groups" -eq 2 ]; then
        ok "$name: both ranks joined an hccl group"
    else
        fail "$name: hccl groups over the ranks: $groups (want 2)"
    fi
    case " $* " in
    *" --amp "*)
        steps=$(grep -o '"grad_scaler_steps": [0-9]*' "$tmp/$name.emu.jsonl" \
            2>/dev/null | awk '{ s += $2 } END { print s + 0 }')
        if [ "$steps" -gt 0 ]; then
            ok "$name: the optimizer stepped through the GradScaler ($steps)"
        else
            fail "$name: no GradScaler steps"
        fi ;;
    esac
}

run_case single_card 170_ddp_single_card train.py --distributed
run_case single_card_amp 170_ddp_single_card train.py --distributed --amp
finish
