#!/usr/bin/python3
"""Audit a converted project: is every CUDA-ish site converted or reported?

Usage: audit_cuda.py [-v|-vv] [--sh] [--nb] SRC DST [SRC DST ...]

SRC is the tree given to `npuify convert`, DST its output (report in
DST/npuify_report/report.json). Every line of an OUTPUT Python file (and
shell script with --sh, notebook code-cell line with --nb) that still
matches CUDA_RE is a site. Output lines
are mapped back to source lines with difflib (convert inserts whole lines
and edits inside lines). Converted sites no longer match CUDA_RE; they are
counted from the report's change records (`edits`: category "change",
NPU001 import insertions excluded). A remaining site is
  reported  when a finding (not a change) or a left_unchanged record covers
            its source line (start.line <= l <= end.line), or when it is a
            name whose binding import is covered (xentropy_cuda.forward
            after a reported `import xentropy_cuda`, cp.cuda after `import
            cupy as cp`) or that a finding of the same file names;
  ident     a name that is no CUDA API: a user identifier that merely
            contains "cuda" (use_cuda, move_to_cuda, self.cuda), an import
            of a project module;
  prose     a comment or string that names none of TEXT_RE (e.g. only apex,
            triton, DataParallel, nvtx);
  MISSED    anything else: a CUDA API name (API_NAMES, `.cuda(`,
            `torch.cuda`, `torch.version.cuda`, `X.cuda.Y`, private
            `_C._cuda_*`/`_C._nccl_*` bindings, names bound by imports of
            modules outside the project, *_cuda modules), a comment naming
            cuda/cudnn/nccl/cublas, a string naming those or an apex module
            (the literal text of an f-string, not its {fields}).
Notebooks (--nb): the lines of the code cells' "source" strings in the
JSON as nbformat writes it (sorted keys, one source line per JSON line),
tokenized cell by cell with IPython's !/% lines as text; a notebook that
convert copied unchanged is audited the same way, so its sites are missed.
Prints one row per project; -v adds every missed line, -vv also the ident
and prose lines (before the row). Exit status 1 when anything is missed.
"""
import difflib
import io
import json
import os
import re
import sys
import tokenize

CUDA_RE = re.compile(
    r"cuda|(?<!asy)nccl|cudnn|(?<!Distributed)(?<!Sharded)DataParallel"
    r"|amp_C|\bapex\b|triton(?!client)|cupy|nvtx|\bp?nvml|cublas"
    r"|get_device_capability|\bnvcc\b",
    re.IGNORECASE)
# Names that are CUDA APIs wherever they stand (attribute or bare).
API_NAMES = {"is_cuda", "cudnn", "nccl", "DataParallel", "data_parallel",
             "amp_C", "nvtx", "emit_nvtx", "get_device_capability",
             "CUDAExtension", "CUDA_HOME", "CUDAGraph",
             "is_nccl_available", "ProcessGroupNCCL", "NCCL", "CUDA"}
IMPORT_RE = re.compile(r"^\s*(import|from)\s")
LOCAL_IMPORT_RE = re.compile(r"^\s*from\s+\.")
# Prose that must be recorded when left alone: the CUDA/cuDNN/NCCL/cuBLAS
# names in comments and strings; in strings also apex module paths (run-time
# imports). The literal text of an f-string counts, not its {fields}.
TEXT_RE = re.compile(r"cuda|cudnn|nccl|cublas", re.IGNORECASE)
STRING_RE = re.compile(r"cuda|cudnn|nccl|cublas|apex\.\w", re.IGNORECASE)
FIELD_RE = re.compile(r"\{[^{}]*\}")


def read_lines(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace").splitlines()


def out_to_src_map(src_lines, out_lines):
    """1-based output line -> 1-based source line (0: inserted line)."""
    sm = difflib.SequenceMatcher(None, src_lines, out_lines, autojunk=False)
    m = [0] * (len(out_lines) + 1)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for k in range(j2 - j1):
                m[j1 + k + 1] = i1 + k + 1
        elif tag == "replace":  # uneven: map onto the first source line
            for k in range(j2 - j1):
                m[j1 + k + 1] = i1 + min(k, i2 - i1 - 1) + 1
    return m


def token_classes(text):
    """1-based line -> [(kind, token text, prev, prev2, next token)] hits;
    None when the file does not tokenize."""
    hits = {}
    try:
        toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.NL, tokenize.NEWLINE,
                                  tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    for i, t in enumerate(toks):
        if not CUDA_RE.search(t.string):
            continue
        kind = {tokenize.COMMENT: "comment", tokenize.STRING: "string",
                tokenize.NAME: "name"}.get(t.type)
        fstring = (getattr(tokenize, "FSTRING_START", -1),
                   getattr(tokenize, "FSTRING_MIDDLE", -1))
        if kind is None and t.type in fstring:  # Python >= 3.12
            kind = "string"
        if kind is None:
            continue
        prev = toks[i - 1].string if i > 0 else ""
        prev2 = toks[i - 2].string if i > 1 else ""
        nxt = toks[i + 1].string if i + 1 < len(toks) else ""
        for ln in range(t.start[0], t.end[0] + 1):
            hits.setdefault(ln, []).append((kind, t.string, prev, prev2, nxt))
    return hits


def local_modules(root, rel, cache):
    """Top-level module names importable from the project for file rel:
    packages and modules in rel's directory and in each one above it."""
    names = set()
    d = os.path.dirname(rel)
    while True:
        if d not in cache:
            try:
                ents = os.listdir(os.path.join(root, d))
            except OSError:
                ents = []
            cache[d] = {e[:-3] if e.endswith(".py") else e for e in ents}
        names |= cache[d]
        if not d:
            return names
        d = os.path.dirname(d)


def imported_names(text, project_mods):
    """Names bound by imports of modules that are not in the project ->
    1-based output line of the (last) import that binds them."""
    names = {}
    for m in re.finditer(r"^\s*(?:from\s+([\w.]+)\s+)?import\s+([^\n#]+)",
                         text, re.M):
        line = text.count("\n", 0, m.start()) + 1
        mod = m.group(1)
        for part in m.group(2).strip("()\\ ").split(","):
            w = part.split()
            if not w:
                continue
            full = (mod + "." + w[0]) if mod else w[0]
            if full.split(".")[0] in project_mods or \
                    (mod or "").startswith("."):
                continue
            names[w[-1] if "as" in w else w[0].split(".")[0]] = line
    return names


def import_is_external(line, project_mods):
    """An import line of a module outside the project, or of a compiled
    *_cuda module (no .py file) from inside it?"""
    m = re.match(r"\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))",
                 line)
    if m is None:
        return False
    mod = m.group(1) or m.group(2)
    return mod.split(".")[0] not in project_mods or \
        re.search(r"\w+_cuda\b", line) is not None


def name_is_api(h, line, imports, project_mods):
    kind, tok, prev, prev2, nxt = h
    if tok == "is_cuda" and prev != ".":  # a local variable, not t.is_cuda
        return False
    if tok in API_NAMES or tok in imports or \
            (prev == "." and prev2 in imports):
        return True
    if IMPORT_RE.match(line) and not LOCAL_IMPORT_RE.match(line):
        return import_is_external(line, project_mods)
    if tok == "cuda":  # x.cuda(...), torch.cuda, torch.version.cuda,
        # and a torch.cuda reached through an alias: mod.cuda.synchronize
        return prev == "." and (nxt in ("(", ".") or
                                prev2 in ("torch", "version", "backends"))
    # private bindings: torch._C._cuda_getDevice, torch._C._nccl_all_reduce
    return prev == "." and prev2 == "_C" and \
        re.match(r"_(cuda|nccl|cudnn)", tok) is not None


def needs_record(h, line, imports, project_mods):
    """Is this hit CUDA usage (name) or CUDA text (prose) to account for?"""
    if h[0] == "name":
        return name_is_api(h, line, imports, project_mods)
    if h[0] == "comment":
        return bool(TEXT_RE.search(h[1]))
    text = line if h[1].count("\n") else h[1]  # the line of a long string
    if re.match(r"[rbuRBU]*[fF]", h[1]):
        text = FIELD_RE.sub("", text)
    return bool(STRING_RE.search(text))


MEMBER_RE = re.compile(r"([\w./-]+\.py):(\d+)")


def covered_lines(records):
    """file -> set of source lines covered by records."""
    cov = {}
    for r in records:
        if not r.get("file"):
            continue
        s = r["start"]["line"]
        e = max(r["end"]["line"], s)
        cov.setdefault(r["file"], set()).update(range(s, e + 1))
        # a value set reported once names every member's file:line
        msg = r.get("message") or ""
        members = msg[msg.find("members: "):] if "members: " in msg else ""
        for f, l in MEMBER_RE.findall(members):
            cov.setdefault(f, set()).add(int(l))
    return cov


NB_TYPE_RE = re.compile(r'^\s*"cell_type":\s*"(\w+)"')
NB_SOURCE_RE = re.compile(r'^\s*"source":\s*(\[|")')


def notebook_sources(lines):
    """The code cells of a notebook's JSON lines: [[(json line, text)]]
    (1-based JSON lines, the decoded source line with its newline)."""
    cells, cell_type, cur = [], None, None
    for i, line in enumerate(lines):
        if cur is not None:
            if line.strip().startswith("]"):
                cells.append(cur)
                cur = None
                continue
            try:
                cur.append((i + 1, json.loads(line.strip().rstrip(","))))
            except ValueError:
                pass
            continue
        m = NB_TYPE_RE.match(line)
        if m:
            cell_type = m.group(1)
            continue
        m = NB_SOURCE_RE.match(line)
        if m and cell_type == "code":
            if m.group(1) == "[":
                cur = [] if not line.rstrip().endswith("]") else None
            else:
                body = line.split(":", 1)[1].strip().rstrip(",")
                try:
                    cells.append([(i + 1, json.loads(body))])
                except ValueError:
                    pass
    return cells


def notebook_view(lines):
    """(text, line map, hits, code): the code cells as one Python text
    with the IPython lines (and %% cells) blanked; text line -> JSON line;
    JSON line -> token hits (a line tokenize cannot read is text); JSON
    line -> its code line."""
    cells = notebook_sources(lines)
    text_lines, tmap, hits, code_of = [], [0], {}, {}
    for cell in cells:
        code, owner = [], []
        for jl, s in cell:
            for part in s.splitlines() or [""]:
                code.append(part)
                owner.append(jl)
        magic_cell = bool(code) and code[0].startswith("%%")
        py = ["" if magic_cell or re.match(r"\s*[!%]|.*=\s*!", c) or
              c.endswith("?") else c for c in code]
        cls = token_classes("\n".join(py) + "\n") or {}
        for k, c in enumerate(code):
            if not CUDA_RE.search(c):
                continue
            hs = cls.get(k + 1) if py[k] else None
            hits.setdefault(owner[k], []).extend(
                hs if hs else [("text", c, "", "", "")])
            code_of[owner[k]] = c
        text_lines += py
        tmap += owner
    return "\n".join(text_lines) + "\n", tmap, hits, code_of


def audit(src, dst, with_sh, verbose, with_nb=False):
    rep = json.load(open(os.path.join(dst, "npuify_report", "report.json")))
    finds = rep["findings"]
    changes = [f for f in finds if f["category"] == "change"]
    edits = sum(1 for f in changes if f["rule"] != "NPU001")
    reported = [f for f in finds if f["category"] != "change" and f["file"]]
    lu = rep["left_unchanged"]
    cov = covered_lines(reported + lu)
    exts = (".py",) + ((".sh",) if with_sh else ()) + \
        ((".ipynb",) if with_nb else ())
    files = [f["path"] for f in rep["files"] if f["path"].endswith(exts)]
    nrep = nmiss = nident = nprose = 0
    missed = []
    others = []
    dircache = {}
    for rel in sorted(files):
        project_mods = local_modules(src, rel, dircache)
        out_lines = read_lines(os.path.join(dst, rel))
        nb = rel.endswith(".ipynb")
        if nb:
            text, tmap, cls, code_of = notebook_view(out_lines)
            hits = sorted(cls)
            imports = {k: tmap[v] for k, v in
                       imported_names(text, project_mods).items()}
        else:
            hits = [i + 1 for i, l in enumerate(out_lines)
                    if CUDA_RE.search(l)]
        if not hits:
            continue
        m = out_to_src_map(read_lines(os.path.join(src, rel)), out_lines)
        fcov = cov.get(rel, set())
        if not nb:
            text = "\n".join(out_lines) + "\n"
            cls = token_classes(text) if rel.endswith(".py") else None
            imports = imported_names(text, project_mods)
        apis = " ".join((f.get("api") or "") + " " + f["message"]
                        for f in reported if f["file"] == rel)
        for ol in hits:
            line = out_lines[ol - 1]
            hs = cls.get(ol, []) if cls is not None else [("text", line,
                                                            "", "", "")]
            if nb:  # the code line, not its JSON
                line = code_of[ol]
            need = [h for h in hs
                    if needs_record(h, line, imports, project_mods)]
            if m[ol] in fcov:
                nrep += 1
                continue
            if not need:
                if any(h[0] == "name" for h in hs):
                    nident += 1
                    others.append(("IDENT", rel, m[ol], line.strip()))
                else:
                    nprose += 1
                    others.append(("PROSE", rel, m[ol], line.strip()))
                continue
            # a name whose import is reported, or that the findings name
            # (m[0] is 0, never a covered line: names bound by no import)
            if all(h[0] == "name" and (
                    m[imports.get(h[1], 0)] in fcov or
                    (h[2] == "." and m[imports.get(h[3], 0)] in fcov) or
                    re.search(r"\b%s\b" % re.escape(h[1]), apis))
                   for h in need):
                nrep += 1
            else:
                nmiss += 1
                missed.append((rel, m[ol], line.strip()))
    row = (os.path.basename(os.path.normpath(src)), len(files), edits,
           len(reported), len(lu), nrep, nident, nprose, nmiss)
    if verbose > 1:
        for kind, rel, line, text in others:
            print("%s %s:%d: %s" % (kind, rel, line, text[:140]))
    return row, missed


def main(argv):
    verbose = argv.count("-v") + 2 * argv.count("-vv")
    with_sh = "--sh" in argv
    with_nb = "--nb" in argv
    args = [a for a in argv if a not in ("-v", "-vv", "--sh", "--nb")]
    if not args or len(args) % 2:
        sys.stderr.write(__doc__)
        return 2
    fmt = "%-12s %6s %6s %8s %6s %9s %6s %6s %6s"
    print(fmt % ("project", "files", "edits", "findings", "left",
                 "rep.sites", "ident", "prose", "missed"))
    total = 0
    allmissed = []
    for i in range(0, len(args), 2):
        row, missed = audit(args[i], args[i + 1], with_sh, verbose, with_nb)
        print(fmt % row)
        total += row[-1]
        allmissed += missed
    if verbose:
        for rel, line, text in allmissed:
            print("MISSED %s:%d: %s" % (rel, line, text[:140]))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
