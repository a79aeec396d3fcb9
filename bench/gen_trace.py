"""A kineto-style Chrome trace of about MB megabytes for the benchmarks: one
event over six lines, args with input shapes, a ProfilerStep every 5000
events.  usage: gen_trace.py PATH MB"""
import random, sys
path, mb = sys.argv[1], int(sys.argv[2])
ops = [("aten::addmm", "[[1000], [64, 2048], [2048, 1000], [], []]"),
       ("aten::convolution", "[[64, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []]"),
       ("aten::relu", "[[64, 1000]]"), ("aten::add_", "[[64, 1000], [64, 1000], []]"),
       ("aten::cat", "[[[704], [704]], []]"), ("aten::empty", "[[], [], [], [], [], []]")]
ev = ('  {\n    "ph": "X", "cat": "cpu_op", "name": "%s", "pid": 4242, "tid": %d,\n'
      '    "ts": %.3f, "dur": %.3f,\n    "args": {\n      "External id": %d,'
      '"Sequence number": 0, "Fwd thread id": 0, "Record function id": 0, '
      '"Concrete Inputs": ["", "", "", "1", "1"], "Input type": ["float", '
      '"float", "float", "Scalar", "Scalar"], "Input Dims": %s, "Ev Idx": %d\n'
      '    }\n  },\n')
rnd = random.Random(1)
limit = mb * 1000 * 1000
with open(path, "w") as f:
    f.write('{\n  "schemaVersion": 1,\n  "traceEvents": [\n')
    size, i, ts, step = 0, 0, 1.0e11, 0
    while size < limit:
        if i % 5000 == 0:
            s = ('  {"ph": "X", "cat": "user_annotation", "name": '
                 '"ProfilerStep#%d", "pid": 4242, "tid": 1, "ts": %.3f, '
                 '"dur": %.3f, "args": {}},\n' % (step, ts, 5000 * 3.0))
            step += 1
        else:
            name, dims = ops[rnd.randrange(len(ops))]
            s = ev % (name, 1 + (i % 3 == 0), ts, rnd.random() * 2, i, dims, i)
        ts += 3.0
        f.write(s)
        size += len(s)
        i += 1
    f.write('  {"ph": "i", "name": "end", "pid": 4242, "tid": 1, "ts": %.3f}\n'
            '  ],\n  "traceName": "bench"\n}\n' % ts)
