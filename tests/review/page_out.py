"""Read the <pre id="out"> JSON of a page dumped by chromium --dump-dom.

    page_out.py DOM.html KEY          print one value (JSON); KEY may be
                                      a dotted path (spans.hidden)
    page_out.py DOM.html saved FILE   write the saved decisions to FILE
"""
import html
import json
import re
import sys

dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="out"[^>]*>(.*?)</pre>', dom, re.S)
if not m:
    sys.exit("no <pre id=out> in the dumped page (did the script run?)")
out = json.loads(html.unescape(m.group(1)))
if len(sys.argv) == 4:
    with open(sys.argv[3], "w", encoding="utf-8") as f:
        json.dump(out[sys.argv[2]], f, indent=1)
else:
    v = out
    for k in sys.argv[2].split("."):
        v = v.get(k) if isinstance(v, dict) else None
    print(json.dumps(v))
