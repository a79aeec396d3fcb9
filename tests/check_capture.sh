#!/bin/sh
# npuify ops --capture end to end: run tests/data/capture/train_tiny.py (a
# small MLP trained 3 steps on CPU) under `npuify ops --capture`, then check
# what npuify found against the profiler's own key_averages() from a
# separate run of the same script (--self-profile). Also: the shadowed
# sitecustomize still runs, the temporary directory is removed, the script's
# exit status does not lose the trace, --every, and usage errors.
# Needs /usr/bin/python3 with torch (Debian's python3-torch); without it
# every check is skipped and counted as failed, so CI notices.
# Run from the repo root with NPUIFY=build/release/npuify.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
SCRIPT=tests/data/capture/train_tiny.py
. tests/lib.sh
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
unset PYTHONUNBUFFERED

check() { # $1 = name, rest = command
    name=$1; shift
    if "$@" >"$tmp/last.log" 2>&1; then ok "$name"; else
        fail "$name"; sed 's/^/     /' "$tmp/last.log" | tail -n 15; fi
}

if ! $PY -c 'import torch' 2>/dev/null; then
    fail "$PY cannot import torch"; finish
fi

# ---- reference: the profiler's own view of the same training ------------
$PY "$SCRIPT" --steps 3 --self-profile "$tmp/ref.tsv" >/dev/null 2>&1
check "reference run wrote key_averages" test -s "$tmp/ref.tsv"

# ---- the capture run ----------------------------------------------------
mkdir -p "$tmp/tmpdir"
TMPDIR="$tmp/tmpdir" "$NPUIFY" ops --capture -o "$tmp/out" -- \
    $PY "$SCRIPT" --steps 3 >"$tmp/cap.log" 2>&1
rc=$?
check "capture exits 0 (rc=$rc)" test "$rc" -eq 0
check "script output passes through" grep -q "step 2 loss" "$tmp/cap.log"
check "trace written" test -s "$tmp/out/npuify_trace.json"
check "key_averages table written" \
    grep -q "Input Shapes" "$tmp/out/npuify_key_averages.txt"
check "all_ops.txt written" test -s "$tmp/out/all_ops.txt"
check "temporary sitecustomize dir removed" \
    sh -c "! ls '$tmp/tmpdir' | grep -q npuify-capture"

# Every aten operator of the reference run is found.
cut -f1 "$tmp/ref.tsv" | grep '^aten::' | sort -u >"$tmp/ref_ops.txt"
missing=$(sort -u "$tmp/out/all_ops.txt" | comm -23 "$tmp/ref_ops.txt" -)
check "reference has the MLP ops" \
    sh -c "grep -qx aten::addmm '$tmp/ref_ops.txt' &&
           grep -qx aten::relu '$tmp/ref_ops.txt'"
check "all $(wc -l <"$tmp/ref_ops.txt") reference aten ops found${missing:+ (missing: $missing)}" \
    test -z "$missing"

# Key ops carry the reference's input shapes (name and shapes on one row).
for op in aten::addmm aten::relu aten::mm aten::_log_softmax; do
    grep "^$op	" "$tmp/ref.tsv" | cut -f2 | sort -u >"$tmp/shapes.txt"
    if [ ! -s "$tmp/shapes.txt" ]; then fail "reference has shapes of $op"; continue; fi
    bad=""
    while IFS= read -r shp; do
        grep -F "$op" "$tmp/out/ops.csv" | grep -qF "$shp" || bad="$bad $shp"
    done <"$tmp/shapes.txt"
    check "$op shapes in ops.csv${bad:+ (missing:$bad)}" test -z "$bad"
done

# The trace has one ProfilerStep window per optimizer step.
check "3 ProfilerStep windows in the trace" $PY -c "
import json, sys
d = json.load(open('$tmp/out/npuify_trace.json'))
steps = sorted(e['name'] for e in d['traceEvents'] if e['name'].startswith('ProfilerStep#'))
sys.exit(steps != ['ProfilerStep#0', 'ProfilerStep#1', 'ProfilerStep#2'])"

# ---- the shadowed sitecustomize still runs ------------------------------
mkdir -p "$tmp/chain"
printf 'open(%s, "w").write("chained")\n' "'$tmp/chain/ran'" \
    >"$tmp/chain/sitecustomize.py"
PYTHONPATH="$tmp/chain" "$NPUIFY" ops --capture -o "$tmp/out2" -- \
    $PY "$SCRIPT" --steps 1 >/dev/null 2>&1
check "original sitecustomize chained" grep -q chained "$tmp/chain/ran"
check "trace written with a chained sitecustomize" \
    test -s "$tmp/out2/npuify_trace.json"

# ---- a failing script still yields its trace -----------------------------
printf 'import torch\ntorch.relu(torch.ones(3))\nraise SystemExit(3)\n' \
    >"$tmp/fails.py"
"$NPUIFY" ops --capture -o "$tmp/out3" -- $PY "$tmp/fails.py" >"$tmp/fails.log" 2>&1
check "failing script: trace kept" test -s "$tmp/out3/npuify_trace.json"
check "failing script: its exit status said once" \
    test "$(grep -c 'exited with status 3; analysing what it profiled' "$tmp/fails.log")" -eq 1
printf 'import sys\nsys.exit(5)\n' >"$tmp/exit5.py"
"$NPUIFY" ops --capture -o "$tmp/out9" -- $PY "$tmp/exit5.py" >"$tmp/exit5.log" 2>&1
rc=$?
check "script without torch exiting 5: input error naming status 5 (rc=$rc)" \
    sh -c "test $rc -eq 3 && grep -q 'exited with status 5 and wrote no trace' '$tmp/exit5.log'"
check "failing script: its op found" grep -qx aten::relu "$tmp/out3/all_ops.txt"

# ---- the profiler waits for the script's own "import torch" -------------
printf 'import sys\nassert "torch" not in sys.modules, "torch imported early"\nimport torch\ntorch.tanh(torch.ones(2, 3))\n' \
    >"$tmp/lazy.py"
"$NPUIFY" ops --capture -o "$tmp/out8" -- $PY "$tmp/lazy.py" >"$tmp/lazy.log" 2>&1
rc=$?
check "torch not imported before the script (rc=$rc)" test "$rc" -eq 0
check "op after a late import found" grep -qx aten::tanh "$tmp/out8/all_ops.txt"

# ---- --every 2 keeps steps 0 and 2 -------------------------------
"$NPUIFY" ops --capture --every 2 -o "$tmp/out4" -- \
    $PY "$SCRIPT" --steps 3 >/dev/null 2>&1
check "--every 2 keeps steps 0 and 2" $PY -c "
import json, sys
d = json.load(open('$tmp/out4/npuify_trace.json'))
steps = sorted(e['name'] for e in d['traceEvents'] if e['name'].startswith('ProfilerStep#'))
sys.exit(steps != ['ProfilerStep#0', 'ProfilerStep#2'])"

# ---- operators joined to the user's source (with_stack) -----------------
# aten::heaviside (cpu-fallback on torch_npu 2.0) called directly and as a
# Tensor method in Net.forward, and in stack_helper.step_fn. torch 1.13
# names a frame by its function's def line.
M=tests/data/capture/stack_model.py
fwd=$(grep -n 'def forward' "$M" | cut -d: -f1)
hlp=$(grep -n 'def step_fn' tests/data/capture/stack_helper.py | cut -d: -f1)
# the calls themselves, found in the source from the frames' functions
direct=$(grep -n 'torch.heaviside(y' "$M" | cut -d: -f1)
method=$(grep -n 'detach().heaviside' "$M" | cut -d: -f1)
hcall=$(grep -n 'torch.heaviside' tests/data/capture/stack_helper.py | cut -d: -f1)
calls_csv="stack_model.py:$direct Net.forward torch.heaviside, :$method Tensor.heaviside (4 calls, [0-9.]*%); stack_helper.py:$hcall step_fn torch.heaviside (2 calls, [0-9.]*%)"
"$NPUIFY" ops --capture --torch-version 2.0 -o "$tmp/st" -- \
    $PY "$M" >"$tmp/st.log" 2>&1
rc=$?
check "with_stack capture runs (rc=$rc)" test "$rc" -eq 0
check "capture trace holds call stacks" grep -q '"Call stack"' "$tmp/st/npuify_trace.json"
check "capture: heaviside sites in ops.csv, at their calls ($direct, $method; helper $hcall)" \
    grep -q "^aten::heaviside,.*cpu-fallback,.*\"$calls_csv\"\$" "$tmp/st/ops.csv"
check "capture: sites in report.json" $PY -c "
import json, sys
r = json.load(open('$tmp/st/report.json'))
op = [o for o in r['ops'] if o['name'] == 'aten::heaviside'][0]
got = [(s['file'], s['line'], s['function'], s['calls']) for s in op['sites']]
calls = [[(c['line'], c['col'], c['api'], c['function']) for c in s['in_source']]
         for s in op['sites']]
want = [[($direct, 13, 'torch.heaviside', 'Net.forward'),
         ($method, 13, 'Tensor.heaviside', 'Net.forward')],
        [($hcall, 12, 'torch.heaviside', 'step_fn')]]
if calls != want:
    sys.exit('in_source %r' % calls)
sys.exit(got != [('$M', $fwd, 'forward', 4),
                 ('tests/data/capture/stack_helper.py', $hlp, 'step_fn', 2)]
         and got != [('stack_model.py', $fwd, 'forward', 4),
                     ('stack_helper.py', $hlp, 'step_fn', 2)])"
check "capture: torch's own frames are no site (aten::addmm from nn.Linear)" \
    grep -q "^aten::addmm,.*\"stack_model.py:$fwd forward" "$tmp/st/ops.csv"
check "capture: sites in summary.md" \
    grep -q "^- \`aten::heaviside\`: stack_model.py:$direct Net.forward torch.heaviside" "$tmp/st/summary.md"
check "capture: by-line table in report.html, at the call" \
    grep -q "<td><code>stack_model.py:$direct</code></td><td><code>Net.forward</code></td><td><code>torch.heaviside; :$method Tensor.heaviside</code></td>" "$tmp/st/report.html"
"$NPUIFY" ops "$tmp/st/npuify_trace.json" --torch-version 2.0 --format sarif \
    --source tests/data/capture -o "$tmp/sar" -q >/dev/null 2>&1
check "--format sarif: ops.sarif alone, the fallback op at both sites" $PY -c "
import json, os, sys
assert sorted(os.listdir('$tmp/sar')) == ['all_ops.txt', 'ops.sarif']
d = json.load(open('$tmp/sar/ops.sarif'))
assert d['version'] == '2.1.0'
got = []
for r in d['runs'][0]['results']:
    loc = r['locations'][0]['physicalLocation']
    rel = [(x['physicalLocation']['region']['startLine'], x['message']['text'])
           for x in r.get('relatedLocations', [])]
    got.append((r['ruleId'], os.path.basename(loc['artifactLocation']['uri']),
                loc['region']['startLine'], loc['region']['startColumn'],
                r['message']['text'].split(';')[0], rel))
want = [('ops-cpu-fallback', 'stack_model.py', $direct, 13,
         'aten::heaviside falls back to the CPU on torch_npu 2.0',
         [($method, 'Tensor.heaviside')]),
        ('ops-cpu-fallback', 'stack_helper.py', $hcall, 12,
         'aten::heaviside falls back to the CPU on torch_npu 2.0', [])]
sys.exit(0 if got == want else 'got %r' % got)"
# the same from the profiler's own text table (multi-line Source Location)
(cd tests/data/capture && $PY stack_model.py --table "$tmp/stack_table.txt") >/dev/null 2>&1
check "with_stack table written" grep -q "Source Location" "$tmp/stack_table.txt"
"$NPUIFY" ops "$tmp/stack_table.txt" --torch-version 2.0 -o "$tmp/stt" -q >/dev/null 2>&1
check "table, source not found: heaviside sites as the frames name them" \
    grep -q "^aten::heaviside,.*\"stack_model.py:$fwd forward (4 calls, [0-9.]*%); stack_helper.py:$hlp step_fn (2 calls, [0-9.]*%)\"\$" "$tmp/stt/ops.csv"
"$NPUIFY" ops "$tmp/stack_table.txt" --torch-version 2.0 -o "$tmp/sts" -q \
    --source tests/data/capture >/dev/null 2>&1
check "table with --source: heaviside sites at their calls" \
    grep -q "^aten::heaviside,.*\"$calls_csv\"\$" "$tmp/sts/ops.csv"
# a torch 2.x frame names the calling line: that call alone
printf '# frames of torch 2.x name the calling line\nimport torch\ndef f(x):\n    a = torch.heaviside(x, x)\n    return a.heaviside(x)\n' >"$tmp/t2.py"
printf '[{"ph": "X", "cat": "cpu_op", "name": "aten::heaviside", "ts": 1, "dur": 5, "pid": 1, "tid": 1, "args": {"Call stack": "t2.py(5): f;t2.py(8): <module>"}}]\n' >"$tmp/t2.json"
"$NPUIFY" ops "$tmp/t2.json" --torch-version 2.0 --source "$tmp" -o "$tmp/t2o" -q >/dev/null 2>&1
check "torch 2.x frame (calling line): that call only" \
    grep -q '"t2.py:5 f Tensor.heaviside (1 call, [0-9.]*%)"' "$tmp/t2o/ops.csv"

# ---- usage and input errors ----------------------------------------------
"$NPUIFY" ops --capture -o "$tmp/out5" >/dev/null 2>&1
rc=$?
check "no command: usage error (rc=$rc)" test "$rc" -eq 2
"$NPUIFY" ops --capture -o "$tmp/out6" -- /bin/true >/dev/null 2>&1
rc=$?
check "command writes no trace: input error (rc=$rc)" test "$rc" -eq 3
"$NPUIFY" ops --capture -o "$tmp/out7" -- "$tmp/no-such-command" >/dev/null 2>&1
rc=$?
check "command not found: input error (rc=$rc)" test "$rc" -eq 3

finish
