# npuify verify: installs npuify_verify's CUDA guard and step counters in
# the process npuify starts (and in every Python process it starts: torchrun
# workers), right after the script's own "import torch" (a one-shot
# meta-path hook, so nothing changes before it). The sitecustomize this
# file shadows (Debian's, a virtualenv's) still runs first.
import os
import sys


def _npuify_chain():
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
            sys.stderr.write("npuify verify: original sitecustomize "
                             "failed: %r\n" % (exc,))
    finally:
        sys.path[:] = saved
        if me is not None:
            sys.modules["sitecustomize"] = me


class _NpuifyTorchHook(object):
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

        def exec_module(module):
            run(module)
            import npuify_verify
            npuify_verify.install(module)
        loader.exec_module = exec_module
        return spec


_npuify_chain()
if os.environ.get("NPUIFY_VERIFY_OUT"):
    sys.meta_path.insert(0, _NpuifyTorchHook())
