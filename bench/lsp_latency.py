"""npuify lsp: time from a one-character change of a 20,000-line GPU script
to the publishDiagnostics of that version (debounce 0: the conversion and
the round trip), next to baselines in the same run: `convert --check` of
the same file as a process, and CPython's ast.parse of the same text.
    /usr/bin/python3 bench/lsp_latency.py NPUIFY [LINES] [CHANGES]"""
import ast
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests",
                                "lsp"))
from lspclient import Client  # noqa: E402

npuify = sys.argv[1]
lines = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
changes = int(sys.argv[3]) if len(sys.argv) > 3 else 30
# "real": the first LINES lines of Debian's torch.nn.modules and torch.cuda
# sources (a real density of findings) instead of the generated worst case
real = len(sys.argv) > 4 and sys.argv[4] == "real"

BLOCK = """
class Block{i}(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16).cuda()

    def forward(self, x):
        if torch.cuda.is_available():
            x = x.to('cuda', non_blocking=True)
        torch.cuda.synchronize()
        return torch.relu(self.fc(x))
"""
head = "import torch\nimport torch.nn as nn\n"
parts = [head]
n = 2
i = 0
while n < lines:
    b = BLOCK.format(i=i)
    parts.append(b)
    n += b.count("\n")
    i += 1
text = "".join(parts)
if real:
    import glob
    torch = "/usr/lib/python3/dist-packages/torch"
    src = []
    for f in (sorted(glob.glob(torch + "/nn/modules/*.py")) +
              sorted(glob.glob(torch + "/cuda/*.py"))):
        src += [ln for ln in open(f).read().split("\n")
                if not ln.startswith("from __future__")]
    text = "\n".join(src[:lines]) + "\n"
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "big.py")
with open(path, "w") as f:
    f.write(text)
uri = "file://" + path

c = Client([npuify, "lsp", "--debounce", "0", "--explain-dir",
            os.path.join(tmp, "ex")])
c.request("initialize", {"rootUri": "file://" + tmp, "capabilities": {}})
c.notify("initialized", {})
c.notify("textDocument/didOpen", {"textDocument": {
    "uri": uri, "languageId": "python", "version": 1, "text": text}})
first = c.diagnostics(uri, 1, 60)
ms = []
for v in range(2, changes + 2):
    t0 = time.perf_counter()
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": v},
        "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                      "end": {"line": 0, "character": 0}},
                            "text": "#" if v % 2 == 0 else ""}]})
    d = c.diagnostics(uri, v, 60)
    ms.append((time.perf_counter() - t0) * 1000)
    assert d is not None
c.request("shutdown", None)
c.notify("exit", None)
c.close()

proc = []
for _ in range(5):
    t0 = time.perf_counter()
    subprocess.run([npuify, "convert", "--check", "-q", path],
                   capture_output=True)
    proc.append((time.perf_counter() - t0) * 1000)
parse = []
for _ in range(5):
    t0 = time.perf_counter()
    ast.parse(text)
    parse.append((time.perf_counter() - t0) * 1000)

med = statistics.median(ms)
print("lsp (%s): %d lines, %.1f MB, %d diagnostics, %d changes" %
      ("torch sources" if real else "generated worst case", text.count("\n"),
       len(text) / 1e6, len(first or []), changes))
print("  change -> diagnostics   min %.1f  median %.1f  max %.1f ms" %
      (min(ms), med, max(ms)))
print("  convert --check (proc)  min %.1f ms   ratio lsp/convert %.2f" %
      (min(proc), med / min(proc)))
print("  ast.parse (CPython)     min %.1f ms   ratio lsp/ast.parse %.2f" %
      (min(parse), med / min(parse)))
