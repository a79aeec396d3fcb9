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

# ops: no readable input writes nothing
run "ops on a missing log" 3 ops "$tmp/nonexistent.log" -o opsout
[ ! -e opsout ] && ok || fail "ops on a missing log wrote reports"
has "ops names the log" err "nonexistent.log: error[ops-input]"

# --help lists what the commands accept
"$NPUIFY" convert --help >out
for w in html --fail-on --decisions --verbose --color; do has "convert --help" out "$w"; done
"$NPUIFY" --help >out
has "--help lists review" out "review"
finish
