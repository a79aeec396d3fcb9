#!/bin/sh
# Differential test of the tokenizer against Python's own tokenize module.
#  1. every .py under /usr/lib/python3.11 and, when installed, Debian's
#     torch and torchvision: `npuify tokens` must print exactly what
#     tools/pytokens.py (tokenize of /usr/bin/python3, 3.11) prints, file by
#     file (files tokenize rejects are only round-tripped);
#  2. `npuify tokens --roundtrip` on all of them: tokens give back the bytes;
#     400 transformed copies (CRLF, BOM and no final newline, tabs, form
#     feeds, trailing spaces) must match tokenize and round-trip too;
#  3. 200 corrupted copies (truncated, bytes flipped, NULs, stray quotes,
#     CRs, backslashes, invalid UTF-8; fixed seed): round trip must hold,
#     and where tokenize still succeeds the tokens must match it too;
#  4. 1500 random snippets of tricky pieces (quotes, prefixes, braces,
#     backslashes, CR, odd numbers, non-ASCII; fixed seed): same two checks;
#  5. exit codes: 2 for usage errors, 3 for an unreadable file.
# Run from the repository root: NPUIFY=build/release/npuify sh tests/check_tokens.sh
# Ends with "N passed, N failed" (one per check above); exit 1 on failure.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
case $NPUIFY in /*) ;; *) NPUIFY=$(pwd)/$NPUIFY ;; esac
ROOT=$(pwd)
. tests/lib.sh
check() { # $1 = name, $2 = 0 for pass
    if [ "$2" -eq 0 ]; then ok "$1"; else fail "$1"; fi
}
if [ ! -x "$NPUIFY" ] || [ ! -x "$PY" ]; then
    fail "need $NPUIFY and $PY"; finish
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT INT TERM

for d in /usr/lib/python3.11 /usr/lib/python3/dist-packages/torch \
         /usr/lib/python3/dist-packages/torchvision; do
    [ -d "$d" ] && find "$d" -name '*.py' -type f
done | LC_ALL=C sort > "$tmp/list"
total=$(wc -l < "$tmp/list")
echo "corpus: $total files"

# Python is the slow side: two reference processes on halves of the list.
half=$(( (total + 1) / 2 ))
head -n "$half" "$tmp/list" > "$tmp/list1"
tail -n +"$((half + 1))" "$tmp/list" > "$tmp/list2"
"$PY" tools/pytokens.py --from "$tmp/list1" > "$tmp/ref1" &
p1=$!
"$PY" tools/pytokens.py --from "$tmp/list2" > "$tmp/ref2" &
p2=$!
"$NPUIFY" tokens --quiet --files-from "$tmp/list" > "$tmp/ours" 2> "$tmp/ours.err"
rc_ours=$?
wait $p1; wait $p2
cat "$tmp/ref1" "$tmp/ref2" > "$tmp/ref"

# Compare file by file: prints counts; exit 1 when any file differs.
compare() { # $1 = ours, $2 = reference, $3 = label
    "$PY" - "$1" "$2" "$3" <<'PYEOF'
import sys
def split(path):
    files, cur = {}, None
    order = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.startswith('{"file": '):
                cur = []
                files[line] = cur
                order.append(line)
            elif cur is not None:
                cur.append(line)
    return files, order
ours, _ = split(sys.argv[1])
ref, order = split(sys.argv[2])
label = sys.argv[3]
compared = differ = pyerr = missing = 0
shown = []
for key in order:
    r = ref[key]
    if r and r[-1].startswith('{"error": '):
        pyerr += 1
        continue
    o = ours.get(key)
    if o is None:
        missing += 1
        continue
    compared += 1
    if o != r:
        differ += 1
        if len(shown) < 5:
            i = next((i for i, (a, b) in enumerate(zip(o, r)) if a != b),
                     min(len(o), len(r)))
            shown.append("  %s  token %d\n    npuify: %s    python: %s" % (
                key.strip(), i, o[i] if i < len(o) else "(none)\n",
                r[i] if i < len(r) else "(none)\n"))
print("%s: %d files compared, %d differ, %d python could not tokenize, "
      "%d missing from npuify" % (label, compared, differ, pyerr, missing))
for s in shown:
    print(s, end="")
sys.exit(1 if differ or missing else 0)
PYEOF
}

compare "$tmp/ours" "$tmp/ref" corpus
r=$?; [ $rc_ours -eq 0 ] || r=1
check "corpus tokens match tokenize" $r

"$NPUIFY" tokens --roundtrip --quiet --files-from "$tmp/list" > "$tmp/rt" 2>&1
r=$?; tail -n 1 "$tmp/rt"; grep FAILED "$tmp/rt" | head -n 5
check "corpus round trip" $r

# Transformed copies Python still accepts: CRLF line ends, a BOM and no
# final newline, tabs for indentation, form feeds, trailing spaces at EOF.
mkdir "$tmp/var"
"$PY" - "$tmp/list" "$tmp/var" <<'PYEOF'
import os, random, sys
rng = random.Random(3)
paths = [l.rstrip("\n") for l in open(sys.argv[1])]
for k, p in enumerate(rng.sample(paths, min(400, len(paths)))):
    d = open(p, "rb").read()
    how = k % 5
    if how == 0:
        d = d.replace(b"\n", b"\r\n")
    elif how == 1:
        d = b"\xef\xbb\xbf" + d.rstrip(b"\n")
    elif how == 2:
        d = d.replace(b"        ", b"\t")
    elif how == 3:
        d = d.replace(b"\n", b" \x0c\n", 50)
    else:
        d = d.rstrip() + b"   "
    with open(os.path.join(sys.argv[2], "v%03d.py" % k), "wb") as f:
        f.write(d)
PYEOF
ls "$tmp/var"/*.py | LC_ALL=C sort > "$tmp/varlist"
"$NPUIFY" tokens --quiet --files-from "$tmp/varlist" > "$tmp/var_ours" 2>/dev/null
r1=$?
"$PY" tools/pytokens.py --from "$tmp/varlist" > "$tmp/var_ref"
compare "$tmp/var_ours" "$tmp/var_ref" "transformed copies"
r=$?; [ $r1 -eq 0 ] || r=1
"$NPUIFY" tokens --roundtrip --quiet --files-from "$tmp/varlist" > "$tmp/rt4" 2>&1 || r=1
tail -n 1 "$tmp/rt4"
check "transformed copies (CRLF, BOM, tabs, form feeds) match and round-trip" $r

# Deterministic corruptions of corpus files.
mkdir "$tmp/bad"
"$PY" - "$tmp/list" "$tmp/bad" <<'PYEOF'
import os, random, sys
rng = random.Random(20240601)
paths = [l.rstrip("\n") for l in open(sys.argv[1])]
small = [p for p in paths if 0 < os.path.getsize(p) < 40000]
junk = [b"\x00", b"'", b'"', b'"""', b"'''", b"\r", b"\\", b"\t", b"\x0c",
        b"\xff", b"\xc3", b"\xe2\x82", b"{", b"f'{", b"(", b")", b"$", b"?",
        b"!", b"\xef\xbb\xbf", b"\r\n", b"#", b"\\\n", b" " * 3, b"0x",
        b"1e", b"\xc3\xa9", b"\xe2\x80\xa6"]
for k in range(200):
    data = bytearray(open(rng.choice(small), "rb").read())
    how = k % 4
    if how == 0 and data:
        del data[rng.randrange(len(data)):]
    elif how == 1:
        for _ in range(rng.randint(1, 8)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
    elif how == 2:
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(data) + 1)
            data[at:at] = rng.choice(junk)
    else:
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data) + 1)
            data[at:at] = rng.choice(junk)
        if data:
            del data[rng.randrange(len(data)):]
    with open(os.path.join(sys.argv[2], "bad%03d.py" % k), "wb") as f:
        f.write(data)
PYEOF
ls "$tmp/bad"/*.py | LC_ALL=C sort > "$tmp/badlist"
"$NPUIFY" tokens --roundtrip --quiet --files-from "$tmp/badlist" > "$tmp/rt2" 2>&1
r=$?; tail -n 1 "$tmp/rt2"; grep FAILED "$tmp/rt2" | head -n 5
check "corrupted copies round trip" $r

"$NPUIFY" tokens --quiet --files-from "$tmp/badlist" > "$tmp/bad_ours" 2>/dev/null
"$PY" tools/pytokens.py --from "$tmp/badlist" > "$tmp/bad_ref"
compare "$tmp/bad_ours" "$tmp/bad_ref" corrupted
check "corrupted copies tokens match tokenize where it succeeds" $?

# Random snippets built from tokenize's tricky pieces (fixed seed): where
# tokenize succeeds, the tokens must match; the round trip must always hold.
mkdir "$tmp/rnd"
"$PY" - "$tmp/rnd" <<'PYEOF'
import os, random, sys
rng = random.Random(7)
frags = ["x", "y1", "if", "def", " ", "  ", "\t", "\n", "\r\n", "\r", "(",
         ")", "[", "]", "{", "}", "'", '"', "'" * 3, '"' * 3, "f'", 'f"',
         "rb'", "b'", "u'", 'Rb"', "fr'", "#", "# c", "\\", "\\\n", "0", "1",
         "0x1f", "0b", "0o7", "1_0", "1e", "1e5", "1.", ".5", "j", "...", ".",
         "=", "==", "!=", "!", "->", "**=", "//", ":", ":=", ",", ";", "@",
         "$", "?", "`", "\x0c", "\x00", "\u00e9", "\u00f1ame", "\u00b2",
         "\u2026", "\u00a0", "{x}", "{{", "}}", "{x!r}", "{x:>{w}}",
         "\\N{DASH}", "    ", "\n    ", "\n  ", "\nif x:\n    y\n",
         "lambda", "pass"]
for k in range(1500):
    data = "".join(rng.choice(frags) for _ in range(rng.randint(1, 40)))
    data = data.encode("utf-8")
    if k % 20 == 0:
        data = b"\xef\xbb\xbf" + data
    with open(os.path.join(sys.argv[1], "r%04d.py" % k), "wb") as f:
        f.write(data)
PYEOF
ls "$tmp/rnd"/*.py | LC_ALL=C sort > "$tmp/rndlist"
"$NPUIFY" tokens --roundtrip --quiet --files-from "$tmp/rndlist" > "$tmp/rt3" 2>&1
r=$?; tail -n 1 "$tmp/rt3"; grep FAILED "$tmp/rt3" | head -n 5
check "random snippets round trip" $r
"$NPUIFY" tokens --quiet --files-from "$tmp/rndlist" > "$tmp/rnd_ours" 2>/dev/null
"$PY" tools/pytokens.py --from "$tmp/rndlist" > "$tmp/rnd_ref"
compare "$tmp/rnd_ours" "$tmp/rnd_ref" "random snippets"
check "random snippets tokens match tokenize where it succeeds" $?

# Exit codes.
"$NPUIFY" tokens >/dev/null 2>&1; r1=$?
"$NPUIFY" tokens --no-such-option x.py >/dev/null 2>&1; r2=$?
"$NPUIFY" tokens "$tmp/does-not-exist.py" >/dev/null 2>&1; r3=$?
printf 'x = 1\n' > "$tmp/one.py"
"$NPUIFY" tokens --roundtrip "$tmp/one.py" >/dev/null 2>&1; r4=$?
echo "exit codes: no file $r1, bad option $r2, missing file $r3, ok $r4"
[ $r1 -eq 2 ] && [ $r2 -eq 2 ] && [ $r3 -eq 3 ] && [ $r4 -eq 0 ]
check "exit codes" $?

finish
