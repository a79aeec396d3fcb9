#!/usr/bin/python3
"""Corpus properties of `npuify convert` (run with Debian's /usr/bin/python3).

usage: corpus_props.py SRC OUT OUT2 REPORT_JSON

Checks, for every .py file under SRC:
  1. parseable in  => parseable out (ast.parse of the converted file);
  2. idempotence: OUT2 (OUT converted again) equals OUT byte for byte;
  3. losslessness: a file that the report does not list as converted is
     byte-identical in OUT.
Non-Python files must be byte-identical in OUT as well.
Prints counts and the first failures, then "N passed, N failed".
"""
import ast
import json
import os
import sys
import warnings

warnings.simplefilter("ignore")


def files_under(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in (".git", "__pycache__"))
        for f in sorted(files):
            p = os.path.join(d, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            yield os.path.relpath(p, root)


def parses(data):
    try:
        ast.parse(data)
        return True
    except Exception:
        return False


def read(p):
    with open(p, "rb") as f:
        return f.read()


def main():
    src, out, out2, report = sys.argv[1:5]
    with open(report, encoding="utf-8") as f:
        rep = json.load(f)
    converted = {x["path"] for x in rep.get("files", [])
                 if x.get("status") == "converted"}
    stats = dict(py=0, parsed=0, converted=0, identical=0, other=0)
    failures = []
    for rel in files_under(src):
        a = read(os.path.join(src, rel))
        op = os.path.join(out, rel)
        if not os.path.exists(op):
            failures.append(f"missing in output: {rel}")
            continue
        b = read(op)
        if not rel.endswith(".py"):
            stats["other"] += 1
            if a != b and rel not in converted:
                failures.append(f"non-Python file changed: {rel}")
            continue
        stats["py"] += 1
        if rel in converted:
            stats["converted"] += 1
        elif a != b:
            failures.append(f"changed but not reported as converted: {rel}")
        else:
            stats["identical"] += 1
        if parses(a):
            stats["parsed"] += 1
            if a != b and not parses(b):
                failures.append(f"output no longer parses: {rel}")
        c = read(os.path.join(out2, rel)) if os.path.exists(
            os.path.join(out2, rel)) else None
        if c != b:
            failures.append(f"second conversion changed: {rel}")
    print("python files: {py}, parseable: {parsed}, converted: {converted}, "
          "byte-identical: {identical}, other files: {other}".format(**stats))
    for f in failures[:20]:
        print("FAIL", f)
    checks = stats["py"] + stats["other"]
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
