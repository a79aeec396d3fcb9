"""Write the NPU profiler fixtures of tests/check_npuprof.sh (deterministic;
run with any python3 from this directory). The model is gen_gpu_trace.py's
4-layer MLP (16-64-64-64-4, cross entropy, AdamW), 2 steps, as torch_npu
would run it. Layouts: see README.md (Huawei's documents, cited there).

  mlp_fp32_ascend_pt/   FP32, int64 targets (Cast on AI_CPU), DDP over HCCL
                        (broadcast in step 1, one all-reduce per step), the
                        optimizer patched to one ApplyAdamWV2 per parameter,
                        TASK_QUEUE_ENABLE=0, a host sync (loss.item()) before
                        the optimizer: every finding class fires.
  mlp_fp32_db/          the same run exported as ascend_pytorch_profiler_0.db
                        (export_type=db): tables, not CSV.
  gpu_kineto_mlp.json   the same FP32 run on a CUDA GPU as a kineto trace
                        (cpu_op events, kernels tied by "External id"), for
                        the device-time compare; hand-modelled, not measured.
  mlp_bf16_ascend_pt/   the healthy run: bf16 autocast, int32 targets, one
                        fused optimizer kernel, task queue on, big tensors:
                        no finding fires.
"""
import json
import os
import sqlite3

BASE_US = 1701000000000.0  # a plausible absolute start (us)
HOST_PID, HW_PID, OV_PID, HCCL_PID = 1001, 3001, 4001, 5001


def kern(name, typ, core, dur, shapes, dtypes):
    return dict(name=name, type=typ, core=core, dur=dur, shapes=shapes,
                dtypes=dtypes)


def model_steps(fp32):
    """Per step: a tree of (op name, children or kernels)."""
    dt = "FLOAT" if fp32 else "DT_BF16"
    mm = "MatMulV2" if fp32 else "MatMulV3"
    big = 1.0 if fp32 else 4.0  # bf16 run: 4x the batch, fewer but bigger ops
    ew = 3.0 if fp32 else 14.0
    dims = [(16, 64), (64, 64), (64, 64), (64, 4)]
    steps = []
    for step in (1, 2):
        ops = []
        if fp32 and step == 1:
            ops.append(("c10d::broadcast_", [kern(
                "hcom_broadcast__521_0_1", "hcom_broadcast_", "HCCL", 310.0,
                "", "")]))
        for i, (k, n) in enumerate(dims):
            mmk = kern("aclnnMatmul_MatMulCommon_%s" % mm, mm, "AI_CORE",
                       (40.0 + i) * big, "64,%d;%d,%d" % (k, k, n),
                       "%s;%s" % (dt, dt))
            add = kern("aclnnAdd_AddAiCore_Add", "Add", "AI_VECTOR_CORE",
                       ew + 0.1 * i, "64,%d;%d" % (n, n), "%s;%s" % (dt, dt))
            ops.append(("aten::linear", [("aten::t", [("aten::transpose", [])]),
                                         ("aten::addmm", [mmk, add])]))
            if i < 3:
                ops.append(("aten::relu", [kern(
                    "aclnnRelu_ReluAiCore_Relu", "Relu", "AI_VECTOR_CORE",
                    ew - 0.2, "64,%d" % n, dt)]))
        tgt = ([kern("aclnnCast_CastAiCpu_Cast", "Cast", "AI_CPU", 85.0, "64",
                     "INT64")] if fp32 else [])
        ops.append(("aten::cross_entropy_loss", [
            ("aten::log_softmax", [("aten::_log_softmax", [kern(
                "aclnnLogSoftmax_LogSoftmaxV2AiCore_LogSoftmaxV2",
                "LogSoftmaxV2", "AI_VECTOR_CORE", ew + 3.5, "64,4", dt)])]),
            ("aten::nll_loss_nd", [("aten::nll_loss", [("aten::nll_loss_forward",
                tgt + [kern("aclnnNLLLoss_NLLLossAiCore_NLLLoss", "NLLLoss",
                            "AI_VECTOR_CORE", ew + 2.1, "64,4;64",
                            "%s;INT32" % dt)])])])]))
        ops.append(("aten::nll_loss_backward", [kern(
            "aclnnNLLLossBackward_NLLLossGradAiCore_NLLLossGrad", "NLLLossGrad",
            "AI_VECTOR_CORE", ew + 1.9, "64,4;64", "%s;INT32" % dt)]))
        ops.append(("aten::_log_softmax_backward_data", [kern(
            "aclnnLogSoftmaxBackward_LogSoftmaxGradAiCore_LogSoftmaxGrad",
            "LogSoftmaxGrad", "AI_VECTOR_CORE", ew + 2.5, "64,4;64,4", dt)]))
        for i in reversed(range(4)):
            k, n = dims[i]
            ops.append(("aten::sum", [kern(
                "aclnnReduceSum_ReduceSumAiCore_ReduceSum", "ReduceSum",
                "AI_VECTOR_CORE", ew + 1.0, "64,%d" % n, dt)]))
            ops.append(("aten::mm", [kern(
                "aclnnMm_MatMulCommon_%s" % mm, mm, "AI_CORE", (39.0 + i) * big,
                "%d,64;64,%d" % (n, k), "%s;%s" % (dt, dt))]))
            if i > 0:
                ops.append(("aten::mm", [kern(
                    "aclnnMm_MatMulCommon_%s" % mm, mm, "AI_CORE",
                    (41.0 + i) * big, "64,%d;%d,%d" % (n, n, k),
                    "%s;%s" % (dt, dt))]))
                ops.append(("aten::threshold_backward", [kern(
                    "aclnnThresholdBackward_ReluGradAiCore_ReluGrad",
                    "ReluGrad", "AI_VECTOR_CORE", ew + 0.1, "64,%d;64,%d" % (k, k),
                    "%s;%s" % (dt, dt))]))
        if fp32:
            ops.append(("c10d::allreduce_", [kern(
                "hcom_allReduce__521_1_1", "hcom_allReduce_", "HCCL", 260.0,
                "", "")]))
            ops.append(("aten::item", [("aten::_local_scalar_dense", [])]))
            ops.append(("Optimizer.step#AdamW.step", [
                ("npu::npu_apply_adam_w", [kern(
                    "aclnnApplyAdamWV2_ApplyAdamWV2AiCore_ApplyAdamWV2",
                    "ApplyAdamWV2", "AI_VECTOR_CORE", 4.5 + 0.1 * p,
                    "64,64", "FLOAT;FLOAT;FLOAT;FLOAT")]) for p in range(8)]))
        else:
            ops.append(("Optimizer.step#NpuFusedAdamW.step", [
                ("npu::npu_apply_adam_w", [kern(
                    "aclnnApplyAdamWV2_ApplyAdamWV2AiCore_ApplyAdamWV2",
                    "ApplyAdamWV2", "AI_VECTOR_CORE", 48.0, "12868",
                    "FLOAT;FLOAT;FLOAT;FLOAT")])]))
        steps.append((step, ops))
    return steps


def simulate(fp32):
    """Host ops take 12 us each (2 us per parent); a kernel starts 20 us
    after its launch or 1.5 us after the previous one, whichever is later;
    aten::item waits for the device and then 400 us of host work."""
    host = BASE_US
    dev_end = BASE_US
    flow = [0]
    cpu, kernels, flows = [], [], []
    steps = []

    def run(op, step):
        nonlocal host, dev_end
        name, body = op
        start = host
        kids = [b for b in body if isinstance(b, tuple)]
        ks = [b for b in body if isinstance(b, dict)]
        if name == "aten::item":
            host = max(host, dev_end) + 400.0
        for k in kids:
            host += 2.0
            run(k, step)
        if ks:
            for k in ks:
                host += 6.0
                ts = max(host + 20.0, dev_end + 1.5)
                kernels.append(dict(k, ts=ts, step=step))
                flow[0] += 1
                flows.append((flow[0], host, ts, k["core"] == "HCCL"))
                dev_end = ts + k["dur"]
            host += 6.0
        elif not kids:
            host += 12.0 if name != "aten::item" else 0.0
        host += 2.0 if kids else 0.0
        cat = "user_annotation" if name.startswith("Optimizer.") else "cpu_op"
        cpu.append(dict(name=name, ts=start, dur=host - start, cat=cat))

    for step, ops in model_steps(fp32):
        s0 = host
        for op in ops:
            run(op, step)
        host = max(host, dev_end) + 30.0
        cpu.append(dict(name="ProfilerStep#%d" % step, ts=s0, dur=host - s0,
                        cat="cpu_op"))
        steps.append((step, s0, host))
    return cpu, kernels, flows, steps


def us(v):
    return "%.3f" % v


KD_HEADER = ["Step Id", "Device_id", "Name", "Type", "Accelerator Core",
             "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Dim",
             "Mix Block Dim", "Input Shapes", "Input Data Types",
             "Input Formats", "Output Shapes", "Output Data Types",
             "Output Formats"]


def csv_cell(v):
    v = str(v)
    if any(c in v for c in ',"\n'):
        return '"' + v.replace('"', '""') + '"'
    return v


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        for r in [header] + rows:
            f.write(",".join(csv_cell(c) for c in r) + "\r\n")


def kernel_rows(kernels):
    rows, prev_end = [], None
    for k in kernels:
        wait = 0.0 if prev_end is None else max(0.0, k["ts"] - prev_end)
        prev_end = k["ts"] + k["dur"]
        n = len(k["dtypes"].split(";")) if k["dtypes"] else 0
        rows.append([k["step"], 0, k["name"], k["type"], k["core"],
                     us(k["ts"]) + "\t", us(k["dur"]), us(wait),
                     0 if k["core"] in ("HCCL", "AI_CPU") else 8,
                     0, k["shapes"], k["dtypes"],
                     ";".join(["ND"] * n), k["shapes"].split(";")[0],
                     k["dtypes"].split(";")[0], "ND" if n else ""])
    return rows


def op_statistic_rows(kernels):
    agg = {}
    total = sum(k["dur"] for k in kernels)
    for k in kernels:
        a = agg.setdefault((k["type"], k["core"]), [])
        a.append(k["dur"])
    rows = []
    for (t, c), d in sorted(agg.items(), key=lambda kv: -sum(kv[1])):
        rows.append([0, t, c, len(d), us(sum(d)), us(min(d)),
                     us(sum(d) / len(d)), us(max(d)),
                     "%.2f" % (100 * sum(d) / total)])
    return rows


def trace_view(cpu, kernels, flows, fp32):
    ev = []
    for pid, name in ((HOST_PID, "Python"), (HW_PID, "Ascend Hardware"),
                      (OV_PID, "Overlap Analysis"), (HCCL_PID, "HCCL")):
        ev.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
                   "args": {"name": name}})
    for c in sorted(cpu, key=lambda c: (c["ts"], -c["dur"])):
        ev.append({"ph": "X", "cat": c["cat"], "name": c["name"],
                   "pid": HOST_PID, "tid": 1, "ts": us(c["ts"]),
                   "dur": us(c["dur"]), "args": {"Sequence number": 0}})
    for k in kernels:
        pid, tid = (HCCL_PID, 3) if k["core"] == "HCCL" else (HW_PID, 2)
        ev.append({"ph": "X", "name": k["name"], "pid": pid, "tid": tid,
                   "ts": us(k["ts"]), "dur": us(k["dur"]),
                   "args": {"Task Type": k["core"], "Stream Id": tid}})
        kind = "Communication" if k["core"] == "HCCL" else "Computing"
        ev.append({"ph": "X", "name": kind, "pid": OV_PID, "tid": 0,
                   "ts": us(k["ts"]), "dur": us(k["dur"])})
        if kind == "Communication":
            ev.append({"ph": "X", "name": "Communication(Not Overlapped)",
                       "pid": OV_PID, "tid": 1, "ts": us(k["ts"]),
                       "dur": us(k["dur"])})
    for a, b in zip(kernels, kernels[1:]):
        gap = b["ts"] - (a["ts"] + a["dur"])
        if gap > 0 and a["step"] == b["step"]:
            ev.append({"ph": "X", "name": "Free", "pid": OV_PID, "tid": 2,
                       "ts": us(a["ts"] + a["dur"]), "dur": us(gap)})
    for fid, hts, kts, comm in flows:
        if comm:
            continue
        ev.append({"ph": "s", "cat": "async_npu", "name": "torch_to_npu",
                   "id": fid, "pid": HOST_PID, "tid": 1, "ts": us(hts)})
        ev.append({"ph": "f", "bp": "e", "cat": "async_npu",
                   "name": "torch_to_npu", "id": fid, "pid": HW_PID, "tid": 2,
                   "ts": us(kts)})
        if not fp32:  # task queue on: the op is enqueued, then dequeued
            ev.append({"ph": "X", "name": "Enqueue", "cat": "enqueue",
                       "pid": HOST_PID, "tid": 1, "ts": us(hts - 1.0),
                       "dur": "0.800"})
            ev.append({"ph": "X", "name": "Dequeue", "cat": "dequeue",
                       "pid": HOST_PID, "tid": 7, "ts": us(hts + 1.0),
                       "dur": "3.200"})
    return ev


def write_db(path, cpu, kernels, steps):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    ids = {}

    def sid(s):
        if s not in ids:
            ids[s] = len(ids)
        return ids[s]
    db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
  connectionId INTEGER, globalTaskId INTEGER PRIMARY KEY, globalPid INTEGER,
  taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
  modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY,
  blockDim INTEGER, mixBlockDim INTEGER, taskType INTEGER, opType INTEGER,
  inputFormats INTEGER, inputDataTypes INTEGER, inputShapes INTEGER,
  outputFormats INTEGER, outputDataTypes INTEGER, outputShapes INTEGER,
  attrInfo INTEGER);
CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER,
  connectionId INTEGER, groupName INTEGER, opId INTEGER PRIMARY KEY,
  relay INTEGER, retry INTEGER, dataType INTEGER, algType INTEGER,
  count NUMERIC, opType INTEGER);
CREATE TABLE PYTORCH_API (startNs INTEGER, endNs INTEGER, globalTid INTEGER,
  connectionId INTEGER, name INTEGER, sequenceNumber INTEGER,
  fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER,
  callchainId INTEGER, type INTEGER);
CREATE TABLE STEP_TIME (id INTEGER PRIMARY KEY, startNs INTEGER, endNs INTEGER);
""")
    ns = lambda v: int(round(v * 1000))
    for i, k in enumerate(kernels):
        s, e = ns(k["ts"]), ns(k["ts"] + k["dur"])
        if k["core"] == "HCCL":
            db.execute("INSERT INTO COMMUNICATION_OP VALUES "
                       "(?,?,?,?,?,?,0,0,?,?,?,?)",
                       (sid(k["name"]), s, e, i, sid("default_group"), i,
                        sid("FP32"), sid("RING"), 1024, sid(k["type"])))
            continue
        db.execute("INSERT INTO TASK VALUES (?,?,0,?,?,1001,?,0,2,?,0)",
                   (s, e, i, i, sid(k["core"]), i))
        db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES "
                   "(?,?,8,0,?,?,?,?,?,?,?,?,?)",
                   (sid(k["name"]), i, sid(k["core"]), sid(k["type"]),
                    sid("ND"), sid(k["dtypes"]), sid(k["shapes"]), sid("ND"),
                    sid(k["dtypes"].split(";")[0]),
                    sid(k["shapes"].split(";")[0]), sid("")))
    for c in cpu:
        if c["cat"] != "cpu_op":
            continue
        db.execute("INSERT INTO PYTORCH_API VALUES (?,?,?,0,?,0,0,?,?,0,?)",
                   (ns(c["ts"]), ns(c["ts"] + c["dur"]), (1001 << 32) | 1,
                    sid(c["name"]), sid(""), sid(""), sid("op")))
    for step, s0, s1 in steps:
        db.execute("INSERT INTO STEP_TIME VALUES (?,?,?)", (step, ns(s0), ns(s1)))
    db.executemany("INSERT INTO STRING_IDS VALUES (?,?)",
                   [(v, k) for k, v in ids.items()])
    db.commit()
    db.close()


def gpu_kineto():
    """The FP32 tree on a GPU: same aten ops, CUDA kernels (matrix work 3x,
    vector work 1.5x faster), no AI_CPU Cast, one fused AdamW kernel."""
    ev, host, ext = [], 5000.0, [0]

    def run(op):
        nonlocal host
        name, body = op
        start = host
        if name.startswith("Optimizer."):
            body = [("aten::_fused_adamw_", [kern("fused_adamw_kernel", "",
                                                  "AI_VECTOR_CORE", 18.0, "",
                                                  "")])]
        kids = [b for b in body if isinstance(b, tuple)]
        ks = [b for b in body if isinstance(b, dict) and b["core"] != "AI_CPU"]
        for k in kids:
            host += 2.0
            run(k)
        ext[0] += 1
        for k in ks:
            host += 5.0
            div = 3.0 if k["core"] == "AI_CORE" else 1.5
            if k["core"] == "HCCL":
                kname, div = "ncclKernel_AllReduce_RING_LL_Sum_float", 4.0
            else:
                kname = k["name"].replace("aclnn", "void at::native::")
            ev.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0,
                       "tid": 7, "ts": host + 10.0, "dur": round(k["dur"] / div, 3),
                       "args": {"External id": ext[0], "device": 0,
                                "stream": 7}})
        if not kids and not ks:
            host += 10.0
        host += 2.0
        cat = "user_annotation" if name.startswith(("Optimizer.", "ProfilerStep")) \
            else "cpu_op"
        ev.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
                   "ts": round(start, 3), "dur": round(host - start, 3),
                   "args": {"External id": ext[0]}})

    for step, ops in model_steps(True):
        s0 = host
        for op in ops:
            run(op)
        host += 20.0
        ev.append({"ph": "X", "cat": "user_annotation",
                   "name": "ProfilerStep#%d" % step, "pid": 1, "tid": 1,
                   "ts": round(s0, 3), "dur": round(host - s0, 3), "args": {}})
    ev.sort(key=lambda e: (e["ts"], -e["dur"]))
    return {"schemaVersion": 1, "deviceProperties": [{"id": 0,
            "name": "NVIDIA A100-SXM4-80GB"}], "traceEvents": ev}


def main():
    with open("gpu_kineto_mlp.json", "w") as f:
        json.dump(gpu_kineto(), f, indent=1)
        f.write("\n")
    for fp32, name in ((True, "mlp_fp32_ascend_pt"), (False, "mlp_bf16_ascend_pt")):
        out = os.path.join(name, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(out, exist_ok=True)
        cpu, kernels, flows, steps = simulate(fp32)
        write_csv(os.path.join(out, "kernel_details.csv"), KD_HEADER,
                  kernel_rows(kernels))
        write_csv(os.path.join(out, "op_statistic.csv"),
                  ["Device_id", "OP Type", "Core Type", "Count",
                   "Total Time(us)", "Min Time(us)", "Avg Time(us)",
                   "Max Time(us)", "Ratio(%)"], op_statistic_rows(kernels))
        with open(os.path.join(out, "trace_view.json"), "w") as f:
            json.dump(trace_view(cpu, kernels, flows, fp32), f, indent=1)
            f.write("\n")
        if fp32:
            dbdir = os.path.join("mlp_fp32_db", "ASCEND_PROFILER_OUTPUT")
            os.makedirs(dbdir, exist_ok=True)
            write_db(os.path.join(dbdir, "ascend_pytorch_profiler_0.db"), cpu,
                     kernels, steps)


if __name__ == "__main__":
    main()
