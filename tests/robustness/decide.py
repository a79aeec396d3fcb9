"""decide.py PAGE OUT [REJECT_FILE...]: the decisions file the review page
PAGE saves (its decisionsJson, written here without a browser) with every
edit accepted but those of the files named (as the page names them)."""
import json
import re
import sys

page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="data">'
                            r'(.*?)</script>', page, re.S).group(1))
reject = set(sys.argv[3:])
edits = []
for i in data["items"]:
    if i["kind"] != "edit":
        continue
    e = {"id": i["id"], "file": i["file"], "line": i["line"],
         "rule": i["rule"], "before": i["old"],
         "decision": "reject" if i["file"] in reject else "accept"}
    if i.get("create"):
        e["create"] = True
    else:
        e["anchor"] = i["anchor"]
    edits.append(e)
json.dump({"schema": "npuify-decisions/2", "source": data["source"],
           "edits": edits}, open(sys.argv[2], "w"), indent=1)
