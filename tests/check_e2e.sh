#!/bin/sh
# End-to-end: convert the bundled examples with `npuify convert` (manual,
# --mode auto, --amp), check the converted scripts for NPU idioms
# (tests/e2e/idioms.py), then run them on the torch_npu emulator
# (tools/npu_emu: torch_npu on Debian's CPU torch 1.13) and compare their
# final losses with the original scripts run on the CPU with the same seed:
# both run the same CPU kernels, so with AMP off the losses must agree.
# Also: AMP on (bf16), DDP over "hccl" with world size 1, resuming a
# checkpoint with an npu map_location, SyncBatchNorm over two hccl ranks.
# The emulator's own tests (tests/e2e/test_emu.py) run too, so the suite
# means something even while convert is unfinished. Emulator counters
# (NPUIFY_EMU_LOG) show that a converted run really took its NPU path.
# Run from the repo root; NPUIFY names the binary. Needs /usr/bin/python3
# with torch and torchvision (Debian's python3-torch, python3-torchvision).
# shellcheck disable=SC2086  # $CNN, $INET, $RUN_ENV... are word lists
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
ROOT=$(pwd)
EMU=$ROOT/tools/npu_emu
BANNER="torch_npu emulator: NPU calls run on CPU (npuify test double)"
RUN_TIMEOUT=${E2E_RUN_TIMEOUT:-150}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# One thread each: runs go in parallel, and the same reduction order in
# original and converted runs keeps the losses comparable.
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH NPUIFY_EMU_QUIET NPUIFY_EMU_DEVICES NPUIFY_EMU_LOG \
    TORCH_TRANSFER_TO_NPU LOCAL_RANK RANK WORLD_SIZE 2>/dev/null
. tests/lib.sh

indent() { sed 's/^/       /'; }

# ---- 1. the emulator on hand-written NPU code (in the background; its
# results are read at the end) ----------------------------------------------
PYTHONPATH=$EMU NPUIFY_EMU_QUIET=1 $PY tests/e2e/test_emu.py \
    >"$tmp/emu.out" 2>&1 &
emu_pid=$!
emu_results() {
    wait "$emu_pid" 2>/dev/null
    echo "== emulator self-tests (tests/e2e/test_emu.py)"
    line=$(tail -n 1 "$tmp/emu.out")
    case $line in
    *" passed, "*" failed")
        add_counts "$line"
        grep -v '^ok ' "$tmp/emu.out" | sed '$d' | indent
        echo "     $line" ;;
    *)  fail "test_emu.py did not finish"; tail -n 20 "$tmp/emu.out" | indent ;;
    esac
}

# ---- 2. convert ------------------------------------------------------------
echo "== npuify convert examples (manual, --mode auto, --amp)"
convert() { # outdir options...
    out=$1; shift
    if [ ! -x "$NPUIFY" ]; then
        fail "convert $*: $NPUIFY is not built"; return
    fi
    "$NPUIFY" convert examples -o "$out" --quiet "$@" >"$out.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ -d "$out" ]; then ok "convert $* (exit 0)"
    else fail "convert $* exited $rc"; tail -n 5 "$out.log" | indent; fi
}
convert "$tmp/manual" --mode manual
convert "$tmp/auto" --mode auto
convert "$tmp/amp" --mode manual --amp

# ---- 3. NPU idioms in the converted scripts --------------------------------
EXAMPLES="small_cnn lstm_lm imagenet_ddp"
for ex in $EXAMPLES; do
    for mode in manual auto; do
        conv=$tmp/$mode/$ex/train.py
        if [ ! -f "$conv" ]; then
            fail "idioms $mode/$ex: $conv missing"; continue
        fi
        if $PY tests/e2e/idioms.py $mode "examples/$ex/train.py" "$conv" \
            >"$tmp/idioms.out" 2>&1; then
            ok "idioms $mode/$ex: $(cat "$tmp/idioms.out")"
        else
            fail "idioms $mode/$ex"; head -n 12 "$tmp/idioms.out" | indent
        fi
    done
done

# ---- 4. run originals (CPU) and conversions (emulated NPU) -----------------
free_port() {
    $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# start NAME EMU(0|1) SCRIPT [ARGS...]: run in the background in its own
# directory (imagenet_ddp writes checkpoints to the working directory);
# extra environment comes in through RUN_ENV.
start() {
    name=$1; emu=$2; script=$3; shift 3
    dir=$tmp/run/$name
    mkdir -p "$dir"
    if [ ! -f "$script" ]; then echo "no-script" >"$dir/rc"; return; fi
    (
        cd "$dir" || exit 1
        if [ "$emu" = 1 ]; then
            export PYTHONPATH="$EMU" NPUIFY_EMU_LOG="$dir/emu.jsonl"
            export NPUIFY_EMU_AMP="${EMU_AMP:-off}"
        fi
        env $RUN_ENV timeout "$RUN_TIMEOUT" $PY "$script" "$@" \
            >out 2>err
        echo $? >rc
    ) &
}
final_loss() { # name -> last "loss X" printed on stdout
    grep -o 'loss [-+0-9.eEnaif]*' "$tmp/run/$1/out" 2>/dev/null |
        tail -n 1 | sed 's/^loss //'
}
is_finite() { # a decimal number; Python prints nan and inf as words
    printf '%s\n' "$1" |
        grep -Eqx '[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?'
}
close() { # a b: |a - b| <= 1e-4 (1 + |b|)
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
        m = b < 0 ? -b : b; exit !(d <= 1e-4 * (1 + m)) }'
}
log_sum() { # name field: sum of an emulator counter over the run's processes
    grep -o "\"$2\": [0-9]*" "$tmp/run/$1/emu.jsonl" 2>/dev/null |
        awk '{ s += $2 } END { print s + 0 }'
}
check_run() { # name emu(0|1) [counter...]: exit 0, finite loss, right stack
    name=$1; emu=$2; shift 2
    dir=$tmp/run/$name
    rc=$(cat "$dir/rc" 2>/dev/null || echo missing)
    loss=$(final_loss "$name")
    if [ "$rc" = no-script ]; then
        fail "run $name: no script to run (convert failed?)"; return 1
    elif [ "$rc" != 0 ]; then
        fail "run $name: exit $rc"; tail -n 8 "$dir/err" 2>/dev/null | indent
        return 1
    fi
    if ! is_finite "$loss"; then
        fail "run $name: no finite loss (got '$loss')"; return 1
    fi
    if [ "$emu" = 0 ]; then
        if grep -q "$BANNER" "$dir/err"; then
            fail "run $name: the original imported the emulator"; return 1
        fi
        ok "run $name: loss $loss"; return 0
    fi
    if ! grep -q "$BANNER" "$dir/err"; then
        fail "run $name: torch_npu (the emulator) was never imported"
        return 1
    fi
    used=""
    for counter in "$@"; do
        n=$(log_sum "$name" "$counter")
        if [ "$n" -eq 0 ]; then
            case $counter in
            autocast_enters) why="no autocast entered: no AMP" ;;
            hccl_groups) why="no hccl process group" ;;
            grad_scaler_steps) why="no GradScaler step" ;;
            *) why="the script did not take its NPU path" ;;
            esac
            fail "run $name: emulator counter $counter is 0 ($why)"
            return 1
        fi
        used="$used $counter=$n"
    done
    ok "run $name: loss $loss on the emulated NPU ($used )"
}
compare() { # example original converted
    a=$(final_loss "$2"); b=$(final_loss "$3")
    if is_finite "$a" && is_finite "$b" && close "$b" "$a"; then
        ok "loss $1: $3 $b == original $a"
    else
        fail "loss $1: $3 '$b' differs from original '$a'"
    fi
}

CNN="--steps 4 --batch-size 16"
LSTM="--steps 4"
INET="--dummy -a shufflenet_v2_x0_5 -b 2 --steps 2 -j 0 --epochs 1 -p 1 --seed 0"
RUN_ENV=""
start cnn_orig 0 "$ROOT/examples/small_cnn/train.py" $CNN
start cnn_manual 1 "$tmp/manual/small_cnn/train.py" $CNN
start cnn_auto 1 "$tmp/auto/small_cnn/train.py" $CNN
start lstm_orig 0 "$ROOT/examples/lstm_lm/train.py" $LSTM
start lstm_manual 1 "$tmp/manual/lstm_lm/train.py" $LSTM
start lstm_auto 1 "$tmp/auto/lstm_lm/train.py" $LSTM
# convert --amp on the two examples without AMP: autocast must be entered.
EMU_AMP=bf16
start cnn_amp 1 "$tmp/amp/small_cnn/train.py" $CNN
start lstm_amp 1 "$tmp/amp/lstm_lm/train.py" $LSTM
EMU_AMP=off
# LOCAL_RANK=0 takes imagenet_ddp's one-device path (set_device(0) and
# .cuda(0)); without it a script with several devices would pick
# DataParallel, which NPUs do not support.
RUN_ENV="LOCAL_RANK=0"
start inet_orig 0 "$ROOT/examples/imagenet_ddp/train.py" $INET --no-amp
start inet_manual 1 "$tmp/manual/imagenet_ddp/train.py" $INET --no-amp
start inet_auto 1 "$tmp/auto/imagenet_ddp/train.py" $INET --no-amp
# AMP on (bf16 on the emulator), and DDP over "hccl" with world size 1
# (one process spawned by --multiprocessing-distributed).
EMU_AMP=bf16
start inet_manual_amp 1 "$tmp/manual/imagenet_ddp/train.py" $INET --amp
EMU_AMP=off
RUN_ENV="RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$(free_port)"
start inet_manual_ddp 1 "$tmp/manual/imagenet_ddp/train.py" $INET \
    --no-amp --multiprocessing-distributed --dist-backend hccl
# SyncBatchNorm across two ranks against BatchNorm in one process.
RUN_ENV="NPUIFY_EMU_DEVICES=2"
start syncbn_2proc 1 "$ROOT/tests/e2e/syncbn_2proc.py"
wait  # for the emulator self-tests too
emu_results
# Resume inet_manual's checkpoint: torch.load(map_location="npu:0").
RUN_ENV="LOCAL_RANK=0"
if [ -f "$tmp/run/inet_manual/checkpoint.pth.tar" ]; then
    mkdir -p "$tmp/run/inet_resume"
    cp "$tmp/run/inet_manual/checkpoint.pth.tar" "$tmp/run/inet_resume/"
fi
start inet_resume 1 "$tmp/manual/imagenet_ddp/train.py" $INET --no-amp \
    --epochs 2 --resume checkpoint.pth.tar
wait

echo "== runs (original on CPU, converted on the emulated NPU)"
check_run cnn_orig 0 && {
    check_run cnn_manual 1 npu_device_uses npu_api_calls &&
        compare small_cnn cnn_orig cnn_manual
    check_run cnn_auto 1 cuda_device_uses npu_api_calls &&
        compare small_cnn cnn_orig cnn_auto
}
check_run lstm_orig 0 && {
    check_run lstm_manual 1 npu_device_uses npu_api_calls &&
        compare lstm_lm lstm_orig lstm_manual
    check_run lstm_auto 1 cuda_device_uses npu_api_calls &&
        compare lstm_lm lstm_orig lstm_auto
}
check_run inet_orig 0 && {
    check_run inet_manual 1 npu_device_uses set_device_calls &&
        compare imagenet_ddp inet_orig inet_manual
    check_run inet_auto 1 cuda_device_uses set_device_calls &&
        compare imagenet_ddp inet_orig inet_auto
}
check_run inet_manual_amp 1 npu_device_uses autocast_enters
check_run cnn_amp 1 npu_device_uses autocast_enters grad_scaler_steps
check_run lstm_amp 1 npu_device_uses autocast_enters grad_scaler_steps
check_run inet_manual_ddp 1 npu_device_uses hccl_groups
# syncbn_2proc prints no loss: its ranks report their own checks.
dir=$tmp/run/syncbn_2proc
n=$(grep -c '^rank [01]: OK$' "$dir/out" 2>/dev/null)
if [ "$(cat "$dir/rc" 2>/dev/null)" = 0 ] && [ "${n:-0}" -eq 2 ] &&
    [ "$(log_sum syncbn_2proc hccl_groups)" -eq 2 ]; then
    ok "SyncBatchNorm over 2 hccl ranks == BatchNorm over the whole batch"
else
    fail "SyncBatchNorm over 2 hccl ranks: ${n:-0} of 2 ranks OK"
    tail -n 8 "$dir/out" "$dir/err" 2>/dev/null | indent
fi
if check_run inet_resume 1 npu_device_uses; then
    if grep -q "=> loading checkpoint" "$tmp/run/inet_resume/out"; then
        ok "run inet_resume: checkpoint loaded with an npu map_location"
    else
        fail "run inet_resume: the checkpoint was not loaded"
    fi
fi

# convert --amp at module level (golden 152): the GradScaler is created
# outside the autocast block and the forward runs inside it.
dir=$tmp/run/amp_module
mkdir -p "$dir"
rm -rf "$dir/out_tree"
"$NPUIFY" convert tests/golden/152_amp_module_level/in -o "$dir/out_tree" \
    --amp -q >/dev/null 2>&1
if (cd "$dir/out_tree" && PYTHONPATH="$EMU:." NPUIFY_EMU_LOG="$dir/emu.jsonl" \
    NPUIFY_EMU_QUIET=1 timeout "$RUN_TIMEOUT" $PY train.py >"$dir/out" 2>&1) &&
    grep -q '^loss [0-9.]*$' "$dir/out" &&
    $PY - "$dir/out_tree/train.py" <<'EOF' &&
import ast, sys
body = ast.parse(open(sys.argv[1]).read()).body
top = [n.targets[0].id for n in body if isinstance(n, ast.Assign)]
inner = [n.targets[0].id for w in body if isinstance(w, ast.With)
         for n in w.body if isinstance(n, ast.Assign)]
sys.exit(0 if top == ["amp_scaler"] and inner == ["loss"] else 1)
EOF
    [ "$(log_sum amp_module autocast_enters)" -ge 1 ] &&
    [ "$(log_sum amp_module grad_scaler_steps)" -ge 1 ]; then
    ok "run amp_module: module-level --amp output trains under autocast + GradScaler"
else
    fail "run amp_module: module-level --amp output"
    tail -n 8 "$dir/out" 2>/dev/null | indent
fi

finish
