"""Independent numbers for tests/check_npuprof.sh: read a profile
directory's kernel_details.csv (or its .db) with Python's csv / sqlite3 and
print what npu_report.json must say, one "key value" per line: kernels,
kernel time, time per core, AI_CPU time, FP32 matrix time, HCCL time,
optimizer kernels, the framework op calls in trace_view.json."""
import collections
import csv
import glob
import json
import os
import sqlite3
import sys

base = sys.argv[1]
rows = []
kd = os.path.join(base, "kernel_details.csv")
if os.path.exists(kd):
    with open(kd, newline="", encoding="utf-8-sig") as f:
        for r in csv.DictReader(f):
            rows.append((r["Type"], r["Accelerator Core"].strip(),
                         float(r["Duration(us)"]), r["Input Data Types"]))
else:
    db = sqlite3.connect(glob.glob(os.path.join(base, "*.db"))[0])
    s = dict(db.execute("SELECT id, value FROM STRING_IDS"))
    for t, c, d, a, b in db.execute(
            "SELECT c.opType, c.taskType, c.inputDataTypes, t.startNs, t.endNs "
            "FROM COMPUTE_TASK_INFO c JOIN TASK t USING (globalTaskId)"):
        rows.append((s[t], s[c], (b - a) / 1000.0, s[d]))
    for t, a, b in db.execute("SELECT opType, startNs, endNs FROM COMMUNICATION_OP"):
        rows.append((s[t], "HCCL", (b - a) / 1000.0, ""))
core = collections.defaultdict(float)
for t, c, d, _ in rows:
    core[c] += d
fp32 = sum(d for t, c, d, dt in rows
           if ("MatMul" in t or t.startswith("Conv"))
           and any(x.strip().replace("DT_", "") in ("FLOAT", "FLOAT32")
                   for x in dt.replace(",", ";").split(";")))
print("kernels", len(rows))
print("kernel_us %.3f" % sum(d for _, _, d, _ in rows))
for c in sorted(core):
    print("core_%s %.3f" % (c, core[c]))
print("fp32_matrix_us %.3f" % fp32)
print("optimizer_kernels", sum(1 for t, _, _, _ in rows if t.startswith("ApplyAdam")))
tv = os.path.join(base, "trace_view.json")
if os.path.exists(tv):
    calls = collections.Counter(e["name"] for e in json.load(open(tv))
                                if e.get("ph") == "X" and e.get("cat") == "cpu_op"
                                and not e["name"].startswith("ProfilerStep"))
    for n in sorted(calls):
        print("calls %s %d" % (n, calls[n]))
