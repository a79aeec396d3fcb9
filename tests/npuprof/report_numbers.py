"""The same "key value" lines as check_numbers.py, from npuify's
npu_report.json, npu_types.csv and (for the op calls) compare.csv."""
import collections
import csv
import json
import os
import sys

out = sys.argv[1]
r = json.load(open(os.path.join(out, "npu_report.json")))
print("kernels", r["kernels"])
print("kernel_us %.3f" % r["kernel_us"])
names = {"AI_CORE": "AI_CORE", "AI_VECTOR_CORE": "AI_VECTOR_CORE",
         "AI_CPU": "AI_CPU", "HCCL": "HCCL"}
for c in sorted(names):
    if r["core_us"][c] > 0:
        print("core_%s %.3f" % (c, r["core_us"][c]))
f = {x["code"]: x for x in r["findings"]}
print("fp32_matrix_us %.3f" % (f["NPU802"]["time_us"] if "NPU802" in f else 0))
opt = 0
with open(os.path.join(out, "npu_types.csv"), newline="") as fh:
    for row in csv.DictReader(fh):
        if row["Type"].startswith("ApplyAdam"):
            opt += int(row["Kernels"])
print("optimizer_kernels", opt)
cmp = os.path.join(out, "compare.csv")
if os.path.exists(cmp):
    with open(cmp, newline="") as fh:
        for row in csv.DictReader(fh):
            if int(row["NPU Calls"]):
                print("calls %s %s" % (row["Operator"], row["NPU Calls"]))
