#!/usr/bin/python3
"""Classify every operator of a PyTorch native_functions.yaml by the kind of
kernel it has, following torchgen's rules (torchgen/model.py,
NativeFunction.from_yaml, torch 1.13):

  implicit  CompositeImplicitAutograd: the dispatch table names that key, or
            there is no dispatch table and the op is neither structured nor
            a structured_delegate (torchgen adds the key itself then). Such
            ops decompose into other ops; no backend needs a kernel.
  explicit  CompositeExplicitAutograd(NonFunctional): one kernel serves every
            backend, also ops generated through `autogen:` (torchgen gives
            them generated CompositeExplicitAutograd kernels).
  backend   anything else: per-backend kernels (or a structured delegate).

The same rules hold for the 2.x files (checked on 2.2.2 to 2.9.1):
new keys such as CompositeImplicitAutogradNestedTensor do not make an op
implicit by themselves (torchgen tests for CompositeImplicitAutograd).

Output: a '#' header naming the source, then "name<TAB>kind" lines sorted by
name in byte order (deterministic). Usage:
  extract_native_functions.py YAML LABEL SOURCE-DESCRIPTION > OUT.tsv
Run with Debian's /usr/bin/python3 (needs python3-yaml).
"""
import hashlib
import sys

import yaml

COMPOSITE_EXPLICIT = {"CompositeExplicitAutograd",
                      "CompositeExplicitAutogradNonFunctional"}


def op_name(func):
    return func.split("(", 1)[0].strip()


def dispatch_keys(raw):
    keys = set()
    for ks in raw:
        if ks == "__line__":
            continue
        for k in str(ks).split(","):
            keys.add(k.strip())
    return keys


def classify(entry):
    raw = entry.get("dispatch")
    if raw is not None:
        keys = dispatch_keys(raw)
        if "CompositeImplicitAutograd" in keys:
            return "implicit"
        if keys & COMPOSITE_EXPLICIT:
            return "explicit"
        return "backend"
    if not entry.get("structured", False) and \
            entry.get("structured_delegate") is None:
        return "implicit"
    return "backend"


def main():
    path, label, source = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(path, "rb") as f:
        data = f.read()
    entries = yaml.load(data, Loader=yaml.CSafeLoader)
    kinds = {}
    for e in entries:
        if not isinstance(e, dict) or "func" not in e:
            continue
        kinds[op_name(e["func"])] = classify(e)
        autogen = e.get("autogen", "")
        for name in (x.strip() for x in str(autogen).split(",")):
            if name:
                kinds.setdefault(name, "explicit")
    counts = {}
    for k in kinds.values():
        counts[k] = counts.get(k, 0) + 1
    out = sys.stdout
    out.write("# PyTorch %s aten operators (overload-qualified) classified by "
              "kernel kind: implicit = CompositeImplicitAutograd (decomposes, "
              "no backend kernel needed), explicit = CompositeExplicitAutograd"
              "[NonFunctional] or autogen, backend = per-backend kernels.\n"
              % label)
    out.write("# Source: %s (sha256 %s)\n"
              % (source, hashlib.sha256(data).hexdigest()))
    out.write("# Produced by tools/extract_native_functions.py (torchgen 1.13 "
              "rules); counts: %s\n"
              % ", ".join("%s=%d" % kv for kv in sorted(counts.items())))
    out.write("# columns: op<TAB>kind\n")
    for name in sorted(kinds, key=lambda s: s.encode()):
        out.write("%s\t%s\n" % (name, kinds[name]))


if __name__ == "__main__":
    main()
