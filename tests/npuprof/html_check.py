"""Exit 1 unless each npu_report.html given parses with html.parser with
every element closed in order (void elements and SVG <rect/> aside), no
<script>, and no reference to anything outside the page."""
import sys
from html.parser import HTMLParser

VOID = {"meta", "rect", "br"}


class Check(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.bad = [], []

    def handle_starttag(self, tag, attrs):
        if tag == "script" or any(k in ("src", "href") for k, _ in attrs):
            self.bad.append("external or script: %s" % tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack.pop() != tag:
            self.bad.append("unbalanced </%s>" % tag)


ok = True
for path in sys.argv[1:]:
    c = Check()
    c.feed(open(path, encoding="utf-8").read())
    if c.bad or c.stack:
        print("%s: %s %s" % (path, c.bad, c.stack))
        ok = False
sys.exit(0 if ok else 1)
