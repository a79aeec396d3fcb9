#!/bin/sh
# Suite for the command-line contract shared by the commands: usage errors
# stop before anything runs (exit 2, nothing written) in one style
# ("npuify CMD: error[usage]: ..."), unknown options are named with the
# closest one, -V, --check --fail-on, --color/NO_COLOR, ops on no readable
# input, and the --help texts list what the commands accept.
#   NPUIFY=build/release/npuify sh tests/check_cli.sh
set -u
. tests/lib.sh
suite cli
NPUIFY=${NPUIFY:-build/release/npuify}
case $NPUIFY in /*) ;; *) NPUIFY=$PWD/$NPUIFY ;; esac
ROOT=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkdir src
printf 'import torch\nx = torch.ones(2).cuda()\n' >src/train.py
mkdir amp
cat >amp/t.py <<'PY'
import torch
scaler = torch.cuda.amp.GradScaler()
with torch.autocast("cuda"):
    y = torch.ones(2)
PY

# run NAME WANT ARGS...: exit status WANT; stdout/stderr in out/err
run() {
    name=$1; want=$2; shift 2
    "$NPUIFY" "$@" >out 2>err
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else
        fail "$name: exit $rc, want $want"; sed 's/^/  | /' err | head -3; fi
}
has() { # NAME FILE TEXT
    if grep -qF -- "$3" "$2"; then ok; else fail "$1: '$3' not in $2"; fi
}

run "-o without value" 2 convert src -o
has "-o without value" err "npuify convert: error[usage]: option -o needs a value"
[ ! -e npuify_report ] && ok || fail "-o without value wrote npuify_report/"
run "unknown option" 2 convert src --outptu x
has "did you mean" err "unknown option '--outptu'; did you mean '--output'?"
run "unknown option, nothing close" 2 convert src --zzzzzzzz
has "unknown option named" err "unknown option '--zzzzzzzz'"
run "ops did you mean" 2 ops --captur
has "ops did you mean" err "did you mean '--capture'?"
run "review did you mean" 2 review src --unsaf
has "review did you mean" err "did you mean '--unsafe'?"
run "review -o without value" 2 review src -o
[ ! -e npuify-review.html ] && ok || fail "review -o without value wrote a page"
"$NPUIFY" review --help >out
for w in --output --torch-version --rules --amp --unsafe --help; do
    has "review --help from its table" out "$w"; done
run "unknown command" 2 covert src
has "unknown command" err "npuify: error[usage]: unknown command 'covert'; did you mean 'convert'?"
"$NPUIFY" convert src/train.py --check >out 2>err
has "no-AMP warning located at SRC" err "src/train.py: warning[NPU402]:"
run "--diff --check" 2 convert src --diff --check
has "--diff --check" err "exclude each other"
run "-V" 0 -V
has "-V" out "npuify "
run "--version" 0 --version
run "missing SRC" 2 convert "$tmp/nonexistent" --check
has "missing SRC located" err "nonexistent: error["

# --check --fail-on
run "--check: edits pending" 1 convert src --check -q
run "--fail-on=edits" 1 convert src --check --fail-on=edits -q
"$NPUIFY" convert src -o conv -q >/dev/null 2>&1
run "--check on converted: no edits" 0 convert conv/train.py --check -q
run "--fail-on manual: no AMP is manual work" 1 convert conv/train.py --check --fail-on manual -q
run "--fail-on manual, AMP in use" 0 convert amp --check --fail-on=manual -q
run "--fail-on=any" 1 convert amp --check --fail-on=any -q
run "--fail-on bad" 2 convert src --check --fail-on=everything
run "--fail-on without --check" 2 convert src -o x2 --fail-on=any
[ ! -e x2 ] && ok || fail "--fail-on without --check wrote x2"

# colour: never on a pipe by default, always when asked, NO_COLOR wins auto
esc=$(printf '\033')
"$NPUIFY" convert src/train.py --check --color=always >out 2>err
grep -q "$esc\[" out && ok || fail "--color=always: no ANSI colour"
"$NPUIFY" convert src/train.py --check >out 2>err
grep -q "$esc\[" out err && fail "colour on a pipe" || ok
NO_COLOR=1 "$NPUIFY" convert src/train.py --check --color=auto >out 2>err
grep -q "$esc\[" out err && fail "NO_COLOR ignored" || ok
run "--color bad" 2 convert src --check --color=sometimes

# --verbose lists every manual-work finding, --quiet none
for i in 1 2 3 4 5 6 7; do
    printf 'import torch\nm = torch.nn.DataParallel(torch.nn.Linear(1, 1))\n' >src/dp$i.py
done
"$NPUIFY" convert src --check >out 2>&1
grep -q "and [0-9]* more" out && ok || fail "default summary not cut"
"$NPUIFY" convert src --check -v >out 2>&1
n=$(grep -c 'NPU306\|DataParallel' out)
[ "$n" -ge 7 ] && ok || fail "--verbose listed $n DataParallel findings"
run "--quiet --verbose" 2 convert src --check -q -v

# --quiet: only the problems with files; the no-AMP warning is gone too
"$NPUIFY" convert src --check -q >out 2>err
[ ! -s out ] && ok || fail "--quiet printed a summary"
grep -q "NPU402" err && fail "--quiet printed the no-AMP warning" || ok
"$NPUIFY" analyse src -o an_q -q >out 2>err
[ ! -s out ] && [ ! -s err ] && ok || fail "analyse --quiet printed something"
"$NPUIFY" review src -o q.html -q >out 2>err
[ ! -s out ] && ok || fail "review --quiet printed its summary"
# --verbose: one line per changed file in walk order, the same for any -j,
# and every rule's count
"$NPUIFY" convert src -o v1 -v -j1 >v1.out 2>&1
"$NPUIFY" convert src -o v2 -v -j3 >v2.out 2>&1
sed 's/v1/V/g' v1.out >v1.norm; sed 's/v2/V/g' v2.out >v2.norm
cmp -s v1.norm v2.norm && ok || fail "--verbose differs between -j1 and -j3"
grep '^converted: ' v1.out >lines
[ "$(sed -n 1p lines)" = "converted: dp1.py" ] && ok || fail "--verbose: first line $(sed -n 1p lines)"
[ "$(wc -l <lines)" -eq 8 ] && ok || fail "--verbose: $(wc -l <lines) file lines, want 8"
grep -q '^rules: .*NPU101 x[0-9]' v1.out && ok || fail "--verbose: no rule counts"
"$NPUIFY" convert src --check -v >out 2>&1
grep -q '^would change: train.py' out && ok || fail "--check -v: no 'would change' line"

# a progress line on a terminal for a large tree, never in a pipe or with
# --quiet; the tree is the same either way
mkdir big
i=0; while [ $i -lt 240 ]; do
    printf 'import torch\nx%d = torch.ones(2).cuda()\n' $i >big/m$i.py; i=$((i + 1)); done
script -qec "'$NPUIFY' convert big -o tty_out -j2" /dev/null >tty.log 2>&1
grep -q '\[240/240\]' tty.log && ok || fail "no progress line on a terminal"
grep -q "$(printf '\r')$esc\[K$" tty.log || grep -q "$esc\[K$esc" tty.log && ok ||
    fail "progress line not cleared"
"$NPUIFY" convert big -o pipe_out -j2 >pipe.log 2>&1
grep -q '\[[0-9]*/240\]' pipe.log && fail "progress line in a pipe" || ok
script -qec "'$NPUIFY' convert big -o quiet_out -q" /dev/null >ttyq.log 2>&1
grep -q '\[[0-9]*/240\]' ttyq.log && fail "progress line with --quiet" || ok
diff -r -x npuify_report tty_out pipe_out >/dev/null && ok || fail "progress changed the tree"
script -qec "'$NPUIFY' convert src -o small_out" /dev/null >ttys.log 2>&1
grep -q '\[[0-9]*/[0-9]*\]' ttys.log && fail "progress line for a small tree" || ok

# every command: options from its table (--help, did you mean), a missing
# value exits 2 before anything runs
for c in analyse db run verify rules tokens syntax lsp; do
    "$NPUIFY" $c --help >out 2>&1
    rc=$?
    [ $rc -eq 0 ] && grep -q "^usage: npuify $c" out && grep -q -- "-h, --help" out && ok ||
        fail "$c --help (exit $rc)"
done
run "analyse did you mean" 2 analyse src --outptu x
has "analyse did you mean" err "did you mean '--output'?"
run "db did you mean" 2 db query torch.cdist --torch-versio 2.1
has "db did you mean" err "did you mean '--torch-version'?"
run "run did you mean" 2 run --projct src -- python3 src/train.py
has "run did you mean" err "did you mean '--project'?"
run "verify did you mean" 2 verify --as-si -- python3 src/train.py
has "verify did you mean" err "did you mean '--as-is'?"
run "rules did you mean" 2 rules --explian NPU101
has "rules did you mean" err "did you mean '--explain'?"
run "tokens did you mean" 2 tokens --roundtrp src/train.py
has "tokens did you mean" err "did you mean '--roundtrip'?"
run "syntax did you mean" 2 syntax --usse src/train.py
has "syntax did you mean" err "did you mean '--uses'?"
run "analyse -o without value" 2 analyse src -o
has "analyse -o without value" err "npuify analyse: error[usage]: option -o needs a value"
run "db --format without value" 2 db stats --format
run "run --project without value" 2 run --project
run "verify --torch-version without value" 2 verify --torch-version
run "rules --explain without value" 2 rules --explain
run "tokens --files-from without value" 2 tokens --files-from
run "review --main without value" 2 review src --main
run "ops -o without value" 2 ops x.log -o
[ ! -e an_missing ] && ok || fail "a missing value wrote something"
run "rules unknown id" 2 rules --explain NPU999
has "rules unknown id" err "npuify rules: error[usage]: no rule 'NPU999'"
run "run --torch-version bad" 2 run --torch-version 9.9 -- python3 src/train.py
has "run --torch-version bad" err "npuify run: error[usage]: --torch-version 9.9"

# one diagnostic shape in every command: PLACE: severity[RULE]: message
run "analyse missing SRC" 2 analyse "$tmp/nonexistent" -o an_x
has "analyse missing SRC located" err "nonexistent: error[usage]: no such file or directory"
run "convert bad --torch-version" 2 convert src --check --torch-version 9.9
has "convert bad --torch-version" err "npuify convert: error[usage]: --torch-version 9.9"
run "review bad --torch-version" 2 review src -o bad_v.html --torch-version 9.9
has "review bad --torch-version" err "npuify review: error[usage]: --torch-version 9.9"
[ ! -e bad_v.html ] && ok || fail "review with a bad --torch-version wrote a page"
run "db bad version" 2 db query torch.cdist --torch-version 9.9
has "db bad version" err "npuify db: error[usage]: no data for version '9.9'"
run "run: project not a directory" 2 run --project "$tmp/nonexistent" -- python3 x.py
has "run: project located" err "nonexistent: error[usage]: not a directory"
run "tokens unreadable" 3 tokens "$tmp/nonexistent.py"
has "tokens unreadable located" err "nonexistent.py: error[tokens-read]:"

# files named as they open from the current directory (SRC as given), in
# the text and JSON diagnostics, the summary and SARIF; project-wide
# findings at "project"
mkdir -p bad
printf 'import torch\nx = torch.cuda.foo()\ndef f(:\n' >bad/broken.py
"$NPUIFY" convert bad --check >out 2>err
has "diagnostic from the current directory" err "bad/broken.py:3:6: error[syn-unclosed]"
has "summary from the current directory" out "  bad/broken.py:2:11: NPU202"
has "project-wide finding at project:" out "  project: NPU402"
grep -q '^  NA:' out && fail "summary names a project finding NA" || ok
"$NPUIFY" convert ./bad/ --check --json-diagnostics >out 2>err
has "JSON diagnostic from the current directory" err '{"file": "./bad/broken.py", "line": 3'
"$NPUIFY" convert bad -o bad_out >out 2>err
has "SARIF uri from the current directory" bad_out/npuify_report/report.sarif '"uri": "bad/broken.py", "uriBaseId": "SRCROOT"'
has "SARIF project uri is SRC" bad_out/npuify_report/report.sarif '"uri": "bad/", "uriBaseId": "SRCROOT"'
has "SARIF keeps originalUriBaseIds" bad_out/npuify_report/report.sarif '"originalUriBaseIds": {"SRCROOT"'
(cd bad && "$NPUIFY" convert broken.py --check) >out 2>err
has "single file as given" err "broken.py:3:6: error[syn-unclosed]"

# --json-diagnostics: every line on stderr is one JSON object (the no-AMP
# warning too), nothing in plain text beside them
"$NPUIFY" convert bad --check --json-diagnostics >out 2>err
n=$(wc -l <err)
j=$(/usr/bin/python3 -c '
import json, sys
print(sum(isinstance(json.loads(l), dict) for l in open(sys.argv[1]) if l.strip()))' err 2>/dev/null)
[ "$n" -ge 3 ] && [ "${j:-0}" -eq "$n" ] && ok ||
    fail "--json-diagnostics: $n lines on stderr, ${j:-0} of them JSON"
has "--json-diagnostics: the no-AMP warning" err '"code": "NPU402"'

# advice never names the option just used: --amp that inserted AMP leaves
# no "no AMP" finding; under --amp/--distributed no hint says to run them
mkdir -p dp
cat >dp/train.py <<'PY'
import torch
model = torch.nn.DataParallel(torch.nn.Linear(2, 2)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in range(3):
    loss = model(torch.ones(1, 2).cuda()).sum()
    loss.backward()
    opt.step()
PY
mkdir -p noloop
printf 'import torch\ndef f(loss):\n    return loss.backward\n' >noloop/t.py
"$NPUIFY" convert dp/train.py --check --amp -v >out 2>&1
grep -q 'NPU402' out && fail "--amp inserted AMP, NPU402 still reported" || ok
"$NPUIFY" convert noloop --check --amp -v >out 2>&1
grep -q "convert --amp" out && fail "--amp run advises 'convert --amp'" || ok
has "--amp: the manual AMP advice stays" out "scale the loss with torch.npu.amp.GradScaler."
"$NPUIFY" convert dp --check --distributed -v >out 2>&1
has "--distributed: NPU306 still reported" out "NPU306"
grep -q "convert --distributed" out && fail "--distributed run advises 'convert --distributed'" || ok
"$NPUIFY" convert dp --check -v >out 2>&1
has "without the options the advice names them" out "'npuify convert --distributed'"

# --check writes no report: the cut list says how to see the rest
"$NPUIFY" convert src --check >out 2>&1
has "--check names -v and --report-dir" out "more (-v lists them all; --report-dir DIR writes the report)"
"$NPUIFY" convert src -o cut_out >out 2>&1
has "-o: the rest is in the report" out "more (see the report)"
# counts and plurals: one file, one error, one more rule
mkdir -p one
printf 'def f(:\n' >one/a.py
"$NPUIFY" convert one --check >out 2>&1
has "one file, one error" out "1 file scanned, 0 changed, 0 copied, 0 skipped, 1 error"
"$NPUIFY" convert one --check >out 2>&1
grep -q '1 files\|1 errors\|1 more rules\|1 findings' out && fail "a plural after 1: $(cat out)" || ok
# npuify help CMD is CMD --help; db's subcommands have a did-you-mean
"$NPUIFY" help convert >out 2>&1
"$NPUIFY" convert --help >out2 2>&1
cmp -s out out2 && ok || fail "npuify help convert differs from convert --help"
run "db did you mean a subcommand" 2 db qurey torch.cdist
has "db did you mean a subcommand" err "unknown subcommand 'qurey'; did you mean 'query'?"
# --torch-version help names the real default
def=$("$NPUIFY" db query torch.cdist --format json 2>/dev/null |
    sed -n 's/.*"torch_version": "\([^"]*\)".*/\1/p')
"$NPUIFY" convert --help >out
grep -q 'default newest' out && fail "--torch-version help: 'default newest'" || ok
[ -n "$def" ] && ok || fail "db query names no default version"
has "--torch-version help: the default" out "$def, the newest"
# one file converted: no npuify_report/ beside it; the summary says so
mkdir -p single_out
"$NPUIFY" convert src/train.py -o single_out/t.py >out 2>&1
[ ! -e single_out/npuify_report ] && ok || fail "single-file convert left npuify_report/ beside the file"
has "single file: where the report is" out "report: none for one file (--report-dir DIR writes it)"
"$NPUIFY" convert src/train.py -o single_out/u.py --report-dir single_rep >out 2>&1
[ -f single_rep/report.json ] && ok || fail "--report-dir for one file wrote no report"

# one scheme for every diagnostic code: lower-case words joined by '-'
# (convert-write, rule-invalid, ops-empty), or a rule id (NPU402)
printf '{"rules": [{"id": "USR1", "colour": 1}]}\n' >badrule.json
printf 'no table here\n' >empty.log
printf 'def f(:\n' >src_broken.py
{
    "$NPUIFY" convert src --check --rules badrule.json
    "$NPUIFY" ops empty.log -o ops_empty
    "$NPUIFY" convert src_broken.py --check
    "$NPUIFY" tokens "$tmp/nonexistent.py"
    "$NPUIFY" ops --capture -o cap_x -- /nonexistent/python
} >/dev/null 2>codes.err
grep -o '\(error\|warning\|note\)\[[^]]*\]' codes.err | sort -u >codes
[ "$(wc -l <codes)" -ge 5 ] && ok || fail "code scheme: only $(wc -l <codes) codes seen"
bad=$(grep -v '\[\([a-z][a-z0-9]*\(-[a-z0-9]\+\)*\|NPU[0-9]\+\)\]$' codes | tr '\n' ' ')
[ -z "$bad" ] && ok || fail "codes outside the scheme: $bad"
for c in 'error[rule-invalid]' 'error[ops-empty]' 'error[syn-unclosed]'; do
    has "code $c" codes "$c"; done

# ops: no readable input writes nothing
run "ops on a missing log" 3 ops "$tmp/nonexistent.log" -o opsout
[ ! -e opsout ] && ok || fail "ops on a missing log wrote reports"
has "ops names the log" err "nonexistent.log: error[ops-input]"

# the READMEs' command outputs are real runs (tools/readme-outputs.sh)
sh "$ROOT/tools/readme-outputs.sh" "$NPUIFY" --check >readme.diff 2>&1 && ok ||
    { fail "README output blocks differ from a real run"; head -20 readme.diff; }

# --help lists what the commands accept
"$NPUIFY" convert --help >out
for w in html --fail-on --decisions --verbose --color; do has "convert --help" out "$w"; done
"$NPUIFY" review --help >out
for w in --distributed --main --quiet --verbose; do has "review --help" out "$w"; done
"$NPUIFY" --help >out
has "--help lists review" out "review"
finish
