#!/bin/sh
# Corpus checks for `npuify syntax` (pysyn):
#  1. agreement with CPython's ast on real files: every call, every Store/Del
#     name, every parameter, every import name and every def/class that ast
#     reports is found at the same line:column, and nothing more (calls and
#     names inside f-strings aside: pysyn does not look into them);
#  2. robustness: broken variants of real files (truncated, a bracket
#     removed or added, garbage bytes) never crash and still end with the
#     summary line;
#  3. the CLI's JSON lines on a small input.
# Samples every 7th corpus file; CHECK_SYNTAX_ALL=1 checks all of them.
# Run from the repo root with NPUIFY=build/release/npuify.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
PY=/usr/bin/python3
export LC_ALL=C
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
. tests/lib.sh
suite syntax

if [ ! -x "$NPUIFY" ]; then
    fail "$NPUIFY is not built"; finish
fi

STEP=7
[ "${CHECK_SYNTAX_ALL:-0}" = 1 ] && STEP=1
find /usr/lib/python3.11 /usr/lib/python3/dist-packages/torch -name '*.py' \
    -type f 2>/dev/null | sort | awk -v s="$STEP" '(NR - 1) % s == 0' >"$TMP/files"

cat >"$TMP/xref.py" <<'PYEOF'
"""Cross-check `npuify syntax` against CPython's ast for a list of files.
usage: xref.py NPUIFY FILE...   prints mismatches and 'N passed, N failed'"""
import ast, json, subprocess, sys

def cp_col(lines, lineno, col):
    b = lines[lineno - 1].encode('utf-8', 'surrogateescape')[:col]
    return len(b.decode('utf-8', 'replace'))

def ref_facts(path):
    src = open(path, 'rb').read()
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return None
    # ast counts lines ending in \n, \r\n or \r, as our line table does
    text = src.decode('utf-8', 'surrogateescape').replace('\r\n', '\n').replace('\r', '\n')
    lines = text.split('\n')
    facts = set()
    fstr = []
    for n in ast.walk(tree):
        if isinstance(n, ast.JoinedStr):
            fstr.append((n.lineno, n.col_offset, n.end_lineno, n.end_col_offset))
    def in_fstring(n):
        for (l1, c1, l2, c2) in fstr:
            if (l1, c1) < (n.lineno, n.col_offset) and (n.end_lineno, n.end_col_offset) <= (l2, c2):
                return True
        return False
    for n in ast.walk(tree):
        if isinstance(n, ast.MatchClass):  # we see class patterns as calls
            facts.add(('call', n.lineno, cp_col(lines, n.lineno, n.col_offset)))
        elif isinstance(n, ast.Call) and not in_fstring(n):
            facts.add(('call', n.lineno, cp_col(lines, n.lineno, n.col_offset)))
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)) and not in_fstring(n):
            kind = 'store' if isinstance(n.ctx, ast.Store) else 'del'
            facts.add((kind, n.lineno, cp_col(lines, n.lineno, n.col_offset), n.id))
        elif isinstance(n, ast.Import):
            for a in n.names:
                facts.add(('import', n.lineno, 0, '', a.name, a.asname or ''))
        elif isinstance(n, ast.ImportFrom):
            for a in n.names:
                if a.name == '*':
                    continue
                facts.add(('import', n.lineno, n.level, n.module or '', a.name, a.asname or ''))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            facts.add(('def', n.lineno, n.name))
        elif isinstance(n, ast.arg):
            facts.add(('param', n.lineno, cp_col(lines, n.lineno, n.col_offset), n.arg))
    return facts

def our_facts(npuify, path):
    out = subprocess.run([npuify, 'syntax', '--uses', '--quiet', path],
                         capture_output=True, text=True, errors='replace')
    if out.returncode not in (0, 3):
        return 'crash %d' % out.returncode
    facts = set()
    stmts = {}
    for line in out.stdout.splitlines():
        o = json.loads(line)
        t = o['type']
        if t == 'stmt':
            stmts[o['i']] = o
            if o['kind'] in ('def', 'class'):
                # ast gives the def line, ours gives the line of the keyword
                facts.add(('def', o['line'], o['name']))
        elif t == 'call' and 'class_bases' not in o['flags']:
            facts.add(('call', o['line'], o['col']))
        elif t == 'use' and o['ctx'] in ('store', 'del') and \
                o.get('bind') not in ('except', 'match'):
            facts.add((o['ctx'], o['line'], o['col'], o['name']))
        elif t == 'binding' and o['kind'] == 'param':
            facts.add(('param', o['line'], o['col'], o['name']))
        elif t == 'import':
            for n in o['names']:
                if 'from' in o['flags']:
                    facts.add(('import', o['line'], o['level'], o['module'], n['name'], n['as']))
                else:
                    facts.add(('import', o['line'], 0, '', n['name'], n['as']))
    return facts

def main():
    npuify, files = sys.argv[1], sys.argv[2:]
    passed = failed = skipped = 0
    for f in files:
        ref = ref_facts(f)
        if ref is None:
            skipped += 1
            continue
        ours = our_facts(npuify, f)
        if isinstance(ours, str):
            print('FAIL %s: %s' % (f, ours)); failed += 1; continue
        missing, extra = ref - ours, ours - ref
        if missing or extra:
            failed += 1
            print('FAIL %s: missing %s extra %s' % (f, sorted(missing, key=str)[:4], sorted(extra, key=str)[:4]))
        else:
            passed += 1
    print('(%d files not parseable by CPython skipped)' % skipped)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0

sys.exit(main())
PYEOF

# 1. agreement with ast (the script prints its own N passed, N failed)
[ -s "$TMP/files" ] || fail "no Python files found under the corpus paths"
if [ -s "$TMP/files" ]; then
    xargs "$PY" "$TMP/xref.py" "$NPUIFY" <"$TMP/files" >"$TMP/xref.out" 2>&1
    grep '^FAIL' "$TMP/xref.out" | head -n 20
    if ! grep -q '^[0-9]* passed, [0-9]* failed$' "$TMP/xref.out"; then
        fail "the ast cross-check did not finish:"
        tail -n 5 "$TMP/xref.out"
    fi
    add_counts "$(grep '^[0-9]* passed, [0-9]* failed$' "$TMP/xref.out" | tail -n 1)"
fi

# 2. broken variants (and very deep nesting) never crash
"$PY" - "$TMP" <<'PYEOF'
import sys
d = sys.argv[1]
def put(name, text):
    with open('%s/%s.py' % (d, name), 'w') as f:
        f.write(text)
put('deep', 'x = ' + '(' * 20000 + ')' * 20000 + '\n' + 'y = ' + 'f(' * 5000
    + '\n' + ''.join(' ' * i + 'def f%d():\n' % i for i in range(300))
    + ' ' * 300 + 'pass\n')
# inputs that would be quadratic (or flood diagnostics) if done naively
put('unclosed', 'x = ' + '(' * 100000 + '\n')
put('mismatch', 'x = ' + '[' * 50000 + ')' * 50000 + '\n')
put('chain', ' = '.join('a%d' % i for i in range(20000)) + ' = 1\n')
put('withs', 'with ' + ', '.join('open(f) as h%d' % i for i in range(20000))
    + ': pass\n')
put('comps', 'x = ' + '[' * 3000 + 'a' + ' for a in b]' * 3000 + '\n')
PYEOF
"$PY" - "$TMP/files" "$TMP/broken" <<'PYEOF'
import os, random, sys
files = [l.strip() for l in open(sys.argv[1]) if l.strip()][::5][:60]
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = random.Random(1234)
n = 0
for f in files:
    src = open(f, 'rb').read()
    if not src:
        continue
    variants = [src[:rng.randrange(len(src))]]
    for ch in b')]}':
        i = src.find(bytes([ch]), rng.randrange(len(src)))
        if i >= 0:
            variants.append(src[:i] + src[i + 1:])
    i = rng.randrange(len(src))
    variants.append(src[:i] + b'(' + src[i:])
    variants.append(src[:i] + bytes(rng.randrange(256) for _ in range(16)) + src[i:])
    variants.append(src.replace(b'    ', b'\t', 3))
    for v in variants:
        with open(os.path.join(out, 'v%04d.py' % n), 'wb') as g:
            g.write(v)
        n += 1
PYEOF
LIMIT=""
command -v timeout >/dev/null 2>&1 && LIMIT="timeout 30"
for f in "$TMP"/broken/*.py "$TMP"/deep.py "$TMP"/unclosed.py \
    "$TMP"/mismatch.py "$TMP"/chain.py "$TMP"/withs.py "$TMP"/comps.py; do
    [ -e "$f" ] || continue
    $LIMIT "$NPUIFY" syntax --quiet "$f" >"$TMP/out" 2>/dev/null
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
        fail "exit $rc on broken input $(basename "$f")"
    elif ! tail -n 1 "$TMP/out" | grep -q '"type": "summary"'; then
        fail "no summary line for broken input $(basename "$f")"
    else
        ok
    fi
done

# 3. the JSON lines
printf 'import torch as th\nif __name__ == "__main__":\n    th.cuda.set_device(0, dev="cuda")\n' \
    >"$TMP/small.py"
"$NPUIFY" syntax "$TMP/small.py" >"$TMP/small.out" 2>&1
for want in \
    '"type": "import", "stmt": 0, "line": 1, "level": 0, "module": "", "flags": [], "names": [{"name": "torch", "as": "th", "bound": "th", "target": "torch"}]' \
    '"kind": "if", "line": 2, "col": 0, "parent": -1, "body_end": 3, "depth": 0, "scope": 0, "flags": ["compound", "main_guard"]' \
    '"callee": "th.cuda.set_device", "dotted": "th.cuda.set_device", "attr": "set_device"' \
    '"args": [{"kind": "pos", "value": "0"}, {"kind": "kw", "name": "dev", "value": "\"cuda\""}]' \
    '"ctx": "arg", "text": "\"cuda\"", "call": 0, "arg": 1, "prev": "=", "next": ")"' \
    '"main_guard": 1, "errors": 0}'; do
    if grep -qF "$want" "$TMP/small.out"; then ok; else fail "missing: $want"; fi
done

finish
