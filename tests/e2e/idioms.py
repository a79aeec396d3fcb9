"""Static checks of a converted training script, for tests/check_e2e.sh.

    idioms.py manual ORIGINAL CONVERTED   NPU idioms present, CUDA ones gone
    idioms.py auto ORIGINAL CONVERTED     only the two torch_npu imports added

Works on the syntax tree, so docstrings and comments that mention CUDA (which
npuify leaves alone on purpose) do not count. Prints one line per problem
and exits 1 if there is any; prints what it found otherwise.
"""
import ast
import difflib
import re
import sys

CUDA_DEVICE = re.compile(r"^cuda(:|$)")


def dotted(node):
    """"torch.cuda.amp" for an Attribute/Name chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def docstring_nodes(tree):
    nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef,
                             ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and \
                    isinstance(first.value, ast.Constant):
                nodes.add(id(first.value))
    return nodes


def string_parts(tree):
    """(node, text) for string constants outside docstrings, including the
    literal parts of f-strings."""
    skip = docstring_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            yield node, node.value


class Facts:
    def __init__(self, tree):
        self.imports = set()       # modules imported ("torch_npu", ...)
        self.from_imports = set()  # "torch_npu.contrib:transfer_to_npu"
        self.attr_calls = {}       # method name -> count (x.cuda(), ...)
        self.dotted = {}           # dotted name -> first line
        self.strings = []          # (line, text)
        for node in ast.walk(tree):
            self._visit(node)
        self.strings = [(n.lineno, s) for n, s in string_parts(tree)]

    def _visit(self, node):
        if isinstance(node, ast.Import):
            self.imports.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            self.imports.add(node.module)
            self.from_imports.update(f"{node.module}:{a.name}"
                                     for a in node.names)
        elif isinstance(node, ast.Call) and \
                isinstance(node.func, ast.Attribute):
            name = node.func.attr
            self.attr_calls[name] = self.attr_calls.get(name, 0) + 1
        if isinstance(node, ast.Attribute):
            name = dotted(node)
            if name:
                self.dotted.setdefault(name, node.lineno)


def manual_problems(orig, conv):
    problems = []
    if "torch_npu" not in conv.imports:
        problems.append("no `import torch_npu`")
    if conv.attr_calls.get("cuda"):
        problems.append(f"{conv.attr_calls['cuda']} `.cuda(` call(s) left")
    cuda_names = [n for n in conv.dotted if n == "torch.cuda" or
                  n.startswith("torch.cuda.") or n.endswith(".is_cuda")]
    for name in sorted(cuda_names, key=conv.dotted.get):
        if not any(other.startswith(name + ".") for other in cuda_names):
            problems.append(f"line {conv.dotted[name]}: `{name}` left")
    for mod in sorted(conv.imports):
        if mod == "torch.cuda" or mod.startswith("torch.cuda."):
            problems.append(f"`from {mod} import ...` left")
    for line, text in conv.strings:
        if CUDA_DEVICE.match(text):
            problems.append(f"line {line}: device string {text!r} left")
        if text == "nccl":
            problems.append(f"line {line}: backend string 'nccl' left")
    npu_uses = conv.attr_calls.get("npu", 0) + sum(
        1 for _, t in conv.strings if re.match(r"^npu(:|$)", t)) + sum(
        1 for n in conv.dotted if n.startswith(("torch.npu", "torch_npu")))
    if npu_uses == 0:
        problems.append("no NPU idiom (.npu(), 'npu' device, torch.npu.*)")
    had_cuda = orig.attr_calls.get("cuda", 0) + sum(
        1 for n in orig.dotted if n.startswith("torch.cuda"))
    if had_cuda == 0:
        problems.append("the original uses no CUDA: nothing to check")
    return problems, f"{npu_uses} NPU idioms, original had {had_cuda} CUDA"


def auto_problems(orig_text, conv_text, conv):
    problems = []
    if "torch_npu" not in conv.imports:
        problems.append("no `import torch_npu`")
    if "torch_npu.contrib:transfer_to_npu" not in conv.from_imports:
        problems.append("no `from torch_npu.contrib import transfer_to_npu`")
    added, removed = [], []
    for line in difflib.ndiff(orig_text.splitlines(), conv_text.splitlines()):
        if line.startswith("+ "):
            added.append(line[2:])
        elif line.startswith("- "):
            removed.append(line[2:])
    if removed:
        problems.append(f"{len(removed)} original line(s) changed, e.g. "
                        f"{removed[0]!r}")
    for line in added:
        if line.strip() and "torch_npu" not in line:
            problems.append(f"unexpected added line {line!r}")
    return problems, f"{len(added)} line(s) added"


def main(argv):
    if len(argv) != 4 or argv[1] not in ("manual", "auto"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, orig_path, conv_path = argv[1:]
    with open(orig_path, encoding="utf-8") as f:
        orig_text = f.read()
    with open(conv_path, encoding="utf-8") as f:
        conv_text = f.read()
    try:
        conv_tree = ast.parse(conv_text, conv_path)
    except SyntaxError as e:
        print(f"{conv_path}: does not parse: {e}")
        return 1
    conv = Facts(conv_tree)
    if mode == "manual":
        problems, summary = manual_problems(Facts(ast.parse(orig_text)), conv)
    else:
        problems, summary = auto_problems(orig_text, conv_text, conv)
    for p in problems:
        print(f"{conv_path}: {p}")
    if not problems:
        print(summary)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
