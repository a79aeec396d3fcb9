/*
 * npuify npuprof: the Ascend NPU's own profile, read and explained.
 *
 * The Ascend PyTorch Profiler (torch_npu.profiler) writes a directory
 * `<host>_<pid>_<time>_ascend_pt/` whose ASCEND_PROFILER_OUTPUT/ holds
 * kernel_details.csv (one row per device task), op_statistic.csv (per
 * operator type and core), trace_view.json (chrome trace: framework ops,
 * CANN, Ascend Hardware, HCCL, Overlap Analysis) and, with
 * export_type=db, ascend_pytorch_profiler_*.db (SQLite). The readers
 * (csv.c, kernels.c, trace_view.c, db.c, dir.c) fill one nfy_npu_profile;
 * findings.c says why it is slow (AI_CPU kernels, FP32 matrix work off the
 * Cube units, HCCL share, device idle between kernels, unfused
 * optimizers, top kernels); compare.c joins its framework operators with
 * a CUDA profile's (read by proflog); render.c writes the reports.
 * Column names and tables: docs/npu_profile_formats.md.
 *
 * Bad input never crashes: every reader reports FILE:LINE:COL in diags
 * and keeps what it read before the fault. Times are microseconds; an
 * absent number is NaN.
 */
#ifndef NPUIFY_NPUPROF_H
#define NPUIFY_NPUPROF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/core.h"
#include "proflog/proflog.h"

#define NFY_NPU_STEP_NONE (-1)

/* "Accelerator Core" (kernel_details) / "Core Type" (op_statistic) /
 * taskType (db). */
typedef enum {
    NFY_NCORE_OTHER,
    NFY_NCORE_AI_CORE,   /* AI_CORE: Cube (and vector) on the AI Core */
    NFY_NCORE_AI_VECTOR, /* AI_VECTOR_CORE: vector units only */
    NFY_NCORE_AI_CPU,    /* AI_CPU: the slow path */
    NFY_NCORE_MIX,       /* MIX_AIC / MIX_AIV */
    NFY_NCORE_HCCL,      /* communication tasks */
    NFY_NCORE__COUNT
} nfy_npu_core;

const char *nfy_npuprof_core_name(nfy_npu_core c);
/** "AI_CORE", "AI_VECTOR_CORE", "AI_CPU", "MIX_AIC", "HCCL"... */
nfy_npu_core nfy_npuprof_core_parse(nfy_str s);

/* One device task (kernel_details row, db COMPUTE_TASK_INFO/TASK row or
 * COMMUNICATION_OP row). Strings are interned in the profile's arena. */
typedef struct {
    nfy_str name, type, shapes, dtypes;
    nfy_npu_core core;
    int32_t step;     /* Step Id, or NFY_NPU_STEP_NONE */
    double start_us;  /* Start Time(us) */
    double dur_us;    /* Duration(us) */
    double wait_us;   /* Wait Time(us), NaN when absent */
    double mac_ratio; /* aic_mac_ratio (aic_metrics), NaN when absent */
    uint32_t line;    /* CSV line (0 for db) */
} nfy_npu_kernel;

/* One op_statistic.csv row. */
typedef struct {
    nfy_str type;
    nfy_npu_core core;
    int64_t count;
    double total_us, avg_us, max_us, ratio;
} nfy_npu_opstat;

/* A framework operator (trace_view cpu_op / db PYTORCH_API), by name. */
typedef struct {
    nfy_str name;
    int64_t calls;
    double host_us;   /* sum of the events' dur */
    double device_us; /* kernels reached by its async_npu flows */
} nfy_npu_hostop;

/* Timeline totals from trace_view.json. */
typedef struct {
    bool overlap; /* an "Overlap Analysis" process was seen */
    double computing_us, communication_us, comm_not_overlapped_us, free_us;
    int64_t enqueue_n, dequeue_n;
    double enqueue_us, dequeue_us;
    int64_t flows; /* async_npu flows linked to a kernel */
} nfy_npu_timeline;

typedef NFY_VEC(nfy_npu_kernel) nfy_npu_kernel_vec;
typedef NFY_VEC(nfy_npu_opstat) nfy_npu_opstat_vec;
typedef NFY_VEC(nfy_npu_hostop) nfy_npu_hostop_vec;

/* Which files fed the profile (paths in the arena; NULL when absent). */
typedef struct {
    const char *dir, *kernel_details, *op_statistic, *trace_view, *db;
} nfy_npu_sources;

typedef struct {
    nfy_arena arena;
    nfy_str *intern; /* open addressing over interned strings */
    size_t intern_cap, intern_len;
    nfy_npu_kernel_vec kernels;
    nfy_npu_opstat_vec opstats;
    nfy_npu_hostop_vec hostops;
    uint32_t *hostop_index; /* slot -> hostops index + 1 */
    size_t hostop_cap;
    nfy_npu_timeline tl;
    nfy_npu_sources src;
    uint64_t bad_rows; /* rows skipped (wrong cell count, bad numbers) */
} nfy_npu_profile;

void nfy_npuprof_profile_init(nfy_npu_profile *p);
void nfy_npuprof_profile_release(nfy_npu_profile *p);
/** One arena copy per distinct string. */
nfy_str nfy_npuprof_intern(nfy_npu_profile *p, nfy_str s);
/** The host op named name, created on first use. */
nfy_npu_hostop *nfy_npuprof_hostop_get(nfy_npu_profile *p, nfy_str name);
/** The host op named name, or NULL. */
const nfy_npu_hostop *nfy_npuprof_hostop_find(const nfy_npu_profile *p,
                                              nfy_str name);

/* ---- CSV (csv.c) ----------------------------------------------------------
 */

/* One record: cells are views valid during the call, trimmed of blanks
 * and tabs (torch_npu ends big numbers with "\t" for spreadsheets). */
typedef int (*nfy_npu_csv_row_fn)(void *ctx, const nfy_str *cells, size_t n,
                                  uint32_t line);

typedef struct {
    const char *path; /* for diagnostics */
    nfy_diags *diags; /* may be NULL */
    size_t max_field; /* longest cell kept (0: 64 KiB); longer are cut */
    size_t max_cells; /* cells kept per record (0: 512) */
    nfy_npu_csv_row_fn row;
    void *ctx;
} nfy_npu_csv_opts;

/** RFC 4180 (quotes, "" escapes, CRLF, BOM); an unterminated quote is an
 *  error at the line:col where it opened. NFY_OK or NFY_ESYNTAX. */
nfy_status nfy_npuprof_csv_read_mem(const char *data, size_t len,
                                    const nfy_npu_csv_opts *o);
nfy_status nfy_npuprof_csv_read_file(const char *path,
                                     const nfy_npu_csv_opts *o);

/* ---- Readers (kernels.c, trace_view.c, db.c, dir.c) -----------------------
 */

/** kernel_details.csv (or an msprof op_summary_*.csv: Op Name, OP Type,
 *  Task Type, Task Start Time(us)... are read as their aliases). */
nfy_status nfy_npuprof_read_kernel_details(nfy_npu_profile *p, const char *path,
                                           nfy_diags *d);
nfy_status nfy_npuprof_read_op_statistic(nfy_npu_profile *p, const char *path,
                                         nfy_diags *d);
/** trace_view.json: framework ops (cat cpu_op), async_npu flows to Ascend
 *  Hardware tasks, Enqueue/Dequeue, Overlap Analysis. */
nfy_status nfy_npuprof_read_trace_view(nfy_npu_profile *p, const char *path,
                                       nfy_diags *d);
/** ascend_pytorch_profiler*.db / analysis.db: tables COMPUTE_TASK_INFO,
 *  TASK, STRING_IDS, COMMUNICATION_OP, PYTORCH_API, STEP_TIME. */
nfy_status nfy_npuprof_read_db(nfy_npu_profile *p, const char *path,
                               nfy_diags *d);
/** A *_ascend_pt directory, its ASCEND_PROFILER_OUTPUT, or a directory
 *  holding the files: reads what is there (kernel_details.csv before the
 *  db's tasks: one source of kernels). NFY_ENOENT when nothing is found. */
nfy_status nfy_npuprof_read_dir(nfy_npu_profile *p, const char *dir,
                                nfy_diags *d);
/** True when dir looks like an NPU profile directory. */
bool nfy_npuprof_is_profile_dir(const char *dir);

/* ---- Findings (findings.c) ------------------------------------------------
 */

typedef enum {
    NFY_NFIND_AI_CPU,        /* NPU801 */
    NFY_NFIND_FP32_MATMUL,   /* NPU802 */
    NFY_NFIND_HCCL,          /* NPU803 */
    NFY_NFIND_HOST_BOUND,    /* NPU804 */
    NFY_NFIND_SMALL_KERNELS, /* NPU805 */
    NFY_NFIND_OPTIMIZER,     /* NPU806 */
    NFY_NFIND__COUNT
} nfy_npu_find_kind;

typedef struct {
    nfy_npu_find_kind kind;
    const char *code;  /* "NPU801" */
    const char *title; /* one line */
    nfy_severity sev;
    double time_us; /* device time concerned */
    double share;   /* of kernel time, 0..1 */
    int64_t count;  /* kernels concerned */
    char *evidence; /* sentences with numbers and names (arena) */
    char *ops;      /* "Cast (AI_CPU, INT64), ..." (arena) */
    const char *advice;
} nfy_npu_finding;

/* One row of the per-type summary (top kernels by time). */
typedef struct {
    nfy_str type, dtypes;
    nfy_str shapes; /* input shapes of the first kernel seen */
    nfy_npu_core core;
    int64_t count;
    double total_us, max_us;
} nfy_npu_typesum;

typedef struct {
    nfy_arena arena;
    NFY_VEC(nfy_npu_finding) items;
    NFY_VEC(nfy_npu_typesum) types; /* by total time, descending */
    double kernel_us;               /* sum of all kernel durations */
    double span_us, busy_us;        /* first start..last end; union */
    double core_us[NFY_NCORE__COUNT];
    int64_t kernels, steps;
    double step_us; /* kernel time per step (steps > 0) */
} nfy_npu_analysis;

void nfy_npuprof_analyse(const nfy_npu_profile *p, nfy_npu_analysis *a);
void nfy_npuprof_analysis_release(nfy_npu_analysis *a);

/* ---- Compare (compare.c) --------------------------------------------------
 */

typedef struct {
    nfy_str name;
    bool on_gpu, on_npu;
    int64_t gpu_calls, npu_calls;
    double gpu_us, npu_us;       /* device time per step (or total); host
                                    time when by_host */
    double gpu_share, npu_share; /* of that side's operator device time */
    double gpu_host_us, npu_host_us;
} nfy_npu_cmp_row;

typedef struct {
    NFY_VEC(nfy_npu_cmp_row) rows; /* biggest regressions first */
    double gpu_total_us, npu_total_us;
    int64_t gpu_steps, npu_steps; /* divisors used (1 when unknown) */
    size_t only_gpu, only_npu, both;
    bool by_host; /* the GPU side had no device times: host times compared */
} nfy_npu_compare;

/** Join the operators (kind OP or COMM) of a CUDA profile's table with
 *  the NPU profile's framework operators by name. */
void nfy_npuprof_compare_build(const nfy_prof_table *gpu,
                               const nfy_npu_profile *p, nfy_npu_compare *c);
void nfy_npuprof_compare_release(nfy_npu_compare *c);

/* ---- Reports (render.c) ---------------------------------------------------
 */

void nfy_npuprof_render_md(const nfy_npu_profile *p, const nfy_npu_analysis *a,
                           nfy_buf *out);
void nfy_npuprof_render_json(const nfy_npu_profile *p,
                             const nfy_npu_analysis *a, nfy_buf *out);
void nfy_npuprof_render_types_csv(const nfy_npu_analysis *a, nfy_buf *out);
void nfy_npuprof_render_html(const nfy_npu_profile *p,
                             const nfy_npu_analysis *a, nfy_buf *out);
void nfy_npuprof_render_compare_md(const nfy_npu_compare *c, nfy_buf *out);
void nfy_npuprof_render_compare_csv(const nfy_npu_compare *c, nfy_buf *out);
/** npu_summary.md, npu_report.json, npu_types.csv, npu_report.html and,
 *  with c, compare.md
 *  and compare.csv into dir (created); deterministic, atomic. */
nfy_status nfy_npuprof_write_reports(const nfy_npu_profile *p,
                                     const nfy_npu_analysis *a,
                                     const nfy_npu_compare *c, const char *dir);

#endif
