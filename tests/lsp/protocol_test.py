"""Protocol tests of `npuify lsp` over stdio: prints 'ok'/'FAIL' lines and
the closing 'N passed, N failed' line. Usage: protocol_test.py NPUIFY TMPDIR"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from lspclient import Client, apply_edits  # noqa: E402

NPUIFY, TMP = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what)


GPU = """import torch
import torch.nn as nn

model = nn.Linear(4, 2).cuda()
x = torch.randn(3, 4, device='cuda')
torch.cuda.synchronize()
print(torch.cuda.get_device_name(0))
"""

root = os.path.join(TMP, "proj")
os.makedirs(root, exist_ok=True)
path = os.path.join(root, "train.py")
with open(path, "w") as f:
    f.write(GPU)
URI = "file://" + path


def start(project=root, args=()):
    c = Client([NPUIFY, "lsp", "--debounce", "0",
                "--explain-dir", os.path.join(TMP, "explain")] + list(args))
    r = c.request("initialize", {"processId": None,
                                 "rootUri": "file://" + project,
                                 "capabilities": {}})
    c.notify("initialized", {})
    return c, r


def open_doc(c, uri, text, version=1):
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": version,
        "text": text}})


# --- initialize, diagnostics, code actions, hover, shutdown/exit ---
c, r = start()
caps = (r or {}).get("result", {}).get("capabilities", {})
check(caps.get("textDocumentSync", {}).get("change") == 2 and
      caps.get("hoverProvider") and caps.get("codeActionProvider"),
      "initialize: incremental sync, hover, code actions")
open_doc(c, URI, GPU)
diags = c.diagnostics(URI, 1) or []
codes = sorted(d["code"] for d in diags)
check("NPU101" in codes and "NPU103" in codes and codes.count("NPU201") == 2,
      "didOpen: .cuda(), 'cuda' and torch.cuda.* diagnosed (%s)" % codes)
d101 = [d for d in diags if d["code"] == "NPU101"]
check(d101 and d101[0]["range"] == {"start": {"line": 3, "character": 24},
                                    "end": {"line": 3, "character": 28}},
      "diagnostic range is the edit's span, 0-based LSP position")
href = d101[0].get("codeDescription", {}).get("href", "") if d101 else ""
check(href.startswith("file://") and os.path.exists(href[7:]) and
      "NPU101" in open(href[7:]).read(),
      "codeDescription links to the rule's explanation")

ca = c.request("textDocument/codeAction", {
    "textDocument": {"uri": URI},
    "range": {"start": {"line": 3, "character": 26},
              "end": {"line": 3, "character": 26}},
    "context": {"diagnostics": d101}})
acts = (ca or {}).get("result", [])
fix = [a for a in acts if a.get("kind") == "quickfix" and "edit" in a]
check(len(fix) == 1 and fix[0].get("isPreferred") is True,
      "codeAction: one preferred quick fix at .cuda()")
if fix:
    edits = fix[0]["edit"]["changes"][URI]
    after = apply_edits(GPU, edits)
    check(".npu()" in after and "import torch_npu" in after and
          after.count("'cuda'") == 1,
          "quick fix rewrites .cuda() and brings the torch_npu import along")
allfix = [a for a in acts if a.get("kind") == "source.fixAll.npuify"]
check(len(allfix) == 1, "codeAction: 'fix all safe edits in this file'")
if allfix:
    fixed = apply_edits(GPU, allfix[0]["edit"]["changes"][URI])
    out = subprocess.run([NPUIFY, "convert", "--diff", path],
                         capture_output=True, text=True)
    conv_dir = os.path.join(TMP, "conv")
    subprocess.run([NPUIFY, "convert", "-q", "--force", root, "-o", conv_dir],
                   capture_output=True)
    want = open(os.path.join(conv_dir, "train.py")).read()
    check(fixed == want, "fix-all gives exactly convert's output")

only = c.request("textDocument/codeAction", {
    "textDocument": {"uri": URI},
    "range": {"start": {"line": 0, "character": 0},
              "end": {"line": 9, "character": 0}},
    "context": {"diagnostics": [], "only": ["source.fixAll"]}})
check([a["kind"] for a in (only or {}).get("result", [])] ==
      ["source.fixAll.npuify"], "context.only filters the action kinds")

hv = c.request("textDocument/hover", {"textDocument": {"uri": URI},
                                      "position": {"line": 5,
                                                   "character": 12}})
val = ((hv or {}).get("result") or {}).get("contents", {}).get("value", "")
check("torch.cuda.synchronize" in val and "supported" in val,
      "hover on torch.cuda.synchronize: the db answer (%r)" % val[:60])
hv2 = c.request("textDocument/hover", {"textDocument": {"uri": URI},
                                       "position": {"line": 3,
                                                    "character": 11}})
val2 = ((hv2 or {}).get("result") or {}).get("contents", {}).get("value", "")
check("torch.nn.Linear" in val2, "hover resolves 'nn' through 'import "
      "torch.nn as nn' (%r)" % val2[:50])

# incremental change: a new .cuda() call typed on a new line
c.notify("textDocument/didChange", {
    "textDocument": {"uri": URI, "version": 2},
    "contentChanges": [{"range": {"start": {"line": 7, "character": 0},
                                  "end": {"line": 7, "character": 0}},
                        "text": "y = x.cuda()\n"}]})
diags2 = c.diagnostics(URI, 2) or []
check(any(d["code"] == "NPU101" and d["range"]["start"]["line"] == 7
          for d in diags2), "incremental change: the typed .cuda() is "
      "diagnosed at its line")
# a burst of changes: diagnostics reflect the last one
for i in range(3, 8):
    c.notify("textDocument/didChange", {
        "textDocument": {"uri": URI, "version": i},
        "contentChanges": [{"text": GPU + "z%d = 1\n" % i}]})
last = c.diagnostics(URI, 7)
check(last is not None, "a burst of full changes ends with the last "
      "version's diagnostics")

unknown = c.request("textDocument/definition", {
    "textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}})
check((unknown or {}).get("error", {}).get("code") == -32601,
      "unknown request: MethodNotFound")
c.notify("$/someNotification", {})
c.notify("workspace/didChangeConfiguration", {"settings": {}})
c.send_raw(b"Content-Length: 9\r\n\r\n{not json")
bad = c.wait(lambda m: m.get("error", {}).get("code") == -32700, 5)
check(bad is not None and bad.get("id") is None,
      "malformed JSON: ParseError with id null")
c.send_raw(b"X-Nothing: 1\r\n\r\n")
bad2 = c.wait(lambda m: m.get("error", {}).get("code") == -32700, 5)
check(bad2 is not None, "a header without Content-Length: ParseError")
again = c.request("textDocument/hover", {"textDocument": {"uri": URI},
                                         "position": {"line": 0,
                                                      "character": 8}})
check(again is not None and "result" in again,
      "the server goes on after malformed input")
c.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
cleared = c.wait(lambda m: m.get("method") ==
                 "textDocument/publishDiagnostics" and
                 m["params"]["uri"] == URI and
                 "version" not in m["params"], 10)
check(cleared is not None and cleared["params"]["diagnostics"] == [],
      "didClose clears the file's diagnostics")
sd = c.request("shutdown", None)
check(sd is not None and sd.get("result", 1) is None, "shutdown: null")
after_sd = c.request("textDocument/hover", {"textDocument": {"uri": URI},
                                            "position": {"line": 0,
                                                         "character": 0}})
check((after_sd or {}).get("error", {}).get("code") == -32600,
      "requests after shutdown: InvalidRequest")
c.notify("exit", None)
check(c.close() == 0, "exit after shutdown: exit code 0")

# --- order: exit without shutdown, requests before initialize ---
c = Client([NPUIFY, "lsp"])
early = c.request("textDocument/hover", {})
check((early or {}).get("error", {}).get("code") == -32002,
      "a request before initialize: ServerNotInitialized")
c.notify("exit", None)
check(c.close() == 1, "exit without shutdown: exit code 1")

# --- the client disconnects mid-session ---
c, _ = start()
open_doc(c, URI, GPU)
c.diagnostics(URI, 1)
t0 = time.monotonic()
rc = c.close(5)
check(rc == 1 and time.monotonic() - t0 < 5,
      "client disconnect: the server ends at once (exit 1)")

# --- broken files: syntax errors, bad bytes, huge lines ---
c, _ = start()
broken = "import torch\nx = torch.zeros(3).cuda(\ny = 'unterminated\n"
buri = "file://" + os.path.join(root, "broken.py")
open_doc(c, buri, broken)
bd = c.diagnostics(buri, 1)
check(bd is not None and any(d["severity"] == 1 for d in bd),
      "a file with syntax errors: an error diagnostic, no crash (%s)" %
      [d["code"] for d in bd or []])
weird = "import torch\ns = '\U0001F600'; t = torch.ones(1).cuda()\n"
wuri = "file://" + os.path.join(root, "emoji.py")
open_doc(c, wuri, weird)
wd = c.diagnostics(wuri, 1) or []
w101 = [d for d in wd if d["code"] == "NPU101"]
# 'cuda' is code point 27 of the line; the emoji takes two UTF-16 units
check(w101 and w101[0]["range"]["start"]["character"] == 28,
      "columns after an astral character count UTF-16 units")
c.notify("textDocument/didChange", {
    "textDocument": {"uri": wuri, "version": 2},
    "contentChanges": [{"range": {"start": {"line": 99, "character": 5},
                                  "end": {"line": 0, "character": 0}},
                        "text": "x"}]})
c.notify("textDocument/didChange", {"textDocument": {"uri": wuri},
                                    "contentChanges": [{"range": 5}]})
alive = c.request("shutdown", None)
check(alive is not None and "result" in alive,
      "reversed and malformed change ranges do not crash the server")
c.notify("exit", None)
check(c.close() == 0, "clean exit after bad changes")

# --- project settings: npuify.toml ---
p2 = os.path.join(TMP, "proj2")
os.makedirs(p2, exist_ok=True)
with open(os.path.join(p2, "npuify.toml"), "w") as f:
    f.write('torch-version = "2.1"\nunsafe = true\ncolour = "x"\n')
c, r = start(p2)
msg = c.wait(lambda m: m.get("method") == "window/showMessage", 5)
check(msg is not None and "unknown key 'colour'" in msg["params"]["message"]
      and "npuify.toml:3:1" in msg["params"]["message"],
      "npuify.toml: an unknown key is reported at file:line:col")
open_doc(c, "file://" + os.path.join(p2, "t.py"), "import torch\n"
         "torch.cuda.synchronize()\n")
c.diagnostics("file://" + os.path.join(p2, "t.py"), 1)
hv = c.request("textDocument/hover", {
    "textDocument": {"uri": "file://" + os.path.join(p2, "t.py")},
    "position": {"line": 1, "character": 14}})
val = ((hv or {}).get("result") or {}).get("contents", {}).get("value", "")
check("torch 2.1" in val, "torch-version from npuify.toml drives hover")
c.request("shutdown", None)
c.notify("exit", None)
c.close()

# --- notebooks (notebookDocument/*): the code cells are one module
c, r = start()
caps = (r or {}).get("result", {}).get("capabilities", {})
check(caps.get("notebookDocumentSync", {}).get("notebookSelector"),
      "initialize: notebookDocumentSync announced")
nb = "file://" + os.path.join(root, "nb.ipynb")
cells = [nb + "#c0", nb + "#c1", nb + "#c2"]
c.notify("notebookDocument/didOpen", {
    "notebookDocument": {"uri": nb, "notebookType": "jupyter-notebook",
                         "version": 1,
                         "cells": [{"kind": 1, "document": cells[0]},
                                   {"kind": 2, "document": cells[1]},
                                   {"kind": 2, "document": cells[2]}]},
    "cellTextDocuments": [
        {"uri": cells[0], "languageId": "markdown", "version": 1,
         "text": "# Train on `cuda`\n"},
        {"uri": cells[1], "languageId": "python", "version": 1,
         "text": "import torch\n!nvidia-smi\n"},
        {"uri": cells[2], "languageId": "python", "version": 1,
         "text": "x = torch.zeros(1).cuda()\n"}]})
d2 = c.diagnostics(cells[2]) or []
d1 = c.diagnostics(cells[1]) or []
check(any(d["code"] == "NPU101" and d["range"]["start"]["line"] == 0
          for d in d2), "notebook: a cell's .cuda() at the cell's own line "
      "(%s)" % [(d["code"], d["range"]["start"]) for d in d2])
check(any(d["code"] == "NPU001" for d in d1) and
      not any(d["severity"] == 1 for d in d1),
      "notebook: the import goes to the cell that imports torch; "
      "'!nvidia-smi' is no syntax error (%s)" % [d["code"] for d in d1])
ca = c.request("textDocument/codeAction", {
    "textDocument": {"uri": cells[2]},
    "range": {"start": {"line": 0, "character": 20},
              "end": {"line": 0, "character": 20}},
    "context": {"diagnostics": []}})
fix = [a for a in (ca or {}).get("result", []) if a.get("kind") == "quickfix"
       and "edit" in a]
ch = fix[0]["edit"]["changes"] if fix else {}
check(set(ch) == {cells[1], cells[2]} and
      apply_edits("import torch\n!nvidia-smi\n", ch[cells[1]]).count(
          "import torch_npu") == 1,
      "notebook quick fix: the cell's edit and the import in the cell "
      "that imports torch")
c.notify("notebookDocument/didChange", {
    "notebookDocument": {"uri": nb, "version": 2},
    "change": {"cells": {"textContent": [{
        "document": {"uri": cells[2], "version": 2},
        "changes": [{"range": {"start": {"line": 1, "character": 0},
                               "end": {"line": 1, "character": 0}},
                     "text": "torch.cuda.synchronize()\n"}]}]}}})
d2 = c.diagnostics(cells[2], 2) or []
check(any(d["code"] == "NPU201" and d["range"]["start"]["line"] == 1
          for d in d2), "notebook: text typed in a cell is diagnosed there")
c.notify("notebookDocument/didChange", {
    "notebookDocument": {"uri": nb, "version": 3},
    "change": {"cells": {"structure": {
        "array": {"start": 3, "deleteCount": 0,
                  "cells": [{"kind": 2, "document": nb + "#c3"}]},
        "didOpen": [{"uri": nb + "#c3", "languageId": "python",
                     "version": 1, "text": "y = x.cuda()\n"}]}}}})
d3 = c.diagnostics(nb + "#c3", 1) or []
check(any(d["code"] == "NPU101" for d in d3),
      "notebook: a cell added to the notebook is diagnosed")
c.notify("notebookDocument/didClose", {
    "notebookDocument": {"uri": nb},
    "cellTextDocuments": [{"uri": u} for u in cells + [nb + "#c3"]]})
gone = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
              and m["params"]["uri"] == nb + "#c3" and
              m["params"]["diagnostics"] == [], 10)
check(gone is not None, "notebook didClose clears its cells' diagnostics")
c.request("shutdown", None)
c.notify("exit", None)
check(c.close() == 0, "clean exit after a notebook session")

# --- value sets: the literals that must change together point at each other
c, _ = start()
vs = "import torch\nimpl = 'cuda'\nif impl == 'cuda':\n    pass\n"
vuri = "file://" + os.path.join(root, "vs.py")
open_doc(c, vuri, vs)
vd = [d for d in c.diagnostics(vuri, 1) or [] if d["code"] == "NPU103"]
rel = [r["location"]["range"]["start"]["line"]
       for d in vd for r in d.get("relatedInformation", [])]
check(len(vd) == 2 and sorted(rel) == [1, 2],
      "a value set's literals name each other as related locations")
c.request("shutdown", None)
c.notify("exit", None)
c.close()

with open(os.path.join(p2, "npuify.toml"), "w") as f:
    f.write('torch-version = "2.1\n')
c, r = start(p2)
msg = c.wait(lambda m: m.get("method") == "window/showMessage", 5)
check(msg is not None and "npuify.toml:1:" in msg["params"]["message"] and
      "unterminated" in msg["params"]["message"] and r and "result" in r,
      "a malformed npuify.toml is an error message; the server still runs")
c.request("shutdown", None)
c.notify("exit", None)
c.close()

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or not passed else 0)
