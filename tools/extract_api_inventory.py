#!/usr/bin/python3
"""Inventory of torch's public Python API, with the backend kernels each name
can reach, for npuify analyse's "device-neutral" verdict.

For every public name of every importable public torch module (and the
public members of its classes, one level) the row says what kind of thing
it is and which aten operators with per-backend kernels it may dispatch:

  module   a module (its members are judged, not the module)
  const    a value: float, memory format, qscheme, enum member, ...
  class    a class: the operators of its own methods and of its torch base
           classes' methods (torch.nn.Module's and torch.Tensor's own
           machinery excluded: every module and tensor shares it)
  op       a C binding of an aten operator (torch.lgamma -> lgamma)
  cfunc    a C function that is no aten operator (torch.set_num_threads)
  func     a Python function: the operators its code reaches

"Reaches" is read from the bytecode, transitively: a global (or an
attribute chain on one, torch.add, F.conv2d) that resolves to an aten
binding or to another torch function or class, and a method call on a
local whose name is a torch.Tensor method bound to an aten operator
(x.add_, y.index_select), except names that are also methods of Python's
own containers and strings (set.add, str.split, dict.copy...), which would
make almost every utility look like a kernel user. Only operators of kind
"backend" in native_functions (data/torch/native_functions_v1.13.tsv) are
kept: composite operators decompose and need no kernel of their own.

Columns: name<TAB>kind<TAB>backend operators reached (comma-separated, "-"
none). Usage (Debian's python3-torch):
  /usr/bin/python3 tools/extract_api_inventory.py NATIVE_TSV > OUT.tsv
"""
import builtins
import dis
import importlib
import inspect
import pkgutil
import sys
import types
import warnings

import importlib.abc
import importlib.machinery


class _Stub(types.ModuleType):
    """A module of an optional dependency that is not installed: every
    attribute is a stub class, so torch's module that imports it loads and
    its own code can be read (the dependency's code is not torch's)."""
    __version__ = "2.0.0"
    __path__ = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        stub = type(name, (), {"__init__": lambda *a, **k: None,
                               "__getattr__": lambda *a: None})
        setattr(self, name, stub)
        return stub


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    ROOTS = ("tensorboard", "google")

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in self.ROOTS:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        return _Stub(spec.name)

    def exec_module(self, module):
        pass


try:
    import tensorboard  # noqa: F401
    import google.protobuf  # noqa: F401
except ImportError:
    sys.meta_path.append(_StubFinder())

import torch

COMMON = set(dir(dict)) | set(dir(list)) | set(dir(set)) | set(dir(str)) | \
    set(dir(bytes)) | set(dir(tuple)) | set(dir(object)) | set(dir(int)) | \
    set(dir(float)) | {"add", "update", "split", "copy", "index", "sort"}
# torch.cuda is convert's (its CUDA rules and torch_npu's torch.npu list)
SKIP_PREFIX = ("torch.testing._internal", "torch.utils.benchmark.examples",
               "torch.contrib", "torch.cuda")


def read_kinds(path):
    kinds = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        op, kind = line.rstrip("\n").split("\t")
        base = op.split(".", 1)[0]
        # an op is backend when any overload of it is
        if kinds.get(base) != "backend":
            kinds[base] = kind
    return kinds


KINDS = read_kinds(sys.argv[1])

ATEN_MODULES = {}  # C binding's owner -> prefix of its aten name


def aten_owner_prefixes():
    c = torch._C
    for owner, prefix in ((getattr(c, "_VariableFunctions", None), ""),
                          (getattr(c, "_nn", None), ""),
                          (getattr(c, "_linalg", None), "linalg_"),
                          (getattr(c, "_fft", None), "fft_"),
                          (getattr(c, "_special", None), "special_"),
                          (getattr(c, "_sparse", None), ""),
                          (getattr(c, "_nested", None), "")):
        if owner is not None:
            ATEN_MODULES[id(owner)] = prefix


aten_owner_prefixes()
# Tensor methods bound to aten operators (C method descriptors)
TENSOR_OPS = {}
for n in dir(torch._C._TensorBase):
    if n.startswith("_") or n in COMMON:
        continue
    if n in KINDS:
        TENSOR_OPS[n] = n


def aten_of_builtin(obj):
    """The aten operator a C builtin binds, None when it is no operator."""
    owner = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", "")
    if owner is not None and id(owner) in ATEN_MODULES:
        op = ATEN_MODULES[id(owner)] + name
        if op in KINDS:
            return op
        if name in KINDS:
            return name
    if owner is torch._C and name in KINDS:
        return name
    vf = getattr(torch._C._VariableFunctions, name, None)
    if owner is None and name in KINDS and vf is obj:
        return name
    return None


def backend(ops):
    return {o for o in ops if KINDS.get(o) == "backend"}


MEMO = {}
ACTIVE = set()


def is_torch_obj(obj):
    mod = getattr(obj, "__module__", None) or ""
    return mod == "torch" or mod.startswith("torch.")


def code_objects(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from code_objects(c)


def ops_of_code(code, globs):
    ops = set()
    for co in code_objects(code):
        obj = None
        for ins in dis.get_instructions(co):
            op = ins.opname
            if op == "LOAD_GLOBAL":
                name = ins.argval
                obj = globs.get(name, getattr(builtins, name, None)) \
                    if isinstance(name, str) else None
                if obj is not None:
                    ops |= ops_of(obj)
                continue
            if op in ("LOAD_ATTR", "LOAD_METHOD"):
                method = op == "LOAD_METHOD"
                name = ins.argval
                if obj is not None:
                    try:
                        obj = getattr(obj, name)
                    except Exception:
                        obj = None
                    if obj is not None:
                        ops |= ops_of(obj)
                        continue
                if method and isinstance(name, str) and name in TENSOR_OPS:
                    ops.add(TENSOR_OPS[name])
                continue
            if op not in ("CACHE", "PRECALL", "EXTENDED_ARG"):
                obj = None
    return ops


def ops_of(obj):
    """Backend ops obj may reach (memoised; a cycle sees what is known)."""
    key = id(obj)
    if key in MEMO:
        return MEMO[key]
    if key in ACTIVE:
        return set()
    ACTIVE.add(key)
    try:
        out = compute_ops(obj)
    except Exception:
        out = set()
    ACTIVE.discard(key)
    MEMO[key] = out
    return out


SHARED_BASES = (torch.nn.Module, torch._C._TensorBase, torch.Tensor, object)


def compute_ops(obj):
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        op = aten_of_builtin(obj)
        return backend({op}) if op else set()
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, functools_partial):
        return ops_of(obj.func)
    if isinstance(obj, types.FunctionType):
        if not is_torch_obj(obj):
            return set()
        ops = ops_of_code(obj.__code__, obj.__globals__)
        for cell in obj.__closure__ or ():  # boolean_dispatch's branches
            try:
                ops |= ops_of(cell.cell_contents)
            except ValueError:
                pass
        return backend(ops)
    if isinstance(obj, property):
        out = set()
        for f in (obj.fget, obj.fset):
            if f is not None:
                out |= ops_of(f)
        return out
    if inspect.isclass(obj):
        if type(obj).__name__ == "tensortype":
            return set()  # torch.FloatTensor: a legacy CPU tensor type
        if not is_torch_obj(obj) or obj in SHARED_BASES:
            return set()
        out = set()
        for klass in obj.__mro__:
            if klass in SHARED_BASES or not is_torch_obj(klass):
                continue
            for v in list(vars(klass).values()):
                if isinstance(v, (types.FunctionType, staticmethod,
                                  classmethod, property)):
                    out |= ops_of(v)
        return out
    return set()


import functools  # noqa: E402
functools_partial = functools.partial


def kind_of(obj):
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        return "op" if aten_of_builtin(obj) else "cfunc"
    if isinstance(obj, (types.FunctionType, functools.partial, staticmethod,
                        classmethod, property)):
        return "func"
    if callable(obj):
        # method descriptors of C classes (torch.Tensor.add)
        name = getattr(obj, "__name__", "")
        return "op" if name in KINDS else "cfunc"
    return "const"


ROWS = {}
MEMBERS_DONE = set()


def add(name, obj):
    if name in ROWS:
        return
    kind = kind_of(obj)
    if kind == "module":
        ops = set()
    elif kind == "op" and not isinstance(obj, (types.BuiltinFunctionType,
                                               types.BuiltinMethodType)):
        ops = backend({obj.__name__})
    else:
        ops = ops_of(obj)
    ROWS[name] = (kind, ops)


def public(name):
    return not name.startswith("_")


def walk_modules():
    names = ["torch"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for info in pkgutil.walk_packages(torch.__path__, "torch.",
                                          onerror=lambda n: None):
            n = info.name
            if any(p.startswith("_") for p in n.split(".")[1:]):
                continue
            if n.startswith(SKIP_PREFIX):
                continue
            names.append(n)
    mods = {}
    for n in names:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                mods[n] = importlib.import_module(n)
        except BaseException as e:
            print("not importable: %s (%s)" % (n, type(e).__name__),
                  file=sys.stderr)
            continue
    return mods


def main():
    mods = walk_modules()
    for mname, mod in sorted(mods.items()):
        add(mname, mod)
        for n in sorted(dir(mod)):
            if not public(n):
                continue
            try:
                obj = getattr(mod, n)
            except Exception:
                continue
            if inspect.ismodule(obj) and not obj.__name__.startswith("torch"):
                continue  # `import math` inside a torch module
            q = mname + "." + n
            home = getattr(obj, "__module__", None)
            if (inspect.isclass(obj) or inspect.isfunction(obj)) and \
                    isinstance(home, str) and not home.startswith("torch"):
                continue  # `from typing import List` in a torch module
            add(q, obj)
            if inspect.isclass(obj) and id(obj) not in MEMBERS_DONE and \
                    type(obj).__name__ != "tensortype" and \
                    isinstance(home, str) and home.startswith("torch"):
                MEMBERS_DONE.add(id(obj))  # members at its first path only
                for m in sorted(dir(obj)):
                    if not public(m):
                        continue
                    try:
                        member = inspect.getattr_static(obj, m)
                    except Exception:
                        continue
                    add(q + "." + m, member)
    print("# PyTorch 1.13 public Python API inventory: every public name of "
          "every importable public torch module and of its classes, its "
          "kind, and the aten operators with per-backend kernels its code "
          "can reach (transitively, from the bytecode); used to tell "
          "device-neutral names from unknown ones.")
    print("# Source: Debian package python3-torch 1.13.1+dfsg-4 (PyTorch "
          "1.13.1), /usr/lib/python3/dist-packages/torch, imported by "
          "Debian's Python %d.%d; operator kinds from "
          "data/torch/native_functions_v1.13.tsv; tensorboard and protobuf "
          "(not installed) stubbed so torch.utils.tensorboard loads (its own "
          "code is not torch's and was not read)"
          % sys.version_info[:2])
    print("# Produced by tools/extract_api_inventory.py; kinds: module, "
          "const, class, op (aten binding), cfunc (C function, no aten "
          "operator), func (Python function); %d names" % len(ROWS))
    print("# columns: name<TAB>kind<TAB>backend aten operators reached "
          "(comma-separated, '-' none)")
    for name in sorted(ROWS, key=lambda s: s.encode()):
        kind, ops = ROWS[name]
        print("%s\t%s\t%s" % (name, kind, ",".join(sorted(ops)) or "-"))


main()
