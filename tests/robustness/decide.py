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
edits = [{"id": i["id"], "file": i["file"], "line": i["line"],
          "rule": i["rule"], "start": i["start"], "end": i["end"],
          "before": i["old"],
          "decision": "reject" if i["file"] in reject else "accept"}
         for i in data["items"] if i["kind"] == "edit"]
json.dump({"schema": "npuify-decisions/1", "source": data["source"],
           "edits": edits}, open(sys.argv[2], "w"), indent=1)
