"""Run every rule's before/after example of a rule catalogue through
`npuify convert` (tests/check_rule_examples.sh; one fixture per rule).

Edit rules: the converted example equals `after` exactly, and the change
carries the rule's ID. Finding-only rules (kind flag): no `after`, and a
finding (or left-unchanged record) with the rule's ID on the example's
last top-level statement, header to end (file NA for project-level rules). Preview rules (`npuify rules` says so): --explain
says why, and converting the example gives nothing under the rule's ID.
The fixture is a Python file `ex.py`; a shell script `run.sh` when the
example is a command line; the example's path itself for `file` rules.
Assessment rules (NPU7xx) run through `npuify analyse`, whose report
has the same schema. A rule whose example needs a whole project (C++
sources next to the Python) names the golden project that fires it in
COVERED_BY; that project's expected findings must hold the rule.
Prints "ok"/"FAIL"/"xfail" per rule and the closing "N passed, N failed".
"""
import json
import os
import shutil
import subprocess
import sys

SHELL_STARTS = ("python ", "python3 ", "torchrun ", "export ", "#!/bin/")
# Rules whose example needs several files: the tests/analyse project whose
# expected findings show the rule firing.
COVERED_BY = {
    "NPU504": "tests/analyse/pybind_ext/expected/findings.txt",
    "NPU711": "tests/analyse/pybind_ext/expected/findings.txt",
    "NPU713": "tests/analyse/optional_ext/expected/findings.txt",
}
# Known engine defects, owned elsewhere; each is printed as xfail and
# removed when its fix is merged.
XFAIL = {}


def text(example):
    """An example as file content: exactly one final newline."""
    return example.rstrip("\n") + "\n"


def options_of(rule):
    """convert arguments that open the rule's gates."""
    args = []
    opts = (rule.get("option") or "").split(",")
    if "amp" in opts:
        args.append("--amp")
    if "auto" in opts:
        args += ["--mode", "auto"]
    if "distributed" in opts:
        args.append("--distributed")
    if rule.get("safety") == "unsafe":
        args.append("--unsafe")
    if rule.get("min_torch"):
        args += ["--torch-version", rule["min_torch"]]
    elif rule.get("max_torch"):
        args += ["--torch-version", rule["max_torch"]]
    return args


# Dockerfile instructions: the example is a Dockerfile line.
DOCKERFILE_STARTS = ("FROM ", "RUN ", "ENV ", "ARG ")


def fixture_name(rule):
    before = rule["before"]
    if rule["match"] == "file":
        return before.strip()
    if rule["pattern"] == "not-scanned":  # a notebook convert cannot read
        return "nb.ipynb"
    if rule["pattern"] == "dependency":  # a requirements file
        return "requirements.txt"
    if rule["pattern"] == "cpp-cuda":  # a CUDA source of an extension
        return "ext.cu"
    if rule["match"] == "line":  # its contexts say which file kind
        ctx = rule.get("ctx", [])
        if "dockerfile" in ctx and (before.startswith(DOCKERFILE_STARTS) or
                                    "shell" not in ctx):
            return "Dockerfile"
        return "run.sh"
    if before.startswith(SHELL_STARTS):
        return "run.sh"
    return "ex.py"


def convert(npuify, tmp, rule):
    shutil.rmtree(tmp, ignore_errors=True)
    name = fixture_name(rule)
    src = os.path.join(tmp, "in", name)
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with open(src, "w") as f:
        f.write("" if rule["match"] == "file" else text(rule["before"]))
    if rule["id"].startswith("NPU7"):  # assessment rules: analyse
        # 2.1: the torch_npu line msFmkTransplt's support lists are for
        cmd = [npuify, "analyse", os.path.join(tmp, "in"), "-o",
               os.path.join(tmp, "rep"), "--format", "json", "--quiet",
               "--torch-version", "2.1"]
    else:
        cmd = [npuify, "convert", os.path.join(tmp, "in"), "-o",
               os.path.join(tmp, "out"), "--report-dir",
               os.path.join(tmp, "rep"), "--format", "json",
               "--quiet"] + options_of(rule)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return name, None, "%s exit %d: %s" % (cmd[1], p.returncode,
                                                    p.stderr.strip()[:300])
    with open(os.path.join(tmp, "rep", "report.json")) as f:
        return name, json.load(f), None


def output(tmp, name):
    with open(os.path.join(tmp, "out", name)) as f:
        return f.read()


def check_edit(tmp, rule, name, rep):
    got = output(tmp, name)
    want = text(rule["after"])
    if got != want:
        return "output differs from `after`:\n" + "".join(
            "  | " + line + "\n" for line in got.splitlines())
    if not any(f["rule"] == rule["id"] and f["category"] == "change"
               for f in rep["findings"]):
        return "output matches, but no change carries " + rule["id"]
    return None


def check_flag(rule, name, rep):
    if rule.get("after"):
        return ("a finding-only rule with an `after` (wrong example; "
                "a fix made by hand is `fix`)")
    lines = rule["before"].rstrip("\n").splitlines()
    # the finding lies in the last top-level statement: from its first
    # line to the end of the example (a def or if block with its body)
    line = max(i + 1 for i, l in enumerate(lines) if not l[:1].isspace())
    last = len(lines)
    mine = [f for f in rep["findings"] + rep["left_unchanged"]
            if f["rule"] == rule["id"]]
    for f in mine:
        if f["file"] is None:
            return None  # project level: File NA
        if f["file"] == name and (rule["match"] == "file" or
                                  line <= f["start"]["line"] <= last):
            return None
    where = ", ".join("%s:%s" % (f["file"], f["start"]["line"]) for f in mine)
    return "no %s finding at %s:%d-%d (found: %s)" % (
        rule["id"], name, line, last, where or "none")


def check_covered(rid, findings):
    with open(findings) as f:
        if any(line.split()[1:2] == [rid] for line in f):
            return None
    return "%s does not show %s" % (findings, rid)


def check_preview(npuify, tmp, rule):
    p = subprocess.run([npuify, "rules", "--explain", rule["id"]],
                       capture_output=True, text=True)
    if "preview:" not in p.stdout:
        return "--explain does not say preview"
    name, rep, err = convert(npuify, tmp, rule)
    if err:
        return err
    if any(f["rule"] == rule["id"] for f in rep["findings"]):
        return "a preview rule fired"
    return None


def preview_ids(npuify):
    p = subprocess.run([npuify, "rules"], capture_output=True, text=True)
    return {line.split()[0] for line in p.stdout.splitlines()
            if "[preview]" in line}


def main():
    npuify, catalogue, tmp = sys.argv[1:4]
    only = set(sys.argv[4:])
    with open(catalogue) as f:
        rules = json.load(f)["rules"]
    previews = preview_ids(npuify)
    passed = failed = 0
    for rule in rules:
        rid = rule["id"]
        if only and rid not in only:
            continue
        if rid in previews:
            err = check_preview(npuify, tmp, rule)
        elif rid in COVERED_BY:
            err = check_covered(rid, COVERED_BY[rid])
        else:
            name, rep, err = convert(npuify, tmp, rule)
            if err is None:
                err = (check_flag(rule, name, rep) if rule["kind"] == "flag"
                       else check_edit(tmp, rule, name, rep))
        if rid in XFAIL:
            if err is None:
                print("FAIL %s: listed as xfail but passes; remove it" % rid)
                failed += 1
            else:
                print("xfail %s: %s" % (rid, XFAIL[rid]))
            continue
        if err is None:
            passed += 1
            print("ok   %s%s" % (rid, " (preview)" if rid in previews else ""))
        else:
            failed += 1
            print("FAIL %s: %s" % (rid, err))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
