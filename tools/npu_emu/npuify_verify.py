"""npuify verify's in-process half: catch CUDA calls, count training steps.

Loaded by verify/sitecustomize.py once the script imports torch (and by the
emulator to report API names real torch_npu lacks). Settings come from
npuify verify through the environment:
  NPUIFY_VERIFY_OUT      file to which each event is appended as one JSON
                         line (one write each, O_APPEND: safe across
                         processes)
  NPUIFY_VERIFY_TREE     the converted copy (user code lives here)
  NPUIFY_VERIFY_PROJECT  the original project (locations are mapped back)
  NPUIFY_VERIFY_NPU_API  file listing torch.npu's names for the target
                         (which torch.cuda.X had an NPU rename)

Debian's torch has no CUDA, so any CUDA call fails anyway; here every
torch.cuda function and class, Tensor.cuda / Module.cuda / is_cuda, and
CUDA initialisation (any "cuda" device reaching a tensor) is checked: when
the caller is user code, the call is reported with the ORIGINAL file:line
and the rule that should have rewritten it, then raises. torch's own
internal uses of torch.cuda (is_available probes) are left alone.
"""
import atexit
import difflib
import functools
import inspect
import json
import os
import sys

_OUT = os.environ.get("NPUIFY_VERIFY_OUT")
_TREE = os.environ.get("NPUIFY_VERIFY_TREE", "")
_PROJECT = os.environ.get("NPUIFY_VERIFY_PROJECT", "")
_COUNTS = {"steps": 0, "backward": 0}


class CudaCallLeft(RuntimeError):
    """A CUDA call reached torch from the converted code."""


def _emit(record):
    if not _OUT:
        return
    record["pid"] = os.getpid()
    line = (json.dumps(record) + "\n").encode("utf-8")
    fd = os.open(_OUT, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def _is_user(filename):
    return bool(_TREE) and filename.startswith(_TREE + os.sep)


def _user_frame(depth):
    """The nearest frame of user code, depth frames above the caller."""
    frame = sys._getframe(depth + 1)
    while frame is not None and not _is_user(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def _lines(path):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read().splitlines()
    except OSError:
        return None


def original_location(filename, lineno):
    """Map a line of the converted copy to the original file's line: the
    same line where the conversion kept it, the line an inserted line
    precedes, the first line of a rewritten block."""
    if not _is_user(filename) or not _PROJECT:
        return filename, lineno
    orig = os.path.join(_PROJECT, filename[len(_TREE) + 1:])
    a, b = _lines(orig), _lines(filename)
    if a is None or b is None:
        return orig, lineno
    at = lineno - 1
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if j1 <= at < j2:
            if tag == "equal" or (i2 - i1 == j2 - j1):
                return orig, i1 + (at - j1) + 1
            return orig, min(i1, max(len(a) - 1, 0)) + 1
    return orig, lineno


def _event(kind, api, rule, frame):
    file, line = original_location(frame.f_code.co_filename, frame.f_lineno)
    _emit({"event": kind, "api": api, "rule": rule, "file": file,
           "line": line})
    return file, line


def report_attribute(kind, api):
    """The emulator found user code asking for a name real torch_npu lacks
    (kind "invented") or one it does not emulate ("not_emulated")."""
    frame = sys._getframe(3)  # the caller of the module's __getattribute__
    if not _is_user(frame.f_code.co_filename):
        return
    text = _lines(frame.f_code.co_filename) or []
    src = text[frame.f_lineno - 1] if frame.f_lineno <= len(text) else ""
    if "hasattr(" in src or "getattr(" in src:
        return  # a probe for the name, not a use of it
    _event(kind, api, "", frame)


def _npu_names():
    path = os.environ.get("NPUIFY_VERIFY_NPU_API", "")
    try:
        with open(path, encoding="utf-8") as f:
            return {l.strip() for l in f if l.strip() and l[0] != "#"}
    except OSError:
        return set()


_NPU_NAMES = _npu_names()


def _rule_for(api):
    """The rule of npuify's catalogue that handles a CUDA API."""
    parts = api.split(".")
    if api.startswith("torch.cuda.amp"):
        return "NPU401"
    if len(parts) > 2 and parts[2] == "nvtx":
        return "NPU208"
    if len(parts) > 2 and parts[2] in ("graph", "graphs", "CUDAGraph",
                                       "make_graphed_callables"):
        return "NPU210"
    if len(parts) > 2 and parts[2] == "jiterator":
        return "NPU209"
    if len(parts) > 2 and parts[2] in _NPU_NAMES:
        return "NPU201"
    return "NPU202"


def _fail(api, rule, frame):
    file, line = _event("cuda", api, rule, frame)
    raise CudaCallLeft(f"{file}:{line}: CUDA call left after migration: "
                       f"{api} (rule {rule})")


def _guard_function(fn, api):
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        caller = sys._getframe(1)
        if _is_user(caller.f_code.co_filename):
            _fail(api, _rule_for(api), caller)
        return fn(*args, **kwargs)
    guarded._npuify_guarded = True
    return guarded


def _guard_class(cls, api):
    init = cls.__init__

    def __init__(self, *args, **kwargs):
        caller = sys._getframe(1)
        if _is_user(caller.f_code.co_filename):
            _fail(api, _rule_for(api), caller)
        init(self, *args, **kwargs)
    try:
        return type(cls.__name__, (cls,), {"__init__": __init__,
                                           "__module__": cls.__module__,
                                           "_npuify_guarded": True})
    except TypeError:  # a final C type: leave it to fail by itself
        return cls


def _guard_module(module, prefix):
    for name, value in list(vars(module).items()):
        if name.startswith("_") or getattr(value, "_npuify_guarded", False):
            continue
        api = f"{prefix}.{name}"
        if inspect.isfunction(value):
            setattr(module, name, _guard_function(value, api))
        elif inspect.isclass(value) and value.__module__.startswith(prefix):
            setattr(module, name, _guard_class(value, api))


def _guard_lazy_init(torch):
    """Any CUDA device that reaches a tensor initialises CUDA first."""
    lazy = torch.cuda._lazy_init

    def _lazy_init():
        frame = _user_frame(1)
        if frame is not None:
            text = _lines(frame.f_code.co_filename) or []
            src = text[frame.f_lineno - 1] if frame.f_lineno <= len(text) \
                else ""
            rule = "NPU101" if ".cuda(" in src else "NPU103"
            _fail("CUDA device", rule, frame)
        return lazy()
    torch.cuda._lazy_init = _lazy_init


def _guard_methods(torch):
    for owner, name, api, rule in (
            (torch.Tensor, "cuda", "Tensor.cuda()", "NPU101"),
            (torch.nn.Module, "cuda", "Module.cuda()", "NPU101")):
        _guard_method(owner, name, api, rule)
    is_cuda = torch.Tensor.is_cuda

    def get_is_cuda(self):
        caller = sys._getframe(1)
        if _is_user(caller.f_code.co_filename):
            _fail("Tensor.is_cuda", "NPU102", caller)
        return is_cuda.__get__(self)
    torch.Tensor.is_cuda = property(get_is_cuda)


def _guard_method(owner, name, api, rule):
    method = getattr(owner, name)

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        caller = sys._getframe(1)
        if _is_user(caller.f_code.co_filename):
            _fail(api, rule, caller)
        return method(self, *args, **kwargs)
    setattr(owner, name, guarded)


def _count_steps(torch):
    """Backward calls (torch.autograd.backward, which Tensor.backward
    calls) and optimizer steps (each optimizer class's step, wrapped once;
    'hooked' keeps torch 1.13's profiler hook from wrapping it again)."""
    backward = torch.autograd.backward

    @functools.wraps(backward)
    def counted_backward(*args, **kwargs):
        _COUNTS["backward"] += 1
        return backward(*args, **kwargs)
    torch.autograd.backward = counted_backward
    init = torch.optim.Optimizer.__init__

    @functools.wraps(init)
    def optimizer_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        cls = type(self)
        if "_npuify_counted" in vars(cls):
            return
        step = cls.step

        @functools.wraps(step)
        def counted_step(*a, **k):
            _COUNTS["steps"] += 1
            return step(*a, **k)
        counted_step.hooked = True
        cls.step = counted_step
        cls._npuify_counted = True
    torch.optim.Optimizer.__init__ = optimizer_init


def _at_exit():
    _emit({"event": "exit", "steps": _COUNTS["steps"],
           "backward": _COUNTS["backward"]})


def install(torch):
    """Called right after the script's own `import torch` has run."""
    import torch.cuda.amp
    _guard_module(torch.cuda, "torch.cuda")
    _guard_module(torch.cuda.amp, "torch.cuda.amp")
    for sub in ("nvtx", "graphs", "jiterator"):
        mod = getattr(torch.cuda, sub, None)
        if mod is not None and inspect.ismodule(mod):
            _guard_module(mod, f"torch.cuda.{sub}")
    _guard_lazy_init(torch)
    _guard_methods(torch)
    _count_steps(torch)
    atexit.register(_at_exit)
