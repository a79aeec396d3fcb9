#!/bin/sh
# The bad-input matrix over convert (and ops' trace reader): every case runs
# on the release and the ASan+UBSan build, with its expected exit code and
# message; the SHA-256 of every original is taken before and checked after,
# and no npuify temporary may be left anywhere. Cases: bad bytes (invalid
# UTF-8, NUL, a binary .py, UTF-16, BOM), a file over the size cap, deep
# brackets, unterminated strings, mixed tabs, a 5 MB line, lone-CR line
# ends, symlink loops and links out of the tree, FIFOs and devices,
# unreadable files and directories (as an unprivileged user), files that
# vanish during the run, overlapping SRC/DST, existing and read-only DST,
# links planted in DST, full disk (tmpfs where mount works, else injected)
# and read-only file system (injected, tests/robustness/fail_shim.c), long
# and odd file names, ownership in place, SIGINT/SIGTERM/SIGKILL during
# --in-place on 5,000 files, SIGKILL during -o, file systems without
# O_TMPFILE, linkat or copy_file_range (injected), stale temporaries, a
# 50,000-file tree.
# Prints one "row: case | exit | message | originals" line per case.
#   NPUIFY=build/release/npuify sh tests/check_robustness.sh
# Env: ROBUST_ASAN=0 skips the ASan build.
set -u
ROOT=$(pwd)
NPUIFY=${NPUIFY:-build/release/npuify}
case $NPUIFY in /*) ;; *) NPUIFY=$ROOT/$NPUIFY ;; esac
ASAN=$ROOT/build/asan/npuify
export LC_ALL=C
export ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

tmp=$(mktemp -d /tmp/nfy-robust-XXXXXX)
chmod 755 "$tmp"
mounted=""
cleanup() {
    [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
    chmod -R u+rwX "$tmp" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$ROOT/tests/lib.sh"
bad() { fail "$*"; }

# Unreadable cases need a user that permissions apply to: CI runs as root.
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null; then
        as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    else
        as_user() { bad "setpriv (util-linux) missing: cannot drop root"; return 99; }
    fi
else
    as_user() { "$@"; }
fi

SHIM=$tmp/fail_shim.so
cc -shared -fPIC -O1 -o "$SHIM" "$ROOT/tests/robustness/fail_shim.c" -ldl ||
    bad "cannot build the failure shim"

CUDA_PY='import torch
x = torch.zeros(2).cuda()
dev = torch.device("cuda:0")
'
printf '%s' "$CUDA_PY" >"$tmp/cuda.py"

# snap DIR OUT: SHA-256 of every file below DIR (names NUL-safe).
snap() {
    (cd "$1" && find . -type f -print0 | sort -z | xargs -0r sha256sum) >"$2"
}
# intact CASE DIR SNAP: every original byte is still there.
intact() {
    snap "$2" "$tmp/now"
    if cmp -s "$3" "$tmp/now"; then ok; echo yes >"$tmp/intact"
    else bad "$1: originals changed"; diff "$3" "$tmp/now" | head -n 5; echo NO >"$tmp/intact"
    fi
}
# notemp CASE DIR...: no npuify temporary left.
notemp() {
    c=$1; shift
    left=$(find "$@" -name '.*npuify-??????' 2>/dev/null | head -n 3)
    [ -z "$left" ] && ok || bad "$c: temporary left: $left"
}
# run CASE WANT_RC WANT_MSG CMD...: run (stdout+stderr to $tmp/out) and
# check the exit code and that the message is said.
run() {
    c=$1; want=$2; msg=$3; shift 3
    "$@" >"$tmp/out" 2>&1
    rc=$?
    [ "$rc" = "$want" ] && ok || { bad "$c: exit $rc, want $want"; tail -n 5 "$tmp/out"; }
    if [ -n "$msg" ]; then
        grep -qF -- "$msg" "$tmp/out" && ok ||
            { bad "$c: no '$msg' in the output"; tail -n 5 "$tmp/out"; }
    fi
    if grep -qE "AddressSanitizer|runtime error:|LeakSanitizer" "$tmp/out"; then
        bad "$c: sanitizer report"; grep -m 3 -E "Sanitizer|runtime error" "$tmp/out"
    fi
    echo "$rc" >"$tmp/rc"
    echo "$msg" >"$tmp/msg"
}
row() { echo "row: $1 | $(cat "$tmp/rc") | $(cat "$tmp/msg") | ${2:-$(cat "$tmp/intact")}"; }

# fresh NAME: an empty work directory $w (world-accessible).
fresh() {
    w=$tmp/w.$1
    chmod -R u+rwX "$w" 2>/dev/null
    rm -rf "$w"; mkdir -p "$w"; chmod 777 "$w"
}

# tree_case CASE WANT_RC WANT_MSG FILE CONTENT-CMD: a tree with one bad
# file beside a normal one, converted with -o; the bad file's output is
# its input, byte for byte.
tree_case() {
    c=$1; want=$2; msg=$3; f=$4; shift 4
    fresh "$c"
    mkdir "$w/src"; printf '%s' "$CUDA_PY" >"$w/src/ok.py"
    "$@" >"$w/src/$f"
    snap "$w/src" "$w/snap"
    run "$c" "$want" "$msg" "$BIN" convert "$w/src" -o "$w/out" -q
    intact "$c" "$w/src" "$w/snap"
    notemp "$c" "$w"
    if [ -f "$w/out/$f" ] && grep -q "error" "$tmp/out"; then
        cmp -s "$w/src/$f" "$w/out/$f" && ok || bad "$c: a file with errors was changed"
    fi
    row "$c"
}

# ---- bounds: custom rules that break the syntax, odd names in every report
bounds_cases() {
BIN=$1
# A custom rule whose replacement breaks the syntax: the rewritten file is
# parsed again, refused naming the rule, left as it was; the rest converts.
fresh reparse
mkdir "$w/src"
printf 'import torch\nimport mylib\nmylib.sync()\n' >"$w/src/a.py"
printf '%s' "$CUDA_PY" >"$w/src/ok.py"
printf '{"rules": [{"id": "USR001", "kind": "rename-qualified-api", "match": "name", "pattern": "mylib.sync", "replacement": "mylib.npu_sync((", "message": "m"}]}\n' >"$w/r.json"
snap "$w/src" "$w/snap"
run reparse-broken 3 "a.py:3:7: error[convert-reparse]: rule USR001" \
    "$BIN" convert "$w/src" -o "$w/out" -q --rules "$w/r.json"
intact reparse-broken "$w/src" "$w/snap"
notemp reparse-broken "$w"
cmp -s "$w/src/a.py" "$w/out/a.py" && ok || bad "reparse-broken: a broken file was written"
grep -q 'npu()' "$w/out/ok.py" && ok || bad "reparse-broken: the rest of the tree not converted"
grep -q '"rule": "USR001", "category": "left_unchanged"' "$w/out/npuify_report/report.json" &&
    ok || bad "reparse-broken: the edit not reported as left unchanged"
row reparse-broken
# A replacement with a line break would split its statement: refused at load.
sed 's/npu_sync((/npu\\nsync/' "$w/r.json" >"$w/nl.json"
run reparse-newline 3 "nl.json:1:128: error[rule-invalid]: rules[0].replacement: a line break" \
    "$BIN" convert "$w/src" -o "$w/out2" -q --rules "$w/nl.json"
[ ! -e "$w/out2" ] && ok || bad "reparse-newline: output written"
row reparse-newline

# Names that are no UTF-8, and a right-to-left override in a name and in
# code: each name kept apart, reversibly (\xHH), in every report and edit
# id; decisions saved from the review page apply to those files.
fresh odd-names
mkdir "$w/src"
rlo=$(printf '\342\200\256')
printf '%s' "$CUDA_PY" >"$w/src/bad$(printf '\377').py"
printf '%s' "$CUDA_PY" >"$w/src/bad$(printf '\376').py"
printf 'import torch\ns = "abc%sdef"\nz = torch.zeros(1).cuda()\n' "$rlo" >"$w/src/rl${rlo}o.py"
snap "$w/src" "$w/snap"
run odd-names 0 "3 changed" "$BIN" convert "$w/src" -o "$w/out"
r=$w/out/npuify_report
for f in 'bad\\xff.py' 'bad\\xfe.py' 'rl\\xe2\\x80\\xaeo.py'; do
    grep -qF "\"path\": \"$f\"" "$r/report.json" && ok || bad "odd-names: $f not in report.json"
done
for f in 'bad\xff.py' 'bad\xfe.py'; do
    grep -qF "$f,2," "$r/change_list.csv" && grep -qF "$f" "$r/summary.md" &&
        grep -qF "$f" "$r/report.html" && grep -qF "== $f: converted" "$r/npuify.log" && ok ||
        bad "odd-names: $f not in change_list.csv, summary.md, report.html and npuify.log"
done
grep -qF '"uri": "bad%FF.py"' "$r/report.sarif" && grep -qF '"uri": "bad%FE.py"' "$r/report.sarif" &&
    ok || bad "odd-names: SARIF URIs not percent-encoded apart"
! grep -qF "$(printf '\357\277\275')" "$r/report.json" "$r/change_list.csv" "$r/summary.md" "$r/npuify.log" &&
    ok || bad "odd-names: U+FFFD in a report"
run odd-names-review 0 "" "$BIN" review "$w/src" -o "$w/page.html"
grep -qF "$rlo" "$w/page.html" && bad "odd-names: a raw U+202E in the review page" || ok
grep -qF "abc$(printf '\342\237\246')U+202E$(printf '\342\237\247')def" "$w/page.html" && ok ||
    bad "odd-names: U+202E in code not shown as a mark"
/usr/bin/python3 "$ROOT/tests/robustness/decide.py" "$w/page.html" "$w/dec.json" 'bad\xfe.py'
grep -qF '"id": "bad\\xff.py:NPU001:' "$w/dec.json" && ok || bad "odd-names: edit id without the escaped name"
run odd-names-decisions 0 "" "$BIN" convert "$w/src" -o "$w/out2" -q --decisions "$w/dec.json"
grep -q 'npu()' "$w/out2/bad$(printf '\377').py" && grep -q 'npu()' "$w/out2/rl${rlo}o.py" &&
    cmp -s "$w/src/bad$(printf '\376').py" "$w/out2/bad$(printf '\376').py" && ok ||
    bad "odd-names: decisions not applied to their own files"
intact odd-names "$w/src" "$w/snap"
row "odd-names (report.json, csv, md, html, sarif, log, review ids, --decisions)"
}

# scale BIN: work that must stay near-linear (CPU seconds, not wall time).
scale() {
BIN=$1
fresh scale
/usr/bin/python3 - "$w" <<'EOF'
import sys
n, w = 200000, sys.argv[1]
open(f"{w}/one.py", "w").write("import torch\ny = [" + ", ".join(["a.cuda()"] * n) + "]\n")
open(f"{w}/sep.py", "w").write("import torch\n" + "a.cuda()\n" * n)
open(f"{w}/k.cu", "w").write("#include <cuda_runtime.h>\n" +
    "__global__ void k(float *x) { at::cuda::getCurrentCUDAStream(); k<<<1, 1>>>(x); }\n" * 200000)
EOF
cpu() { /usr/bin/python3 "$ROOT/tests/robustness/cpu_seconds.py" "$@"; }
# 200,000 edits on one line cost what they cost on 200,000 lines (each
# finding's code line was copied whole: 88 s against 7 s).
set -- $(cpu "$BIN" convert "$w/one.py" -o "$w/one.out" -q) \
    $(cpu "$BIN" convert "$w/sep.py" -o "$w/sep.out" -q)
echo "time: 200000 edits: one line $1 s, 200000 lines $3 s (CPU)"
[ "$2" = 0 ] && [ "$4" = 0 ] && ok || bad "edits-one-line: exit $2 / $4, want 0"
awk -v a="$1" -v b="$3" 'BEGIN { exit !(a < 3 * b + 1) }' && ok ||
    bad "edits-one-line: $1 s on one line vs $3 s on separate lines"
echo "$2" >"$tmp/rc"; echo "one line $1 s, separate lines $3 s" >"$tmp/msg"
row "edits-one-line (200,000 edits)" yes
# A 16 MB .cu with 600,001 CUDA constructs: 1000 listed, one line for the rest.
mkdir "$w/cu"; mv "$w/k.cu" "$w/cu/"
run analyse-cap 0 "" "$BIN" analyse "$w/cu" -o "$w/an"
kb=$(du -sk "$w/an" | cut -f1)
[ "$kb" -lt 8000 ] && ok || bad "analyse-cap: $kb KiB of reports"
grep -qF '599001 more CUDA constructs from this line on, not listed (at most 1000 a file)' \
    "$w/an/report.json" && ok || bad "analyse-cap: no summary line"
echo yes >"$tmp/intact"; row "analyse-cap (600,001 constructs: $kb KiB)"
}

matrix() {
BIN=$1
echo "== $BIN"
bounds_cases "$BIN"

# ---- bad bytes and bad syntax: diagnosed, copied unchanged, never a crash
tree_case invalid-utf8 3 "invalid UTF-8" bad.py printf 'import torch\ns = "\377\376"\nx.cuda()\n'
tree_case nul-bytes 3 "NUL byte in source" bad.py printf 'import torch\nx = 1\0\ny.cuda()\n'
tree_case binary-py 3 "invalid UTF-8" bad.py head -c 20000 "$BIN"
tree_case utf16 3 "invalid UTF-8" bad.py sh -c 'printf "import torch\nx.cuda()\n" | iconv -f UTF-8 -t UTF-16'
tree_case bom 0 "" bad.py printf '\357\273\277import torch\nx = torch.zeros(1).cuda()\n'
[ "$(head -c 3 "$w/out/bad.py" | od -An -tx1 | tr -d ' ')" = efbbbf ] && ok || bad "bom: BOM lost"
tree_case deep-brackets 0 "" bad.py /usr/bin/python3 -c "print('x = ' + '[' * 100000 + ']' * 100000)"
tree_case mixed-tabs 0 "" bad.py printf 'import torch\nif 1:\n\tx = 1\n        y = torch.zeros(1).cuda()\n'
for q in "'" '"' "'''" '"""' "f'" 'b"' "rb'''" 'f"""' "u'"; do
    tree_case "unterminated-$q" 3 "unterminated" bad.py printf 'import torch\nx = %s abc\n' "$q"
done
# A 5 MB line: the diagnostic shows a window around the column, not 5 MB.
tree_case long-line 3 "unterminated string" bad.py /usr/bin/python3 -c "print('x = \"' + 'a' * 5000000)"
n=$(wc -c <"$tmp/out")
[ "$n" -lt 4000 ] && ok || bad "long-line: $n bytes of diagnostics"
# Over the 32 MiB cap: copied byte for byte, said.
tree_case over-size-cap 3 "larger than 32 MiB" big.py sh -c 'printf "import torch\n"; head -c 34000000 /dev/zero | tr "\0" "#"'

# Lone CR line ends: converted (CPython compiles them); CRs kept.
fresh cr-only
printf 'import torch\rx = torch.zeros(1).cuda()\r' >"$w/a.py"
run cr-only 0 "" "$BIN" convert "$w/a.py" -o "$w/b.py" -q
echo yes >"$tmp/intact"
if grep -q "npu()" "$w/b.py" &&
    /usr/bin/python3 -c "compile(open('$w/b.py','rb').read(), 'b', 'exec')"; then ok
else bad "cr-only: not converted with CR line ends"; od -c "$w/b.py" | head -n 3
fi
[ "$(tr -cd '\n' <"$w/b.py" | wc -c)" = 0 ] && ok || bad "cr-only: LF inserted"
row cr-only

# ---- links, loops, special files
fresh links
mkdir -p "$w/src/sub" "$w/outside"; printf '%s' "$CUDA_PY" >"$w/src/sub/a.py"
echo secret >"$w/outside/s.py"
ln -s .. "$w/src/sub/loop"; ln -s "$w/outside" "$w/src/out_dir"
ln -s "$w/outside/s.py" "$w/src/out_file.py"; ln -s missing "$w/src/dangling"
snap "$w/src" "$w/snap"; snap "$w/outside" "$w/snap2"
run symlink-loops-and-outside 0 "" "$BIN" convert "$w/src" -o "$w/out" -q
intact links "$w/src" "$w/snap"; intact links-outside "$w/outside" "$w/snap2"
[ -L "$w/out/sub/loop" ] && [ -L "$w/out/out_file.py" ] && ok || bad "links: not copied as links"
notemp links "$w"; row symlink-loops-and-outside

fresh fifo
mkfifo "$w/f.py"
run fifo-single-src 2 "not a regular file or directory (a FIFO)" timeout 20 "$BIN" convert "$w/f.py" -o "$w/o.py"
[ ! -e "$w/o.py" ] && ok || bad "fifo: output written"
notemp fifo "$w"; row fifo-single-src n/a
run dev-zero-src 2 "not a regular file or directory (a device)" timeout 20 "$BIN" convert /dev/zero -o "$w/z.py"
[ ! -e "$w/z.py" ] && ok || bad "/dev/zero: output written"
notemp dev-zero "$w"; row dev-zero-src n/a
fresh fifo-tree
mkdir "$w/src"; mkfifo "$w/src/f.py"; printf '%s' "$CUDA_PY" >"$w/src/a.py"
run fifo-in-tree 0 "a FIFO, not a regular file: never opened" timeout 20 "$BIN" convert "$w/src" -o "$w/out" -q
grep -q '"f.py"' "$w/out/npuify_report/report.json" && ok || bad "fifo in tree: not in the report"
run fifo-in-tree-in-place 0 "a FIFO" timeout 20 "$BIN" convert "$w/src" --in-place -q
[ -p "$w/src/f.py" ] && ok || bad "fifo in place: FIFO replaced"
notemp fifo-tree "$w"; row fifo-in-tree n/a

# ---- unreadable input (as an unprivileged user)
fresh unreadable
mkdir -p "$w/src/locked"; printf '%s' "$CUDA_PY" >"$w/src/a.py"
printf '%s' "$CUDA_PY" >"$w/src/secret.py"; printf '%s' "$CUDA_PY" >"$w/src/locked/b.py"
echo data >"$w/src/data.bin"
chmod -R a+rX "$w/src"; chmod 000 "$w/src/secret.py" "$w/src/data.bin" "$w/src/locked"
snap "$w/src" "$w/snap"
run unreadable-files-dirs 3 "src/secret.py: error[convert-read]: cannot read: permission denied" \
    as_user "$BIN" convert "$w/src" -o "$w/out" -q
grep -qF "src/locked: error[convert-read]: cannot read: permission denied" "$tmp/out" && ok ||
    bad "unreadable dir: not said"
grep -qF "src/data.bin: error[convert-read]: cannot read: permission denied" "$tmp/out" && ok ||
    bad "unreadable data file: not said"
[ "$(grep -c "secret.py" "$tmp/out")" = 1 ] && ok || bad "unreadable: said more than once"
grep -q "write" "$tmp/out" && bad "unreadable: blamed on the output" || ok
n=$(sed -n 's/.*"files_error": \([0-9]*\).*/\1/p' "$w/out/npuify_report/report.json")
[ "$n" = 3 ] && ok || bad "unreadable: $n errors counted, want 3"
chmod -R u+rwX "$w/src"; intact unreadable "$w/src" "$w/snap"
notemp unreadable "$w"; row unreadable-files-dirs

# A file vanishing between the walk and its read (injected).
fresh vanish
mkdir "$w/src"; printf '%s' "$CUDA_PY" >"$w/src/a.py"; printf '%s' "$CUDA_PY" >"$w/src/gone.py"
run vanishing-file 3 "src/gone.py: error[convert-read]: cannot read: no such file or directory" \
    env NFY_SHIM_VANISH=gone.py LD_PRELOAD="$SHIM" "$BIN" convert "$w/src" -o "$w/out" -q
grep -q "npu()" "$w/out/a.py" && ok || bad "vanish: the rest not converted"
notemp vanish "$w"; row vanishing-file n/a

# ---- SRC/DST pairs
fresh overlap
mkdir -p "$w/d/proj/proj"; echo '# ORIGINAL' >"$w/d/proj/train.py"
printf '%s' "$CUDA_PY" >"$w/d/proj/proj/train.py"; snap "$w/d" "$w/snap"
run src-inside-dst 2 "lies inside the output" "$BIN" convert "$w/d/proj" -o "$w/d" --force
intact src-inside-dst "$w/d" "$w/snap"; row src-inside-dst
run dst-inside-src 2 "output lies inside the input" "$BIN" convert "$w/d" -o "$w/d/proj/out" --force
intact dst-inside-src "$w/d" "$w/snap"; row dst-inside-src
ln -s "$w/d/proj" "$w/alias"
run dst-is-src-via-link 2 "lies inside" "$BIN" convert "$w/d/proj" -o "$w/alias" --force
intact dst-is-src-via-link "$w/d" "$w/snap"; row dst-is-src-via-link
run single-dst-dir-is-src-dir 2 "output is the input file" "$BIN" convert "$w/d/proj/train.py" -o "$w/d/proj" --force
intact single-dst-dir-is-src-dir "$w/d" "$w/snap"; row single-dst-dir-is-src-dir
mkdir -p "$w/exist"; echo keep >"$w/exist/k.txt"
run existing-dst 2 "not empty; use --force" "$BIN" convert "$w/d/proj/proj" -o "$w/exist"
[ "$(cat "$w/exist/k.txt")" = keep ] && ok || bad "existing dst: touched"
echo yes >"$tmp/intact"; row existing-dst
mkdir -p "$w/ro"; chmod 555 "$w/ro"
run read-only-dst 3 "cannot write: permission denied" as_user "$BIN" convert "$w/d/proj/proj" -o "$w/ro/out" -q
intact read-only-dst "$w/d" "$w/snap"; notemp ro "$w"; row read-only-dst

# A directory link planted in DST pointing back into SRC: never written through.
fresh dst-link
mkdir -p "$w/src/sub" "$w/out"; printf '%s' "$CUDA_PY" >"$w/src/sub/a.py"
ln -s "$w/src/sub" "$w/out/sub"; snap "$w/src" "$w/snap"
run symlink-in-dst 3 "out/sub: error[convert-write]: cannot write: a symbolic link is in the way" \
    "$BIN" convert "$w/src" -o "$w/out" --force -q
intact symlink-in-dst "$w/src" "$w/snap"; notemp dst-link "$w"; row symlink-in-dst
# The same where the kernel has no openat2 (the component walk).
run symlink-in-dst-no-openat2 3 "out/sub: error[convert-write]: cannot write: a symbolic link is in the way" \
    env NFY_SHIM_NO_OPENAT2=1 LD_PRELOAD="$SHIM" "$BIN" convert "$w/src" -o "$w/out" --force -q
grep -qF "out/sub/a.py: error[convert-write]" "$tmp/out" && ok || bad "no openat2: file below the link not refused"
intact symlink-in-dst-no-openat2 "$w/src" "$w/snap"; row symlink-in-dst-no-openat2
# The report directory planted in DST as a link into SRC: not written through.
fresh report-link
mkdir -p "$w/src" "$w/out"; printf '%s' "$CUDA_PY" >"$w/src/a.py"; echo mine >"$w/src/summary.md"
ln -s "$w/src" "$w/out/npuify_report"; snap "$w/src" "$w/snap"
run report-dir-link-in-dst 3 "out/npuify_report: error[convert-write]: cannot write the report: a symbolic link" \
    "$BIN" convert "$w/src" -o "$w/out" --force -q
intact report-dir-link-in-dst "$w/src" "$w/snap"; notemp report-link "$w"; row report-dir-link-in-dst
# A file link in DST is replaced by the file, its target untouched.
fresh dst-file-link
mkdir -p "$w/src" "$w/out"; printf '%s' "$CUDA_PY" >"$w/src/a.py"; cp "$w/src/a.py" "$w/victim.py"
ln -s "$w/victim.py" "$w/out/a.py"; snap "$w/src" "$w/snap"
run file-link-in-dst 0 "" "$BIN" convert "$w/src" -o "$w/out" --force -q
cmp -s "$w/victim.py" "$w/src/a.py" && [ ! -L "$w/out/a.py" ] && ok || bad "file link in dst: written through"
intact file-link-in-dst "$w/src" "$w/snap"; row file-link-in-dst

# ---- write failures: said once with the reason, counted, nothing left
fresh enospc
mkdir "$w/src"; printf '%s' "$CUDA_PY" >"$w/src/a.py"; echo data >"$w/src/b.txt"; snap "$w/src" "$w/snap"
run full-disk-injected 3 "out/a.py: error[convert-write]: cannot write: no space left on device" \
    env NFY_SHIM_WRITE_ERRNO=28 LD_PRELOAD="$SHIM" "$BIN" convert "$w/src" -o "$w/out"
grep -q "0 changed, 0 copied, 0 skipped, 2 errors" "$tmp/out" && ok || bad "enospc: errors not counted"
[ "$(grep -c "out/b.txt: error" "$tmp/out")" = 1 ] && ok || bad "enospc: not said once"
notemp enospc "$w"; intact full-disk-injected "$w/src" "$w/snap"; row full-disk-injected
cp -a "$w/src" "$w/ip"; snap "$w/ip" "$w/snap2"
run full-disk-in-place 3 "cannot write the backup, so the file is left unchanged: no space left on device" \
    env NFY_SHIM_WRITE_ERRNO=28 LD_PRELOAD="$SHIM" "$BIN" convert "$w/ip" --in-place -q
intact full-disk-in-place "$w/ip" "$w/snap2"; notemp enospc-ip "$w"; row full-disk-in-place
run read-only-fs-injected 3 "cannot write: read-only file system" \
    env NFY_SHIM_CREATE_ERRNO=30 LD_PRELOAD="$SHIM" "$BIN" convert "$w/src" -o "$w/out2" -q
notemp erofs "$w"; intact read-only-fs-injected "$w/src" "$w/snap"; row read-only-fs-injected
# The fresh tree's files are unnamed until complete (O_TMPFILE + linkat):
# where the file system cannot (no O_TMPFILE, linkat refused) or
# copy_file_range cannot, the output is the same; a failing link is said.
printf '#!/bin/sh\necho cuda\n' >"$w/src/run"; chmod 750 "$w/src/run"; snap "$w/src" "$w/snap"
"$BIN" convert "$w/src" -o "$w/ref" -q >/dev/null 2>&1
for v in NFY_SHIM_NO_TMPFILE=1 NFY_SHIM_LINK_ERRNO=2 NFY_SHIM_NO_COPY_RANGE=1; do
    rm -rf "$w/alt"
    run "fallback-$v" 0 "" env "$v" LD_PRELOAD="$SHIM" "$BIN" convert "$w/src" -o "$w/alt" -q
    diff -r -x npuify_report "$w/ref" "$w/alt" >/dev/null &&
        [ "$(stat -c %a "$w/alt/run")" = 750 ] && ok || bad "fallback $v: output differs"
    notemp "fallback-$v" "$w"; intact "fallback-$v" "$w/src" "$w/snap"; row "fallback-$v"
done
rm -f "$w/src/run"; snap "$w/src" "$w/snap"
run link-fails-injected 3 "out3/a.py: error[convert-write]: cannot write: no space left on device" \
    env NFY_SHIM_LINK_ERRNO=28 LD_PRELOAD="$SHIM" "$BIN" convert "$w/src" -o "$w/out3"
[ "$(grep -c "out3/b.txt: error" "$tmp/out")" = 1 ] && ok || bad "link fails: not said once"
[ ! -e "$w/out3/a.py" ] && [ ! -e "$w/out3/b.txt" ] && ok || bad "link fails: a file appeared"
notemp link-fails "$w"; intact link-fails-injected "$w/src" "$w/snap"; row link-fails-injected
echo x >"$w/file"
run dst-not-a-directory 3 "cannot write: not a directory" "$BIN" convert "$w/src/a.py" -o "$w/file/a.py" -q
row dst-not-a-directory n/a
if [ -z "$mounted" ] && [ "$(id -u)" = 0 ] && mkdir -p "$tmp/mnt" &&
    mount -t tmpfs -o size=96k tmpfs "$tmp/mnt" 2>/dev/null; then
    mounted=$tmp/mnt
fi
if [ -n "$mounted" ]; then
    rm -rf "$mounted"/*
    head -c 200000 /dev/zero | tr '\0' 'x' >"$w/src/big.txt"; snap "$w/src" "$w/snap"
    run full-disk-tmpfs 3 "cannot write: no space left on device" "$BIN" convert "$w/src" -o "$mounted/out" -q
    intact full-disk-tmpfs "$w/src" "$w/snap"; notemp tmpfs "$mounted"; row full-disk-tmpfs
    rm -f "$w/src/big.txt"
else
    echo "note: no tmpfs mount allowed; the full disk is injected only"
fi

# ---- in place: backups, names, links, owners
fresh longname
mkdir "$w/src"; n235=$(printf 'a%.0s' $(seq 232)).py; n252=$(printf 'b%.0s' $(seq 249)).py
printf '%s' "$CUDA_PY" >"$w/src/$n235"; printf '%s' "$CUDA_PY" >"$w/src/$n252"
snap "$w/src" "$w/snap"
run long-names-in-place 3 "cannot write the backup, so the file is left unchanged: file name too long" \
    "$BIN" convert "$w/src" --in-place -q
grep -q "npu()" "$w/src/$n235" && cmp -s "$w/src/$n235.orig" "$tmp/cuda.py" && ok ||
    bad "235-char name: not converted with a backup"
cmp -s "$w/src/$n252" "$tmp/cuda.py" && ok || bad "252-char name: rewritten without a backup"
echo yes >"$tmp/intact"; notemp longname "$w"; row long-names-in-place

fresh odd
mkdir "$w/src"
for f in "with space.py" "-leading.py" "$(printf 'new\nline.py')" "$(printf 'bytes\377\376.py')" "--.py"; do
    printf '%s' "$CUDA_PY" >"$w/src/$f"
done
snap "$w/src" "$w/snap"
run odd-names 0 "" "$BIN" convert "$w/src" -o "$w/out" -q
[ "$(find "$w/out" -name '*.py' | wc -l)" -ge 5 ] && ok || bad "odd names: not all written"
intact odd-names "$w/src" "$w/snap"; notemp odd "$w"
run odd-names-in-place 0 "" "$BIN" convert "$w/src" --in-place -q
# (NUL-separated counts: one name holds a newline)
[ "$(grep -lZ "npu()" "$w/src"/*.py | tr -cd '\0' | wc -c)" = 5 ] &&
    [ "$(find "$w/src" -name '*.py.orig' -print0 | tr -cd '\0' | wc -c)" = 5 ] && ok ||
    bad "odd names in place: not converted"
notemp odd-ip "$w"; row odd-names

fresh link-in-place
printf '%s' "$CUDA_PY" >"$w/real.py"; ln -s real.py "$w/link.py"
run single-file-link-in-place 0 "" "$BIN" convert "$w/link.py" --in-place -q
[ -L "$w/link.py" ] && grep -q "npu()" "$w/real.py" && [ -f "$w/real.py.orig" ] && ok ||
    bad "in place through a link: link replaced or target unconverted"
echo yes >"$tmp/intact"; row single-file-link-in-place

if [ "$(id -u)" = 0 ]; then
    fresh owner
    mkdir "$w/src"; printf '%s' "$CUDA_PY" >"$w/src/a.py"
    chown 65534:65534 "$w/src/a.py"; chmod 640 "$w/src/a.py"
    run owner-kept-in-place 0 "" "$BIN" convert "$w/src" --in-place -q
    [ "$(stat -c '%u:%g:%a' "$w/src/a.py")" = "65534:65534:640" ] &&
        [ "$(stat -c '%u:%g:%a' "$w/src/a.py.orig")" = "65534:65534:640" ] && ok ||
        bad "owner in place: $(stat -c '%u:%g:%a' "$w/src/a.py" "$w/src/a.py.orig")"
    echo yes >"$tmp/intact"; row owner-kept-in-place
fi
if [ "$(id -u)" = 0 ]; then
    # As a user who cannot chown: root's file in a directory the user owns.
    fresh owner2
    mkdir "$w/src"; printf '%s' "$CUDA_PY" >"$w/src/a.py"; chmod 666 "$w/src/a.py"
    chown 65534:65534 "$w/src"
    run owner-not-kept-warned 0 "owner and group not kept (permission denied)" \
        as_user "$BIN" convert "$w/src" --in-place -q
    grep -q "npu()" "$w/src/a.py" && cmp -s "$w/src/a.py.orig" "$tmp/cuda.py" && ok ||
        bad "owner not kept: not converted"
    echo yes >"$tmp/intact"; row owner-not-kept-warned
fi

# Stale temporaries of npuify are removed by the next in-place run; look-
# alike names of the user are not.
fresh stale
mkdir "$w/src"; printf '%s' "$CUDA_PY" >"$w/src/a.py"
echo t >"$w/src/.npuify-Ab3xZ9"; echo t >"$w/src/.a.py.npuify-Qw12Er"
echo mine >"$w/src/.npuify-notes"; echo mine >"$w/src/my.npuify-backup"; echo mine >"$w/src/.npuify-ab_def"
run stale-temps-removed 0 "" "$BIN" convert "$w/src" --in-place -q
[ ! -e "$w/src/.npuify-Ab3xZ9" ] && [ ! -e "$w/src/.a.py.npuify-Qw12Er" ] && ok || bad "stale temps kept"
[ -f "$w/src/.npuify-notes" ] && [ -f "$w/src/my.npuify-backup" ] && [ -f "$w/src/.npuify-ab_def" ] && ok ||
    bad "a user file with a look-alike name was removed"
printf '%s' "$CUDA_PY" >"$w/one.py"; echo t >"$w/.npuify-Zz9Yy8"
run stale-temps-single-file 0 "" "$BIN" convert "$w/one.py" --in-place -q
[ ! -e "$w/.npuify-Zz9Yy8" ] && grep -q "npu()" "$w/one.py" && ok || bad "single file: stale temp kept"
echo yes >"$tmp/intact"; row stale-temps-removed

# ---- ops: nothing after the first JSON document is ignored
fresh ops
printf '[{"name": "aten::add", "ph": "X", "ts": 1, "dur": 2, "args": {}}]\n' >"$w/t.json"
(cat "$w/t.json"; echo garbage) >"$w/g.json"
gzip -c "$w/t.json" >"$w/t.gz"; (cat "$w/t.gz"; head -c 20 "$w/t.gz") >"$w/cut.gz"
run ops-trailing-garbage 3 "trace-trailing" "$BIN" ops "$w/g.json" -o "$w/o1" -q
row ops-trailing-garbage n/a
run ops-cut-gzip-member 3 "error" "$BIN" ops "$w/cut.gz" -o "$w/o2" -q
row ops-cut-gzip-member n/a
}

# ---- interrupted --in-place on 5,000 files
gen_tree() { # DIR: 50 packages x 100 files
    /usr/bin/python3 - "$1" <<'EOF'
import os, sys
root = sys.argv[1]
for d in range(50):
    os.makedirs(f"{root}/p{d:02d}", exist_ok=True)
    for i in range(100):
        with open(f"{root}/p{d:02d}/m{i:03d}.py", "w") as f:
            f.write(f"import torch\nx{i} = torch.zeros({i}).cuda()\n")
EOF
}
# check_partial CASE: each file is its original or its conversion; a
# converted one has a correct .orig; an original has a correct one or none.
check_partial() {
    c=$1
    (cd "$w/t" && find . -name '*.py' -print0 | sort -z | xargs -0 sha256sum) >"$tmp/now"
    (cd "$w/t" && find . -name '*.py.orig' -print0 | sort -z | xargs -0r sha256sum) |
        sed 's/\.orig$//' >"$tmp/origs"
    awk -v c="$c" 'FILENAME == ARGV[1] { orig[$2] = $1; next }
         FILENAME == ARGV[2] { conv[$2] = $1; next }
         FILENAME == ARGV[3] { bak[$2] = $1; next }
         { f = $2; h = $1
           if (h == orig[f]) { if ((f in bak) && bak[f] != orig[f]) { print c ": bad backup " f; bad++ } }
           else if (h == conv[f]) { if (bak[f] != orig[f]) { print c ": converted without backup " f; bad++ } else done++ }
           else { print c ": half-written " f; bad++ } }
         END { printf "%s: %d of 5000 converted\n", c, done; exit bad > 0 }' \
        "$w/orig.sum" "$w/conv.sum" "$tmp/origs" "$tmp/now"
}
interrupt() { # CASE SIGNAL WANT_RC
    ic=$1; sig=$2; want=$3
    rm -rf "$w/t"; cp -a "$w/pristine" "$w/t"
    # A background job of sh ignores SIGINT (and npuify keeps it so).
    env --default-signal=INT,TERM "$BIN" convert "$w/t" --in-place -q >"$tmp/out" 2>&1 &
    pid=$!
    i=0
    while [ $i -lt 2000 ] && ! [ -e "$w/t/p00/m005.py.orig" ]; do sleep 0.01; i=$((i + 1)); done
    kill -s "$sig" $pid
    wait $pid; irc=$?
    [ "$irc" = "$want" ] && ok || bad "$ic: exit $irc, want $want"
    if [ "$sig" != KILL ]; then
        notemp "$ic" "$w/t"
        grep -qF "stopped by SIG$sig" "$tmp/out" && ok || bad "$ic: not said"
    fi
    check_partial "$ic" | tail -n 4 | tee "$tmp/partial"
    grep -q " 5000 of 5000" "$tmp/partial" && bad "$ic: finished before the signal (not a test)"
    grep -q ": bad\|half-written\|without backup" "$tmp/partial" && bad "$ic: a file lost" || ok
    # The next run removes what a SIGKILL left and finishes the job.
    run "$ic-rerun" 0 "" "$BIN" convert "$w/t" --in-place -q
    notemp "$ic-rerun" "$w/t"
    check_partial "$ic-rerun" | grep -q " 5000 of 5000" && ok || bad "$ic-rerun: not all converted"
    echo "$irc" >"$tmp/rc"; echo "stopped by SIG$sig" >"$tmp/msg"
    row "$ic (5,000 files; rerun: exit 0, all converted, no temp)" yes
}

start=$(date +%s)
lap() { echo "time: $1: $(( $(date +%s) - start )) s"; }
# big BIN LABEL: the interrupted runs and the 50,000-file tree.
big() {
BIN=$1; label=$2
fresh sig
gen_tree "$w/pristine"
(cd "$w/pristine" && find . -name '*.py' -print0 | sort -z | xargs -0 sha256sum) >"$w/orig.sum"
"$BIN" convert "$w/pristine" -o "$w/ref" -q >/dev/null 2>&1
(cd "$w/ref" && find . -name '*.py' -print0 | sort -z | xargs -0 sha256sum) >"$w/conv.sum"
# SIGKILL during -o: each output file is complete or absent, and no
# temporary is left (the files are unnamed until complete). A 2 MB file
# right after p00/m005.py keeps the run busy when the signal comes.
rm -rf "$w/k" "$w/kt"; cp -a "$w/pristine" "$w/kt"
/usr/bin/python3 -c "print('import torch\\n' + 'y = [1, 2, 3]\\n' * 150000)" >"$w/kt/p00/m005x.py"
"$BIN" convert "$w/kt" -o "$w/k" -q >/dev/null 2>&1 &
kpid=$!
i=0
while [ $i -lt 2000 ] && ! [ -e "$w/k/p00/m005.py" ]; do sleep 0.01; i=$((i + 1)); done
kill -s KILL $kpid; wait $kpid; krc=$?
[ "$krc" = 137 ] && ok || bad "sigkill-write-tree: exit $krc, want 137"
notemp sigkill-write-tree "$w/k"
[ ! -e "$w/k/p00/m005x.py" ] && [ ! -e "$w/k/npuify_report" ] && ok ||
    bad "sigkill-write-tree: finished before the signal (not a test)"
(cd "$w/k" && find . -name '*.py' -print0 | sort -z | xargs -0r sha256sum) >"$tmp/now"
n=$(wc -l <"$tmp/now")
awk 'FILENAME == ARGV[1] { conv[$2] = $1; next } $1 != conv[$2] { print "partial " $2; bad++ }
     END { exit bad > 0 }' "$w/conv.sum" "$tmp/now" && ok || bad "sigkill-write-tree: a partial file"
echo "$krc" >"$tmp/rc"; echo "killed after p00/m005.py; $n files, all complete" >"$tmp/msg"
row "sigkill-write-tree (-o; complete or absent, no temp)" yes
rm -rf "$w/k" "$w/kt"
interrupt sigint-in-place INT 130
interrupt sigterm-in-place TERM 143
interrupt sigkill-in-place KILL 137
lap "interrupted runs, $label"

# ---- a 50,000-file tree: converted completely
fresh many
/usr/bin/python3 - "$w/src" <<'EOF'
import os, sys
root = sys.argv[1]
for d in range(100):
    os.makedirs(f"{root}/d{d:03d}", exist_ok=True)
    for i in range(500):
        with open(f"{root}/d{d:03d}/f{i:03d}.py", "w") as f:
            f.write("import torch\nx = torch.zeros(1).cuda()\n" if i % 50 == 0 else "x = 1\n")
EOF
run many-files-50000 0 "50000 files scanned, 1000 changed" "$BIN" convert "$w/src" -o "$w/out"
[ "$(find "$w/out" -name '*.py' | wc -l)" = 50000 ] && ok || bad "50000: not all written"
echo yes >"$tmp/intact"; row many-files-50000
lap "50,000 files, $label"

}

if [ "${ROBUST_ONLY:-}" = bounds ]; then
    bounds_cases "$NPUIFY"; scale "$NPUIFY"
    [ "${ROBUST_ASAN:-1}" = 1 ] && bounds_cases "$ASAN"
    finish; exit
fi
matrix "$NPUIFY"
big "$NPUIFY" release
scale "$NPUIFY"
lap "release"
if [ "${ROBUST_ASAN:-1}" = 1 ] && [ -x "$ASAN" ]; then
    matrix "$ASAN"
    big "$ASAN" ASan
    lap "ASan"
elif [ "${ROBUST_ASAN:-1}" = 1 ]; then
    bad "ASan binary $ASAN missing (make MODE=asan all, or ROBUST_ASAN=0)"
fi

finish
