# npuify ops --capture: profiler switched on from outside the user's script.
#
# npuify writes this file into a private temporary directory and puts that
# directory first on PYTHONPATH, so Python imports it at start-up (the site
# module imports "sitecustomize"). It then
#   1. runs the sitecustomize it shadows (Debian's, a virtualenv's ...), so
#      the existing chain keeps working;
#   2. in the process npuify started (NPUIFY_CAPTURE_PID), or in every
#      process when NPUIFY_CAPTURE_ALL=1 (torchrun workers), waits for the
#      script's own "import torch" (a one-shot meta-path hook, so nothing
#      changes before it and processes without torch pay nothing), then
#      starts the profiler with record_shapes=True and with_stack=True
#      (each op's Python frames, so ops are joined to the user's source
#      lines): torch.profiler where
#      kineto exists, else the autograd profiler (Debian's torch 1.13 has no
#      kineto);
#   3. at exit (atexit, so after the script's own handlers) stops it and
#      writes into NPUIFY_CAPTURE_DIR:
#        npuify_trace[_PID].json  kineto-style {"traceEvents": [...]} with
#            "Input Dims" and "Call stack" (frames joined by ";") per op
#            (the legacy exporter drops shapes) and one
#            ProfilerStep#N window per training step, cut at the end of each
#            optimizer step ("Optimizer.step#..." events), N from 0;
#        npuify_key_averages[_PID].txt  key_averages(group_by_input_shape)
#            table, row_limit=-1;
#        npuify_kineto_trace[_PID].json  the profiler's own chrome trace,
#            only where kineto exists.
# NPUIFY_CAPTURE_EVERY=N keeps only every N-th step's events in the trace
# (steps 0, N, 2N, ...) to keep long runs small; 0 or unset keeps all.
# Nothing is written if the process dies by a signal or calls os._exit.
import os
import sys


def _npuify_chain():
    """Import the sitecustomize module this file shadows, if any."""
    here = os.path.dirname(os.path.abspath(__file__))
    me = sys.modules.get("sitecustomize")
    saved = list(sys.path)
    try:
        sys.path[:] = [p for p in sys.path
                       if os.path.abspath(p or ".") != here]
        del sys.modules["sitecustomize"]
        import importlib
        try:
            importlib.import_module("sitecustomize")
        except ImportError:
            pass
        except Exception as exc:  # the original failing must not stop us
            sys.stderr.write("npuify capture: original sitecustomize "
                             "failed: %r\n" % (exc,))
    finally:
        sys.path[:] = saved
        if me is not None:
            sys.modules["sitecustomize"] = me


def _npuify_wanted():
    if os.environ.get("NPUIFY_CAPTURE_ALL") == "1":
        return True
    return os.environ.get("NPUIFY_CAPTURE_PID") == str(os.getpid())


def _npuify_suffix():
    if os.environ.get("NPUIFY_CAPTURE_PID") == str(os.getpid()):
        return ""
    return "_%d" % os.getpid()


def _npuify_steps(events, every):
    """ProfilerStep windows from the ends of optimizer steps."""
    ends = sorted(e["ts"] + e["dur"] for e in events
                  if e["name"].startswith("Optimizer.step#"))
    if not ends:
        return [], events
    main_tid = None
    for e in events:
        if e["name"].startswith("Optimizer.step#"):
            main_tid = e["tid"]
            break
    start = min(e["ts"] for e in events)
    windows = []
    for n, end in enumerate(ends):
        windows.append((n, start, end))
        start = end
    if every > 1:
        keep = [(s, e) for n, s, e in windows if n % every == 0]
        events = [e for e in events
                  if any(s <= e["ts"] < t for s, t in keep)]
        windows = [w for w in windows if w[0] % every == 0]
    pid = events[0]["pid"] if events else os.getpid()
    marks = [{"ph": "X", "cat": "user_annotation",
              "name": "ProfilerStep#%d" % n, "pid": pid, "tid": main_tid,
              "ts": s, "dur": e - s, "args": {}} for n, s, e in windows]
    return marks, events


def _npuify_events(fevents):
    out = []
    pid = os.getpid()
    for ev in fevents:
        dev = getattr(ev, "device_type", None)
        if dev is not None and "CPU" not in str(dev):
            continue
        name = getattr(ev, "trace_name", None) or ev.name
        args = {}
        shapes = getattr(ev, "input_shapes", None)
        if shapes is not None:
            args["Input Dims"] = [list(s) if isinstance(s, (list, tuple))
                                  else s for s in shapes]
        stack = getattr(ev, "stack", None)
        if stack:  # with_stack: "file(line): function" frames, innermost first
            args["Call stack"] = ";".join(stack)
        out.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": pid,
                    "tid": ev.thread, "ts": ev.time_range.start,
                    "dur": ev.time_range.end - ev.time_range.start,
                    "args": args})
    out.sort(key=lambda e: (e["ts"], -e["dur"]))
    return out


def _npuify_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def _npuify_finish(prof, kineto, outdir):
    import json
    prof.__exit__(None, None, None)
    fevents = prof.events() if kineto else prof.function_events
    suffix = _npuify_suffix()
    every = int(os.environ.get("NPUIFY_CAPTURE_EVERY", "0") or 0)
    events = _npuify_events(fevents or [])
    marks, events = _npuify_steps(events, every)
    events = marks + events
    events.sort(key=lambda e: (e["ts"], -e["dur"]))
    doc = {"schemaVersion": 1, "npuifyCapture": 1, "traceEvents": events}
    rank = os.environ.get("RANK")
    if rank is not None and rank.isdigit():
        doc["distributedInfo"] = {"rank": int(rank)}
    _npuify_write(os.path.join(outdir, "npuify_trace%s.json" % suffix),
                  json.dumps(doc))
    table = prof.key_averages(group_by_input_shape=True).table(
        sort_by="self_cpu_time_total", row_limit=-1)
    _npuify_write(os.path.join(outdir, "npuify_key_averages%s.txt" % suffix),
                  table + "\n")
    if kineto:
        prof.export_chrome_trace(
            os.path.join(outdir, "npuify_kineto_trace%s.json" % suffix))


def _npuify_begin(torch, outdir):
    kineto = bool(getattr(torch.autograd, "kineto_available", lambda: 0)())
    if kineto:
        acts = [torch.profiler.ProfilerActivity.CPU]
        if torch.cuda.is_available():
            acts.append(torch.profiler.ProfilerActivity.CUDA)
        prof = torch.profiler.profile(activities=acts, record_shapes=True,
                                      with_stack=True)
    else:
        prof = torch.autograd.profiler.profile(record_shapes=True,
                                               with_stack=True)
    prof.__enter__()

    def finish():
        try:
            _npuify_finish(prof, kineto, outdir)
        except Exception as exc:
            sys.stderr.write("npuify capture: could not write the trace: "
                             "%r\n" % (exc,))
    import atexit
    atexit.register(finish)


class _NpuifyTorchHook(object):
    """Meta-path finder that starts the profiler right after the script's
    own "import torch" has run torch/__init__.py, so nothing changes before
    that (environment variables read at import, start-up time of processes
    that never use torch)."""

    def __init__(self, outdir):
        self.outdir = outdir

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        sys.meta_path.remove(self)  # one shot
        import importlib.util
        spec = importlib.util.find_spec("torch")
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module
        outdir = self.outdir

        def exec_module(module):
            run(module)
            try:
                _npuify_begin(module, outdir)
            except Exception as exc:
                sys.stderr.write("npuify capture: cannot start the "
                                 "profiler: %r\n" % (exc,))
        loader.exec_module = exec_module
        return spec

    def find_module(self, name, path=None):  # Python < 3.4 protocol
        return None


def _npuify_start():
    outdir = os.environ.get("NPUIFY_CAPTURE_DIR")
    if not outdir or not _npuify_wanted():
        return
    if "torch" in sys.modules:  # the chained sitecustomize imported it
        _npuify_begin(sys.modules["torch"], outdir)
    else:
        sys.meta_path.insert(0, _NpuifyTorchHook(outdir))


_npuify_chain()
_npuify_start()
