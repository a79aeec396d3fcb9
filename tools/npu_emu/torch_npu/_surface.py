"""The public surface of real torch_npu, from npuify's shipped API lists.

torch.npu / torch_npu.npu and the torch_npu package expose exactly the names
real torch_npu has for the target version, no more: the emulator's helpers
(STATE, DEVICE_NAME, os, torch, ...) stay private, so a script that uses a
name real torch_npu lacks fails here as it would on an NPU. The lists are
npuify's own data (data/npu/, installed as share/npuify/npu/), read at run
time, so there is one source of truth:
  torch.npu   torch_npu_npu_module_v<V>.txt (torch_npu.npu.__all__) plus
              the torch_npu.npu.* names of torch_npu_apis.txt
  torch_npu   the first component of every torch_npu.* name of
              torch_npu_apis.txt plus npu_public_ops_v<V>.txt
`npuify verify` names the files (NPUIFY_EMU_NPU_MODULE, the torch.npu file
apidb chose for --torch-version; NPUIFY_EMU_TORCH_VERSION) and the data
directory (NPUIFY_EMU_DATA). Run by hand, the emulator finds the data next
to itself and uses the newest numbered torch.npu file.

A name in the lists that the emulator does not implement raises an
AttributeError saying it is real but not emulated; a name in no list raises
one saying real torch_npu does not have it. Both are reported to `npuify
verify` when user code asked for them.
"""
import os
import re
import types

_HERE = os.path.dirname(os.path.abspath(__file__))
# Submodules real torch_npu has though no API list names them alone.
_NPU_SUBMODULES = ("amp",)


def data_dir():
    env = os.environ.get("NPUIFY_EMU_DATA")
    candidates = [env] if env else []
    # source tree: tools/npu_emu/torch_npu -> data/npu; installed:
    # share/npuify/npu_emu/torch_npu -> share/npuify/npu
    candidates += [os.path.join(_HERE, "..", "..", "..", "data", "npu"),
                   os.path.join(_HERE, "..", "..", "npu")]
    for path in candidates:
        if path and os.path.isfile(os.path.join(path, "torch_npu_apis.txt")):
            return os.path.normpath(path)
    raise ImportError("torch_npu emulator: npuify's API lists not found "
                      "(set NPUIFY_EMU_DATA to share/npuify/npu)")


def _rows(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f
                if line.strip() and not line.startswith("#")]


def _version_key(name):
    m = re.match(r"torch_npu_npu_module_v(\d+)\.(\d+)\.txt$", name)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _npu_module_file(data):
    chosen = os.environ.get("NPUIFY_EMU_NPU_MODULE")
    if chosen:
        return chosen if os.path.isabs(chosen) else os.path.join(data, chosen)
    numbered = [n for n in os.listdir(data) if _version_key(n)]
    return os.path.join(data, max(numbered, key=_version_key))


def _version(module_file):
    env = os.environ.get("NPUIFY_EMU_TORCH_VERSION")
    if env:
        return env
    m = re.search(r"_v([0-9.]+|master)\.txt$", module_file)
    return m.group(1) if m else "master"


class Surface:
    """The allowed names of torch.npu and torch_npu for one version."""

    def __init__(self):
        data = data_dir()
        module_file = _npu_module_file(data)
        self.version = _version(module_file)
        apis = _rows(os.path.join(data, "torch_npu_apis.txt"))
        self.npu_all = set(_rows(module_file))  # torch_npu.npu.__all__
        self.npu = self.npu_all | set(_NPU_SUBMODULES)
        self.npu |= {a.split(".")[2] for a in apis
                     if a.startswith("torch_npu.npu.")}
        self.top = {a.split(".")[1] for a in apis
                    if a.startswith("torch_npu.")}
        self.apis = apis
        public = os.path.join(data, f"npu_public_ops_v{self.version}.txt")
        if os.path.isfile(public):
            self.top |= set(_rows(public))


    def under(self, module):
        """Names documented under torch_npu.<module>."""
        prefix = f"torch_npu.{module}."
        return {a[len(prefix):].split(".")[0] for a in self.apis
                if a.startswith(prefix)}


SURFACE = Surface()


def _report(kind, api):
    try:
        import npuify_verify
    except ImportError:
        return
    npuify_verify.report_attribute(kind, api)


class StrictModule(types.ModuleType):
    """A module whose public names are exactly _npuify_allowed."""

    def __getattribute__(self, name):
        if name.startswith("_"):
            return super().__getattribute__(name)
        allowed = super().__getattribute__("_npuify_allowed")
        label = super().__getattribute__("_npuify_label")
        if name not in allowed:
            _report("invented", f"{label}.{name}")
            raise AttributeError(
                f"module '{label}' has no attribute '{name}': torch_npu "
                f"{SURFACE.version} has no {label}.{name} (not in its API "
                f"lists)")
        try:
            return super().__getattribute__(name)
        except AttributeError:
            _report("not_emulated", f"{label}.{name}")
            raise AttributeError(
                f"{label}.{name} is real torch_npu {SURFACE.version} API but "
                f"npuify's NPU emulator does not emulate it") from None

    def __dir__(self):
        names = super().__dir__()
        allowed = super().__getattribute__("_npuify_allowed")
        return [n for n in names if n.startswith("_") or n in allowed]


def make_strict(module, label, allowed, exported=None):
    """Restrict module's public names to allowed; __all__ becomes the names
    of exported (default: allowed) it implements (transfer_to_npu copies
    torch.npu's)."""
    module._npuify_allowed = frozenset(allowed)
    module._npuify_label = label
    module.__all__ = sorted(n for n in (exported or allowed)
                            if n in vars(module) and not n.startswith("_"))
    module.__class__ = StrictModule
