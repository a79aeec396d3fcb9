#!/bin/sh
# The run cache and verify against other users, accidents and time
# (issue 19 items 1-5 and 9, issue 24 item 8). The cache cases run as an
# unprivileged user (uid 65534, setpriv, as check_robustness's permission
# cases) with root as "the other user", and one as root against a cache
# that user owns. Cases: a cache root or entry owned by someone else or
# writable by others (and a directory above it), a link planted for an
# entry, an entry edited or replaced after it was built (also with its
# stamps put back), a source edited during the build (injected,
# tests/security/edit_shim.c), temporaries of killed builds, links out of
# and into the project, FIFOs, --clean-cache through a linked root; verify
# --timeout, SIGTERM/SIGINT sent on to the script's process group, no
# process or temporary left; run without torch_npu, verify without torch,
# a missing script.
# Prints one "row: case | result" line per case (DESIGN.md section 6).
#   NPUIFY=build/release/npuify sh tests/check_security.sh
set -u
ROOT=$(pwd)
NPUIFY=${NPUIFY:-build/release/npuify}
case $NPUIFY in /*) ;; *) NPUIFY=$ROOT/$NPUIFY ;; esac
PY=/usr/bin/python3
EMU=$ROOT/tools/npu_emu
export LC_ALL=C NPUIFY_EMU_QUIET=1 PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH XDG_CACHE_HOME 2>/dev/null

tmp=$(mktemp -d /tmp/nfy-sec-XXXXXX)
chmod 755 "$tmp"
cleanup() {
    [ -n "${holder:-}" ] && kill "$holder" 2>/dev/null
    chmod -R u+rwX "$tmp" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
. "$ROOT/tests/lib.sh"
suite security
row() { echo "row: $1 | $2"; }

if [ ! -x "$NPUIFY" ]; then
    fail "$NPUIFY is not built"; finish
fi
# The user the cache belongs to; root plays the other user.
if [ "$(id -u)" = 0 ]; then
    if ! command -v setpriv >/dev/null; then
        fail "setpriv (util-linux) missing: cannot drop root"; finish
    fi
    ASU="setpriv --reuid=65534 --regid=65534 --clear-groups"
    USER_UID=65534
else
    echo "not root: the cases that need a second user are skipped"
    ASU=""
    USER_UID=$(id -u)
fi
# as_user CMD...; in the background use $ASU CMD... & (so $! is CMD's pid)
as_user() { $ASU "$@"; }
# run_as OUT CMD...: as the user, stdout+stderr to OUT, exit code in $rc
run_as() { o=$1; shift; as_user "$@" >"$o" 2>&1; rc=$?; }

SHIM=$tmp/edit_shim.so
cc -shared -fPIC -O1 -o "$SHIM" "$ROOT/tests/security/edit_shim.c" -ldl ||
    fail "cannot build the edit shim"

# project DIR: a small GPU script whose converted copy prints "npu:0"
project() {
    mkdir -p "$1"
    cat >"$1/train.py" <<'EOF'
import torch
DEV = "cuda:0"
dev = torch.device(DEV)
print("device", DEV)
EOF
    chown -R "$USER_UID" "$1"
}
U=$tmp/u  # the user's own directory (cache, projects)
mkdir -p "$U"; chown "$USER_UID" "$U"; chmod 755 "$U"
export XDG_CACHE_HOME=$U/cache PYTHONPATH=$EMU
CACHE=$U/cache/npuify
entry_of() { # project dir -> its entry directory (built if absent)
    as_user "$NPUIFY" run -q --print-cache -- $PY "$1/train.py" 2>/dev/null |
        sed 's|/tree$||'
}

# ---- 1. whose cache it is ---------------------------------------------------
project "$U/p1"
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
if [ $rc = 0 ] && grep -qx 'device npu:0' "$tmp/out"; then ok
else fail "first run (exit $rc)"; cat "$tmp/out"; fi
m=$(stat -c %a "$CACHE"); e=$(entry_of "$U/p1")
[ "$m" = 700 ] && [ "$(stat -c %a "$e")" = 700 ] && ok ||
    fail "cache root mode $m, entry $(stat -c %a "$e"): want 700"
row "fresh cache root and entry" "created 0700"

# The other user (root) runs from a cache the user owns, with code planted.
echo 'open("'"$tmp"'/PWNED", "w").write("x")' >>"$e/tree/train.py"
"$NPUIFY" run -- $PY "$U/p1/train.py" >"$tmp/out" 2>&1; rc=$?
if [ "$(id -u)" != 0 ]; then :
elif [ $rc = 3 ] && [ ! -e "$tmp/PWNED" ] &&
    grep -q "npuify: error\[cache-unsafe\]: owned by uid $USER_UID, not by you (uid 0)" "$tmp/out"
then ok "root refuses a cache root another user owns: $(cut -c1-80 "$tmp/out")"
else fail "foreign cache root (exit $rc, planted code ran: $([ -e "$tmp/PWNED" ] && echo yes || echo no))"
    cat "$tmp/out"; fi
row "cache root owned by another user (root runs it)" "refused, exit 3, nothing run"
rm -f "$tmp/PWNED"

for mode in 777 770; do
    chmod "$mode" "$CACHE"
    run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
    if [ $rc = 3 ] && grep -q "cache-unsafe.*writable by .*(mode 0$mode)" "$tmp/out" &&
        [ ! -e "$tmp/PWNED" ]; then ok
    else fail "cache root mode $mode accepted (exit $rc)"; cat "$tmp/out"; fi
done
chmod 700 "$CACHE"
row "cache root writable by group or others" "refused, exit 3"

# an entry (or a file in it) that is not the user's alone
chown 0 "$e"
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 3 ] && grep -q "$e: error\[cache-unsafe\]: owned by uid 0" "$tmp/out" &&
    ok || { fail "entry owned by root accepted (exit $rc)"; cat "$tmp/out"; }
chown "$USER_UID" "$e"
chmod o+w "$e/tree/train.py"
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 3 ] && grep -q "tree/train.py: error\[cache-unsafe\]: writable by everyone" "$tmp/out" &&
    ok || { fail "world-writable file in an entry accepted (exit $rc)"; cat "$tmp/out"; }
chmod o-w "$e/tree/train.py"
row "entry owned by another user / a file in it world-writable" "refused, exit 3"

# a directory above the cache that others may write to (not sticky)
mkdir -p "$tmp/shared"; chmod 777 "$tmp/shared"
run_as "$tmp/out" env XDG_CACHE_HOME="$tmp/shared/c" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 3 ] && grep -q "$tmp/shared: error\[cache-unsafe\]: a directory above the cache is writable by others" "$tmp/out" &&
    ok || { fail "cache under a world-writable directory (exit $rc)"; cat "$tmp/out"; }
chmod 1777 "$tmp/shared"
run_as "$tmp/out" env XDG_CACHE_HOME="$tmp/shared/c" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 0 ] && ok || { fail "cache under a sticky directory (exit $rc)"; cat "$tmp/out"; }
row "directory above the cache writable by others" "refused unless sticky (/tmp)"

# ---- 2. an entry changed after it was built ---------------------------------
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"  # the planted line
if [ $rc = 0 ] && [ ! -e "$tmp/PWNED" ] &&
    grep -q "warning\[cache-changed\]: tree/train.py changed after the entry was built" "$tmp/out"
then ok "an edited entry is rebuilt, not run"
else fail "edited entry (exit $rc, planted code ran: $([ -e "$tmp/PWNED" ] && echo yes || echo no))"
    cat "$tmp/out"; fi
rm -f "$tmp/PWNED"
row "entry edited after the build" "rebuilt with a warning, edit never run"

# same size, mtime put back: the hash decides
e=$(entry_of "$U/p1")
as_user $PY - "$e/tree/train.py" <<'EOF'
import os, sys
p = sys.argv[1]; st = os.stat(p)
with open(p, "r+") as f:
    t = f.read(); f.seek(0); f.write(t.replace("device", "DEVICE", 1))
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
EOF
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 0 ] && grep -qx 'device npu:0' "$tmp/out" && grep -q cache-changed "$tmp/out" &&
    ok || { fail "same-size edit with its mtime put back was run (exit $rc)"; cat "$tmp/out"; }
row "same-size edit, mtime put back" "caught (ctime, SHA-256), rebuilt"

# stamps changed, bytes not: reused (the hash says it is the same)
e=$(entry_of "$U/p1"); ino=$(stat -c %i "$e")
as_user touch "$e/tree/train.py"
as_user sh -c "echo output >'$e/tree/written_by_the_script.txt'"
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 0 ] && ! grep -q "\[cache-" "$tmp/out" && [ "$(stat -c %i "$e")" = "$ino" ] &&
    ok || { fail "touched entry not reused (exit $rc)"; cat "$tmp/out"; }
row "entry touched, a file added by the script" "reused (same bytes by SHA-256)"

# tree replaced by a link to another directory; the entry itself a link
mkdir -p "$U/evil"; echo 'print("EVIL")' >"$U/evil/train.py"; chown -R "$USER_UID" "$U/evil"
as_user mv "$e/tree" "$e/tree.old"; as_user ln -s "$U/evil" "$e/tree"
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 0 ] && ! grep -q EVIL "$tmp/out" && grep -qx 'device npu:0' "$tmp/out" &&
    grep -q 'cache-changed.*tree changed' "$tmp/out" && [ -f "$U/evil/train.py" ] &&
    ok || { fail "tree replaced by a link was followed (exit $rc)"; cat "$tmp/out"; }
key=$(basename "$(entry_of "$U/p1")")
as_user sh -c "rm -rf '$CACHE/$key' && mkdir -p '$U/evil2/tree' && cp '$U/evil/train.py' '$U/evil2/tree/' && ln -s '$U/evil2' '$CACHE/$key'"
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 0 ] && ! grep -q EVIL "$tmp/out" && [ -d "$CACHE/$key" ] && [ ! -L "$CACHE/$key" ] &&
    [ -f "$U/evil2/tree/train.py" ] &&
    ok || { fail "entry replaced by a link was followed (exit $rc)"; cat "$tmp/out"; }
row "tree, or the entry, replaced by a link" "never followed: rebuilt, link target untouched"

# ---- 3. a source edited during the build (injected) ------------------------
project "$U/p3"
cp "$U/p3/train.py" "$tmp/A.py"
printf 'import torch\nDEV = "cuda:0"\ndev = torch.device(DEV)\nprint("B", DEV)\n' >"$tmp/B.py"
printf 'import torch\nDEV = "cuda:0"\ndev = torch.device(DEV)\nprint("C", DEV)\n' >"$tmp/C.py"
cp "$tmp/B.py" "$tmp/B2.py"; printf '# x\n' >>"$tmp/B2.py"
chmod 644 "$tmp/B.py" "$tmp/B2.py" "$tmp/C.py"
# the second open of train.py: after the cache key, before the conversion
run_as "$tmp/out" env LD_PRELOAD="$SHIM" NFY_SHIM_EDIT_PATH="$U/p3/train.py" \
    NFY_SHIM_EDIT_FROM="$tmp/B.py" NFY_SHIM_EDIT_AT=2 \
    "$NPUIFY" run -- $PY "$U/p3/train.py"
consistent() { # every entry's manifest hash of train.py is what its tree was converted from
    for m in "$CACHE"/*/manifest.tsv; do
        d=$(dirname "$m"); h=$(grep '	train.py$' "$m" | cut -c1-64)
        for v in "$tmp/A.py" "$tmp/B.py" "$tmp/B2.py" "$tmp/C.py"; do
            [ "$(sha256sum "$v" | cut -c1-64)" = "$h" ] || continue
            w=$(sed -n 's/^print("\([A-Z]*\)".*/\1/p' "$v")
            [ -n "$w" ] || w=device
            grep -q "print(\"$w\"" "$d/tree/train.py" || return 1
        done
    done
}
if [ $rc = 0 ] && grep -qx 'B npu:0' "$tmp/out" && consistent; then ok
else fail "edit during the build: manifest and tree disagree (exit $rc)"; cat "$tmp/out"; fi
# edited again after the snapshot: said, and the entry stays true
cp "$tmp/B2.py" "$U/p3/train.py"
run_as "$tmp/out" env LD_PRELOAD="$SHIM" NFY_SHIM_EDIT_PATH="$U/p3/train.py" \
    NFY_SHIM_EDIT_FROM="$tmp/C.py" NFY_SHIM_EDIT_AT=3 \
    "$NPUIFY" run -- $PY "$U/p3/train.py"
if [ $rc = 0 ] && grep -q "$U/p3/train.py: warning\[cache-race\]: changed while the project was converted" "$tmp/out" &&
    consistent; then ok
else fail "edit after the snapshot: not said or inconsistent (exit $rc)"; cat "$tmp/out"; fi
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p3/train.py"
[ $rc = 0 ] && grep -qx 'C npu:0' "$tmp/out" && consistent && ok ||
    { fail "the next run does not convert the new bytes (exit $rc)"; cat "$tmp/out"; }
row "source edited during the build" "the converted bytes are the hashed ones; a later edit is said"

# ---- 4. temporaries of killed builds ----------------------------------------
project "$U/p4"
i=0; while [ $i -lt 3000 ]; do echo "x = $i" >"$U/p4/m$i.py"; i=$((i + 1)); done
chown -R "$USER_UID" "$U/p4"
killed=0
for try in 1 2 3 4 5; do
    echo "# $try" >>"$U/p4/train.py"
    $ASU "$NPUIFY" run -- $PY "$U/p4/train.py" >/dev/null 2>&1 &
    pid=$!; n=0
    while [ $n -lt 400 ] && ! ls -d "$CACHE"/.tmp-*/src/m1*.py >/dev/null 2>&1; do
        sleep 0.01; n=$((n + 1)); done
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    killed=$(ls -d "$CACHE"/.tmp-* 2>/dev/null | wc -l)
    [ "$killed" -gt 0 ] && break
done
if [ "$killed" -gt 0 ]; then ok "a build killed with SIGKILL left $killed temporary"
else fail "could not kill a build midway"; fi
# a builder that still holds its temporary (its lock) keeps it
live=$CACHE/.tmp-LiVe01; as_user mkdir "$live"
flock "$live" sleep 60 & holder=$!
sleep 0.3
touch -d '1 minute ago' "$CACHE"/.tmp-*
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p4/train.py"
left=$(ls -d "$CACHE"/.tmp-* 2>/dev/null)
[ $rc = 0 ] && [ "$left" = "$live" ] && ok ||
    { fail "stale temporaries: left '$left' (exit $rc)"; cat "$tmp/out"; }
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=
row "temporaries of a killed build" "removed by the next run (a held one kept)"

# ---- 5. links, FIFOs, --clean-cache through a link -------------------------
project "$U/p5"
mkdir -p "$U/shared"
printf 'VALUE = "outside"\n' >"$U/shared/lib.py"
printf 'import torch\nDEV = "cuda:0"\ndev = torch.device(DEV)\nprint("real", DEV)\n' >"$U/p5/real.py"
ln -s ../shared/lib.py "$U/p5/lib.py"
ln -s "$U/p5/real.py" "$U/p5/alias.py"
printf 'import lib, alias\nprint("lib", lib.VALUE)\n' >"$U/p5/main.py"
chown -R "$USER_UID" "$U/shared" "$U/p5"
(cd "$U/p5" && as_user $PY main.py >"$tmp/direct" 2>&1)
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/p5/main.py"
if [ $rc = 0 ] && grep -qx 'lib outside' "$tmp/out" && grep -qx 'real npu:0' "$tmp/out" &&
    grep -qx 'lib outside' "$tmp/direct"; then ok
else fail "links under run (exit $rc)"; cat "$tmp/out"; fi
row "relative link out of the project; absolute link into it" "as Python sees them: the outside file; the converted copy"

mkfifo "$U/p5/pipe.fifo"; chown "$USER_UID" "$U/p5/pipe.fifo"
echo "# new" >>"$U/p5/main.py"
run_as "$tmp/out" timeout 60 "$NPUIFY" run -- $PY "$U/p5/main.py"
[ $rc = 0 ] && grep -q "pipe.fifo: warning\[cache-special\]: a FIFO, not a regular file" "$tmp/out" &&
    ok || { fail "FIFO in the project (exit $rc)"; cat "$tmp/out"; }
mkfifo "$U/p5/f.py"; chown "$USER_UID" "$U/p5/f.py"
run_as "$tmp/out" timeout 60 "$NPUIFY" run -- $PY "$U/p5/f.py"
[ $rc = 2 ] && grep -q "f.py: error\[run-script\]: cannot run this script: a FIFO, not a regular file" "$tmp/out" &&
    ok || { fail "FIFO as the script (exit $rc)"; cat "$tmp/out"; }
row "FIFO in the project / as the script" "named: left out with a warning / refused, exit 2"

mkdir -p "$U/real-cache"; chown "$USER_UID" "$U/real-cache"; chmod 700 "$U/real-cache"
as_user ln -s "$U/real-cache" "$U/linked"
as_user sh -c "echo keep >'$U/real-cache/not-ours.txt'"
run_as "$tmp/out" env XDG_CACHE_HOME="$U/linked" "$NPUIFY" run -- $PY "$U/p1/train.py"
n_before=$(ls "$U/real-cache/npuify" 2>/dev/null | wc -l)
as_user mkdir -p "$U/cl"; as_user ln -sfn "$U/real-cache/npuify" "$U/cl/npuify"
as_user sh -c "echo keep >'$U/real-cache/npuify/notes.txt'"
run_as "$tmp/out" env XDG_CACHE_HOME="$U/cl" "$NPUIFY" run --clean-cache
left=$(ls -A "$U/real-cache/npuify" 2>/dev/null)
[ $rc = 0 ] && [ "$n_before" -ge 1 ] && [ "$left" = notes.txt ] && [ -L "$U/cl/npuify" ] &&
    ok || { fail "--clean-cache through a link: '$left' left, $n_before before (exit $rc)"; cat "$tmp/out"; }
row "--clean-cache through a linked root" "entries removed where it points; the link and other files kept"

# ---- 24.8: what is missing is said -------------------------------------------
run_as "$tmp/out" env -u PYTHONPATH "$NPUIFY" run -- $PY "$U/p1/train.py"
[ $rc = 127 ] && grep -q "error\[run-no-torch-npu\]: torch_npu is not installed for this Python" "$tmp/out" &&
    grep -q 'npuify verify' "$tmp/out" && ! grep -q ModuleNotFoundError "$tmp/out" &&
    ok || { fail "run without torch_npu (exit $rc)"; cat "$tmp/out"; }
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PY" >"$tmp/bin/python3"; chmod 755 "$tmp/bin/python3"
run_as "$tmp/out" "$NPUIFY" verify -- "$tmp/bin/python3" "$U/p1/train.py"
[ $rc = 1 ] && grep -q "error\[verify-no-torch\]: this Python has no torch" "$tmp/out" &&
    ! grep -q '0 problems' "$tmp/out" &&
    ok || { fail "verify with a Python without torch (exit $rc)"; cat "$tmp/out"; }
run_as "$tmp/out" "$NPUIFY" run -- $PY "$U/nowhere/train.py"
[ $rc = 2 ] && grep -q "nowhere/train.py: error\[run-script\]: cannot run this script: does not exist" "$tmp/out" &&
    ok || { fail "run on a missing script (exit $rc)"; cat "$tmp/out"; }
row "run without torch_npu / verify without torch / a missing script" "said (127 / 1 / 2)"

# ---- 9. verify: bounded time, signals sent on, nothing left ----------------
V=$U/v; mkdir -p "$V/tmp"
cat >"$V/sleepy.py" <<'EOF'
import signal, sys, time
out = sys.argv[1]
def on(sig, frame):
    open(out, "w").write("got %d\n" % sig)
    sys.exit(1)
if sys.argv[2] == "catch":
    signal.signal(signal.SIGTERM, on)
    signal.signal(signal.SIGINT, on)
else:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(out + ".started", "w").write("x")
time.sleep(300)
EOF
chown -R "$USER_UID" "$V"
no_leftovers() { # token: no process with it, no verify temporary
    sleep 0.5
    pgrep -f "$1" >/dev/null && return 1
    [ -z "$(ls -A "$V/tmp")" ]
}
start=$(date +%s)
run_as "$tmp/out" env TMPDIR="$V/tmp" "$NPUIFY" verify --as-is --timeout 10 -- \
    $PY "$V/sleepy.py" "$V/t1" catch
took=$(($(date +%s) - start))
[ $rc = 1 ] && [ $took -lt 40 ] && grep -q 'ran past --timeout 10s' "$tmp/out" &&
    grep -qx 'got 15' "$V/t1" && no_leftovers "$V/t1" &&
    ok "verify --timeout 10: stopped after ${took}s, the script got SIGTERM" ||
    { fail "verify --timeout (exit $rc, ${took}s)"; cat "$tmp/out"; }
start=$(date +%s)
run_as "$tmp/out" env TMPDIR="$V/tmp" "$NPUIFY" verify --as-is --timeout 10 -- \
    $PY "$V/sleepy.py" "$V/t2" ignore
took=$(($(date +%s) - start))
[ $rc = 1 ] && [ $took -ge 15 ] && [ $took -lt 45 ] && [ -e "$V/t2.started" ] && no_leftovers "$V/t2" &&
    ok "a script ignoring SIGTERM is killed after the grace (${took}s)" ||
    { fail "verify --timeout, SIGTERM ignored (exit $rc, ${took}s)"; cat "$tmp/out"; }
"$NPUIFY" verify --help | grep -q -- '--timeout T.*' && "$NPUIFY" verify --help |
    grep -q 'default: 1h' && ok || fail "--timeout default not in --help"
"$NPUIFY" verify --timeout soon -- $PY x.py >"$tmp/out" 2>&1
[ $? = 2 ] && grep -q 'error\[usage\]: --timeout takes seconds' "$tmp/out" && ok ||
    { fail "bad --timeout value"; cat "$tmp/out"; }
row "verify --timeout (default 1h)" "the process group stopped: SIGTERM, SIGKILL after 5 s; exit 1"

for sig in TERM INT; do
    f=$V/s$sig
    # a background job of sh starts with SIGINT ignored: undo that
    $ASU env --default-signal=INT TMPDIR="$V/tmp" "$NPUIFY" verify --as-is -- \
        $PY "$V/sleepy.py" "$f" catch >"$tmp/out" 2>&1 &
    pid=$!; n=0
    while [ ! -e "$f.started" ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
    kill -$sig "$pid" 2>/dev/null
    wait $pid; rc=$?
    want=$([ $sig = TERM ] && echo 143 || echo 130)
    want_sig=$([ $sig = TERM ] && echo 15 || echo 2)
    [ $rc = "$want" ] && grep -qx "got $want_sig" "$f" && no_leftovers "$f" &&
        grep -q 'verify: stopped by' "$tmp/out" &&
        ok "SIG$sig to verify: sent on to the script, exit $rc, nothing left" ||
        { fail "SIG$sig to verify (exit $rc)"; cat "$tmp/out" "$f" 2>/dev/null; }
done
row "SIGTERM / SIGINT to verify" "sent on to the script's group; exit 143 / 130; no temporary, no process left"

finish
