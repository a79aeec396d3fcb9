/*
 * npuify proflog: operators from PyTorch profiler output.
 *
 * Two readers turn profiler output into the same stream of rows:
 *  - the TEXT reader (src/proflog/text_*.c) reads the tables that
 *    `print(prof)`, `EventList.table()` and `key_averages().table()` print,
 *    torch 1.2 to 2.x, anywhere in a training log (see
 *    shared/reference/profiler_formats.md for the grammar);
 *  - the TRACE reader (src/proflog/trace_*.c, json_*.c) reads chrome trace
 *    JSON (legacy array and kineto "traceEvents", gzipped or not).
 * Both stream: memory never grows with the file. The text reader keeps one
 * line (capped, max_line) and the rows of the table being read (capped at
 * 16 MiB, then streamed), because only a whole table tells whether it lists
 * raw events; it hands a table's rows to the caller's sink (nfy_prof_sink)
 * when the table closes. Views in a row are valid only during the sink call.
 *
 * nfy_prof_table (op_table.c) aggregates rows into the op model: one entry
 * per name, with calls, times, input-shape groups, the steps in which it
 * appears and its kind (operator, autograd node, user annotation, ...).
 * op_check.c adds the analysis: dynamic-shape operators, truncated names,
 * and (through apidb) the status of each operator on torch_npu. proflog only
 * reads: `npuify ops`' files are written by src/report/ops*.c (report/ops.h)
 * from the table and the queries at the end of this header.
 *
 * Step numbers are >= 0; NFY_PROF_STEP_NONE (-1) means "outside any step
 * / unknown". The text reader numbers steps from 1, per rank: each table is
 * one step (the Ascend guide's extract_ops_by_step counts so), except a
 * raw-event table with ProfilerStep* rows, where each such row opens the
 * next step and rows before the first are outside any step. The trace
 * reader uses N of the enclosing ProfilerStep#N event (the profiler's own
 * counter, from 0). Ranks are >= 0 when a per-line prefix names them
 * ("[rank1]: ", "[default1]:", "[1] "), else NFY_PROF_RANK_NONE (-1).
 */
#ifndef NPUIFY_PROFLOG_H
#define NPUIFY_PROFLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "apidb/apidb.h"
#include "core/core.h"

#define NFY_PROF_STEP_NONE (-1)
#define NFY_PROF_RANK_NONE (-1)

/* Which device a time column belongs to. ACCEL is CUDA, NPU, XPU, HPU, MTIA,
 * PRIVATEUSEONE... (the table's name for it is in nfy_prof_row.accel_name). */
typedef enum {
    NFY_PDEV_CPU = 0,
    NFY_PDEV_ACCEL = 1,
    NFY_PDEV__COUNT
} nfy_prof_dev;

/* nfy_prof_row.flags */
enum {
    NFY_PROW_NAME_TRUNCATED = 1u << 0,   /* name shown as 52 chars + "..." */
    NFY_PROW_SHAPES_TRUNCATED = 1u << 1, /* shape cell cut (unbalanced) */
    NFY_PROW_FROM_TRACE = 1u << 2,       /* made by the trace reader */
    NFY_PROW_HAS_SHAPES = 1u << 3,       /* the table had Input Shapes (a
                                            trace: the event had Input Dims);
                                            only such rows feed shape sets
                                            and the dynamic-shape verdicts */
    NFY_PROW_RAW_EVENT = 1u << 4,        /* one row = one call (raw table) */
    NFY_PROW_TABLE_CUT = 1u << 5,        /* its table ended without SEP */
    NFY_PROW_STEP_MARKER = 1u << 6       /* a ProfilerStep row/event */
};

/*
 * One profiler row (text table row or trace event). Every nfy_str is a view
 * valid only during the sink call (copy what you keep). Absent numeric cells
 * are NaN (times, memory, flops) or -1 (calls). Times are microseconds,
 * memory bytes (Kb = 1024 b), flops plain counts.
 */
typedef struct {
    nfy_str name;       /* as printed, without padding; may end with "..." */
    nfy_str overload;   /* 2.x "Overload Name" column; empty when absent */
    nfy_str shapes;     /* Input Shapes text "[[8, 20], []]"; empty if none */
    nfy_str source_loc; /* with_stack: the first frame in the user's code
                           ("model.py(9): forward"; torch's own frames
                           skipped, nfy_prof_frame_is_user), else the
                           first frame or empty */
    nfy_str accel_name; /* "CUDA", "NPU", ...; empty when no device columns */
    int64_t calls;      /* # of Calls (raw event rows and trace events: 1) */
    double self_us[NFY_PDEV__COUNT];        /* Self CPU / Self CUDA */
    double total_us[NFY_PDEV__COUNT];       /* CPU total / CUDA total */
    double self_pct[NFY_PDEV__COUNT];       /* Self CPU % / Self CUDA % */
    double mem_bytes[NFY_PDEV__COUNT];      /* CPU Mem / CUDA Mem */
    double self_mem_bytes[NFY_PDEV__COUNT]; /* Self CPU Mem / ... */
    double flops;    /* Total FLOPs column scaled to plain FLOPs */
    int32_t step;    /* step >= 0, NFY_PROF_STEP_NONE if unknown */
    int32_t rank;    /* NFY_PROF_RANK_NONE when no rank prefix */
    int32_t table;   /* 1-based ordinal of the table (per rank); 0 trace */
    uint32_t flags;  /* NFY_PROW_* */
    uint32_t line;   /* 1-based line of the row (0 for traces) */
    uint64_t offset; /* byte offset of the row / event in the input */
} nfy_prof_row;

/** Receives each row; return non-zero to stop reading (reader returns OK). */
typedef int (*nfy_prof_sink)(void *ctx, const nfy_prof_row *row);

/* Options shared by both readers. */
typedef struct {
    const char *path; /* display name in diagnostics ("-" for stdin) */
    nfy_diags *diags; /* may be NULL */
    nfy_prof_sink sink;
    void *ctx;
    size_t max_line; /* longest line/event kept (0: 1 MiB); longer ones
                        are cut, flagged in a diagnostic, and read on */
} nfy_proflog_opts;

/* ---- Text reader (src/proflog/text_*.c) -------------------------------- */

typedef struct nfy_proflog_text nfy_proflog_text;

/** A streaming text reader; feed it chunks of any size. Never NULL. */
nfy_proflog_text *nfy_prof_text_new(const nfy_proflog_opts *opts);
/**
 * Feed the next bytes (any split; UTF-16LE/BE with BOM and UTF-8 BOM are
 * detected from the first bytes and transcoded). NFY_OK or the sink's stop.
 */
nfy_status nfy_prof_text_feed(nfy_proflog_text *r, const void *data,
                              size_t len);
/** End of input: the last line and any open (cut) tables are flushed. */
nfy_status nfy_prof_text_finish(nfy_proflog_text *r);
/** Statistics: lines read, tables found, rows emitted, malformed rows. */
typedef struct {
    uint64_t lines, tables, rows, bad_rows, bytes;
} nfy_proflog_stats;
void nfy_prof_text_stats(const nfy_proflog_text *r, nfy_proflog_stats *st);
void nfy_prof_text_free(nfy_proflog_text *r);

/** Read a whole stream with the text reader (64 KiB chunks). */
nfy_status nfy_prof_read_text(FILE *in, const nfy_proflog_opts *opts);
/** Read a memory buffer with the text reader. */
nfy_status nfy_prof_read_text_mem(const void *data, size_t len,
                                  const nfy_proflog_opts *opts);

/* ---- Trace reader (implemented in src/proflog/trace_reader.c) ---------- */

/**
 * Read a chrome trace JSON file (legacy array or kineto object, plain or
 * gzip, detected from the bytes) at path and send one row per operator
 * event (ph "X"; cat cpu_op/Operator/user_annotation/... or legacy with no
 * cat) to opts->sink, streaming. Rows carry NFY_PROW_FROM_TRACE|RAW_EVENT,
 * calls 1, self/total times in us from "dur" (self = dur minus children
 * on the same thread, where computed), shapes rendered from "Input Dims" in
 * the table's text form ("[[1000], [1, 2048], []]", nested for TensorList),
 * step = N of the enclosing ProfilerStep#N window on the same thread
 * (NFY_PROF_STEP_NONE outside every window), rank from the trace's
 * "distributedInfo" rank when present (else NFY_PROF_RANK_NONE), and
 * NFY_PROW_STEP_MARKER on the ProfilerStep events themselves. Invalid JSON
 * gives a diagnostic with line:col and the events before it are kept.
 */
nfy_status nfy_prof_read_trace(const char *path, const nfy_proflog_opts *opts);

/** True when the bytes look like a JSON trace: gzip magic, or (after an
 *  optional UTF-8 BOM and blanks) '{', or '[' followed by '{' or ']' (so
 *  "[rank0]: ..." stays text). Used by `npuify ops` to choose the reader.
 *  Implemented on the text side (src/proflog/text_cells.c). */
bool nfy_prof_sniff_trace(const void *head, size_t len);

/* ---- Cells (exposed for tests) ----------------------------------------- */

/** "12.345us", "1.2ms", "3.000s", "-16028.000us" -> us; false if not a time. */
bool nfy_prof_parse_time(nfy_str cell, double *us);
/** "12.34%", "-0.24%", "NaN", "0" -> percent; false if not a percent. */
bool nfy_prof_parse_pct(nfy_str cell, double *pct);
/** "0 b", "283.77 Kb", "-128.12 Kb", "1.5 GB" -> bytes; false otherwise. */
bool nfy_prof_parse_mem(nfy_str cell, double *bytes);
/** True when the brackets of a shape cell do not balance (cut cell). */
bool nfy_prof_shapes_truncated(nfy_str shapes);

/* ---- Operator model (src/proflog/op_table.c, op_classify.c) ------------ */

/* What a row name is (profiler_formats.md section 4). */
typedef enum {
    NFY_PKIND_OP,         /* dispatcher op: aten::, prim::, ns::op, bare old */
    NFY_PKIND_COMM,       /* collectives: c10d::, nccl:, pg::, hccl */
    NFY_PKIND_AUTOGRAD,   /* AddmmBackward0, autograd::engine::... */
    NFY_PKIND_ANNOTATION, /* record_function labels, Optimizer.step#.. */
    NFY_PKIND_STEP,       /* ProfilerStep* / ProfilerStep#N */
    NFY_PKIND_COMPILE,    /* Torch-Compiled Region, triton_*, inductor:: */
    NFY_PKIND_RUNTIME,    /* cudaLaunchKernel, aclrt*, hipMemcpy ... */
    NFY_PKIND_KERNEL,     /* device kernels, Memcpy/Memset */
    NFY_PKIND__COUNT
} nfy_prof_kind;

const char *nfy_prof_kind_name(nfy_prof_kind k);
/** Classify a printed name (possibly truncated). A bare lower-case name
 *  (torch <= 1.5 printed "addmm", "conv2d") is an OP when apidb knows
 *  aten::<name>, else a user annotation. */
nfy_prof_kind nfy_prof_classify(nfy_str name);
/** "aten::add" for an OP kind name printed bare ("add"), else name;
 *  the result lives in arena a when it had to be built. */
nfy_str nfy_prof_qualified(nfy_arena *a, nfy_str name);

/* One distinct input-shape text of an op. */
typedef struct {
    nfy_str text;  /* arena copy */
    uint64_t hash; /* hash of text, to compare fast */
    int64_t calls;
    int32_t first_step; /* NFY_PROF_STEP_NONE if never in a step */
    bool truncated;
} nfy_prof_shape;

typedef NFY_VEC(nfy_prof_shape) nfy_prof_shape_vec;

/* A call in the user's source that can dispatch a site's op, in the
 * function the frame names (found in the source by the caller of the
 * readers: src/analyse/op_calls.c). */
typedef struct {
    uint32_t line, col; /* 1-based */
    nfy_str api;        /* "torch.heaviside", "Tensor.heaviside" */
    nfy_str function;   /* "Net.forward" */
} nfy_prof_call;

/* One source site of an op: the user's frame its calls came from
 * (with_stack). text is interned in the table (one copy per distinct
 * frame, whatever the number of ops or rows naming it). */
typedef struct {
    nfy_str text; /* "model.py(9): forward" as the profiler printed it */
    int64_t calls;
    double self_us; /* host plus device self time */
    /* The candidate calls, best first (none when the source was not
       read or holds no call of the op's name); owned by whoever set
       them, which outlives the reports. */
    const nfy_prof_call *in_source;
    uint32_t nin_source;
} nfy_prof_site;

typedef NFY_VEC(nfy_prof_site) nfy_prof_site_vec;

/* Distinct sites kept per op; calls from further sites add to
 * nfy_prof_op.other_site_calls. */
#define NFY_PROF_SITES_MAX 32

/** True when a profiler frame is in the user's code: not torch's own
 *  ("torch/...", ".../site-packages/torch/..."), not "<built-in ...>",
 *  "<frozen runpy>" or another "<...>", not an "nn.Module: X" marker. */
bool nfy_prof_frame_is_user(nfy_str frame);
/** "model.py(9): forward" -> file "model.py", line 9, func "forward"
 *  (file is the whole frame and line 0 when it has no "(N)"). */
void nfy_prof_site_parts(nfy_str frame, nfy_str *file, uint32_t *line,
                         nfy_str *func);
/** The first user frame of a sep-separated frame list ("a;b;c"), or an
 *  empty string. */
nfy_str nfy_prof_first_user_frame(nfy_str frames, char sep);
typedef NFY_VEC(int32_t) nfy_prof_step_vec;

/* Dynamic-shape verdict of one op (relative to the reference step). */
typedef enum {
    NFY_PDYN_STATIC,        /* same shapes in every step */
    NFY_PDYN_NEW_LATER,     /* absent from the reference step */
    NFY_PDYN_SHAPE_CHANGED, /* present there, new shapes later */
    NFY_PDYN_POSSIBLE       /* the input cannot tell steps apart (one
                               table, a trace without step markers) and
                               the op has several input shapes */
} nfy_prof_dyn;

/* Support status on torch_npu (filled by nfy_prof_table_check). */
typedef enum {
    NFY_PSTAT_UNCHECKED, /* not an operator, or no check was run */
    NFY_PSTAT_SUPPORTED,
    NFY_PSTAT_FALLBACK, /* runs on CPU (fallback) */
    NFY_PSTAT_UNSUPPORTED,
    NFY_PSTAT_COMPOSITE, /* CompositeImplicitAutograd: needs no kernel */
    NFY_PSTAT_UNKNOWN    /* not in the data for that version */
} nfy_prof_status;

const char *nfy_prof_status_name(nfy_prof_status s);

/* One distinct name (an op or any other row kind). */
typedef struct {
    nfy_str name;      /* arena copy, as printed (maybe "...") */
    nfy_str full_name; /* unique-prefix match for a truncated name, or
                          the name itself */
    nfy_str overload;  /* first overload seen, may be empty */
    nfy_prof_kind kind;
    int64_t calls;
    double self_us[NFY_PDEV__COUNT];
    double total_us[NFY_PDEV__COUNT];
    nfy_prof_shape_vec shapes;
    nfy_prof_site_vec sites;  /* by first seen; at most NFY_PROF_SITES_MAX */
    int64_t other_site_calls; /* calls from sites past that cap */
    uint32_t *shape_index;    /* open-addressing hash over shapes (slot ->
                                 shapes index + 1); NULL while there are few */
    size_t shape_index_cap;
    nfy_prof_step_vec steps;       /* sorted, unique, steps >= 0 only */
    nfy_prof_step_vec shape_steps; /* the same, rows of tables with shapes */
    int32_t first_step;            /* NFY_PROF_STEP_NONE if in no step */
    uint32_t first_line;           /* first row of it in the first input */
    uint32_t flags;                /* OR of its rows' NFY_PROW_* */
    uint32_t ranks;                /* bit r set: seen on rank r (r < 32) */
    nfy_prof_dyn dyn;
    nfy_prof_status status;
    nfy_str first_version;   /* --compare-versions: first torch_npu version
                                newer than the target supporting it; empty
                                when none */
    nfy_str npu_counterpart; /* a CUDA/ROCm-only kernel: the operator that
                                replaces it on NPU and gave the status */
    nfy_str counterpart_note;
    nfy_str ambiguity;       /* truncated name matching several ops: "a|b" */
    uint32_t cut_candidates; /* cut name the input never printed in full:
                                the number of known operators it could be
                                when more than one (nfy_prof_table_check) */
    bool cut_from_known;     /* full_name: the one known operator the cut
                                name could be (nfy_prof_table_check) */
} nfy_prof_op;

typedef NFY_VEC(nfy_prof_op) nfy_prof_op_vec;

typedef struct {
    nfy_prof_op_vec ops; /* in first-seen order until nfy_prof_table_sort */
    uint32_t *index;     /* open-addressing hash: slot -> ops index + 1 */
    size_t index_cap;
    nfy_str *site_index; /* interned site texts (open addressing) */
    size_t site_cap, nsites;
    nfy_arena arena;
    nfy_prof_step_vec steps; /* all steps seen, sorted unique */
    uint64_t rows;
    uint64_t tables;
    bool any_shapes;     /* some table had an Input Shapes column */
    bool steps_apart;    /* nfy_prof_table_dynamic had two steps or more
                            to compare (else verdicts are POSSIBLE) */
    char accel_name[16]; /* first device name seen ("CUDA"), or "" */
} nfy_prof_table;

void nfy_prof_table_init(nfy_prof_table *t);
void nfy_prof_table_release(nfy_prof_table *t);
/** Add one row (copies what it keeps). */
void nfy_prof_table_add(nfy_prof_table *t, const nfy_prof_row *row);
/** An nfy_prof_sink that adds to the nfy_prof_table in ctx. */
int nfy_prof_table_sink(void *ctx, const nfy_prof_row *row);
/** Find an op by exact printed name; NULL when absent. */
nfy_prof_op *nfy_prof_table_find(nfy_prof_table *t, nfy_str name);

/**
 * Compute each op's dynamic-shape verdict against ref_step (negative: the
 * first step seen). Ops of kind STEP are left STATIC. When the rows
 * compared hold fewer than two steps, no verdict can be had from steps:
 * an op with several distinct input shapes is then POSSIBLE.
 */
void nfy_prof_table_dynamic(nfy_prof_table *t, int32_t ref_step);

/**
 * Sort ops deterministically: by kind, then self time (CPU + ACCEL)
 * descending, then calls descending, then name. The hash index is rebuilt.
 */
void nfy_prof_table_sort(nfy_prof_table *t);

/* ---- Analysis (src/proflog/op_check.c) --------------------------------- */

/**
 * Resolve names cut to 52 chars + "..." by unique prefix among the table's
 * other (uncut) names: full_name is set on a unique match, ambiguity lists
 * the candidates ("a|b") on several.
 */
void nfy_prof_table_resolve_truncated(nfy_prof_table *t);

/**
 * Set status for OP/COMM kind entries from apidb for version v (NULL: the
 * default); with compare_versions, first_version names the oldest torch_npu
 * version newer than v supporting each op that v does not support. A
 * CUDA/ROCm-only kernel (cudnn_convolution) takes the status of its NPU
 * counterpart, named in npu_counterpart. A cut name that
 * nfy_prof_table_resolve_truncated could not resolve (no full name in the
 * input) is looked up among the operators apidb knows for v
 * (nfy_apidb_op_prefix): one match resolves it (cut_from_known), several
 * leave it cut with cut_candidates set.
 */
void nfy_prof_table_check(nfy_prof_table *t, const nfy_apidb_version *v,
                          bool compare_versions);

/* ---- Queries for the report writers (src/report/ops*.c) ---------------- */

/** Operator counts used by the summaries. */
typedef struct {
    size_t names, ops, supported, fallback, unsupported, composite, unknown,
        dynamic, possible, truncated; /* possible: NFY_PDYN_POSSIBLE */
} nfy_prof_counts;

void nfy_prof_table_counts(const nfy_prof_table *t, nfy_prof_counts *c);

/** Operators proper (aten and collectives), not annotations or steps. */
bool nfy_prof_op_is_operator(const nfy_prof_op *op);
/** Self time on the host plus the accelerator, in microseconds. */
double nfy_prof_op_self_time(const nfy_prof_op *op);
/** Sum of self times of every row but the steps (the share's base). */
double nfy_prof_table_self_time(const nfy_prof_table *t);
/** "new-in-later-step", "shape-changed", "possibly-dynamic" or "static". */
const char *nfy_prof_dyn_name(nfy_prof_dyn d);
/** order[0..op->sites.len) = op's site indices, most calls first. */
void nfy_prof_op_sites_by_calls(const nfy_prof_op *op, size_t *order);
/**
 * The one sentence every report gives on dynamic shapes, in plain text:
 * "N dynamic-shape operators (reference step R of S)", or, when the input
 * cannot tell steps apart, why ("no step markers" / "one step only") and
 * the operators with several input shapes as possibly dynamic.
 */
void nfy_prof_dynamic_phrase(const nfy_prof_table *t, const nfy_prof_counts *c,
                             int32_t ref, nfy_buf *out);

#endif
