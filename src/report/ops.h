/*
 * The operator report of `npuify ops`: all_ops.txt (Huawei's file: one
 * operator per line), ops.csv and dynamic_ops.csv (ops_report.c),
 * report.json and summary.md (ops_doc.c), report.html (ops_html.c) and
 * ops.sarif (ops_sarif.c), rendered from a sorted nfy_prof_table through
 * proflog's queries: proflog reads, report writes.
 */
#ifndef NPUIFY_REPORT_OPS_H
#define NPUIFY_REPORT_OPS_H

#include "core/core.h"
#include "proflog/proflog.h"
#include "report/report.h"

/* One input as the report lists it. */
typedef struct {
    const char *path;
    const char *format; /* "text" or "trace" */
    nfy_proflog_stats stats;
    unsigned errors; /* error diagnostics for this input */
} nfy_prof_input_info;

typedef struct {
    const nfy_apidb_version *version; /* the target checked */
    const nfy_prof_input_info *inputs;
    size_t ninputs;
    int32_t ref_step; /* reference step used for dynamic ops */
    bool compare_versions;
    unsigned formats;       /* NFY_REPORT_* of nfy_report_formats_of(OPS): csv
                               (ops.csv, dynamic_ops.csv), json, md, html,
                               sarif (ops.sarif); all_ops.txt is always written */
    const nfy_diags *diags; /* listed in report.html; may be NULL */
} nfy_prof_report_meta;

/**
 * Write all_ops.txt and the files m->formats asks for into dir (created),
 * atomically, deterministically (no timestamps). t must have been sorted
 * (nfy_prof_table_sort).
 */
nfy_status nfy_report_prof_report_write(const nfy_prof_table *t,
                                        const nfy_prof_report_meta *m,
                                        const char *dir, nfy_diags *diags);

/** Render the ops.csv / dynamic_ops.csv / all_ops.txt / report.json /
 *  summary.md / report.html / ops.sarif text into out (used by the writer
 *  and by tests). m may be NULL only for the CSV renderers. */
void nfy_report_prof_render_all_ops(const nfy_prof_table *t, nfy_buf *out);
void nfy_report_prof_render_ops_csv(const nfy_prof_table *t,
                                    const nfy_prof_report_meta *m,
                                    nfy_buf *out);
void nfy_report_prof_render_dynamic_csv(const nfy_prof_table *t,
                                        const nfy_prof_report_meta *m,
                                        nfy_buf *out);
void nfy_report_prof_render_json(const nfy_prof_table *t,
                                 const nfy_prof_report_meta *m, nfy_buf *out);
void nfy_report_prof_render_md(const nfy_prof_table *t,
                               const nfy_prof_report_meta *m, nfy_buf *out);
/**
 * report.html: one self-contained page (inline CSS, a small inline script
 * that only sorts tables): summary, unsupported / CPU-fallback operators by
 * self time, every operator, dynamic-shape operators, m->diags with
 * input:line. Every text from the input is HTML-escaped.
 */
void nfy_report_prof_render_html(const nfy_prof_table *t,
                                 const nfy_prof_report_meta *m, nfy_buf *out);
/** ops.sarif: each unsupported / cpu-fallback operator at each of its
 *  sites (SARIF 2.1.0). */
void nfy_report_prof_render_sarif(const nfy_prof_table *t,
                                  const nfy_prof_report_meta *m, nfy_buf *out);

/* Text the ops renderers share (ops_report.c). */

/** Append a decimal integer (printf is slow for thousands of step ranges). */
void nfy__report_ops_add_int(nfy_buf *b, long long v);
/** "1-3 5 7-9": a sorted step list as runs (tmp is reset first). */
void nfy__report_ops_join_steps(const nfy_prof_step_vec *v, nfy_buf *tmp);
/** The Notes text of ops.csv (cut names, cut shapes...); tmp reset. */
void nfy__report_ops_notes(const nfy_prof_op *op, nfy_buf *tmp);
/** "model.py:9 forward (2 calls, 0.69%); ..." most calls first; tmp
 *  reset. total: the share's base (nfy_prof_table_self_time). */
void nfy__report_ops_join_sites(const nfy_prof_op *op, double total,
                                nfy_buf *tmp);

/* The operator selections the ops tables list (ops_report.c). */

/** An operator the NPU does not run natively: unsupported or fallback. */
bool nfy__report_ops_needs_work(const nfy_prof_op *op);
/** An operator the torch_npu data does not know. */
bool nfy__report_ops_unknown(const nfy_prof_op *op);

/* One call site of an operator, most calls first, split into its parts. */
typedef struct {
    const nfy_prof_site *site;
    nfy_str file, func;
    uint32_t line;
} nfy__ops_site;

/** Site k of op in order (from nfy_prof_op_sites_by_calls), split. */
nfy__ops_site nfy__report_ops_site(const nfy_prof_op *op, const size_t *order,
                                   size_t k);

#endif
