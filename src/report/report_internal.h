/*
 * Helpers shared by the report writers (not public): the common sort order,
 * per-rule counting and small text helpers.
 */
#ifndef NPUIFY_REPORT_INTERNAL_H
#define NPUIFY_REPORT_INTERNAL_H

#include "report/report.h"

/* The report's one copy of the n bytes at s (NULL stays NULL). */
const char *nfy__report_intern(nfy_report *rep, const char *s, size_t n);
const char *nfy__report_intern_cstr(nfy_report *rep, const char *s);
void nfy__report_strings_release(nfy_report *rep);
/* The id of the report's copy of s (0 for NULL), and the string of an id. */
uint32_t nfy__report_intern_id(nfy_report *rep, const char *s, size_t n);
uint32_t nfy__report_intern_cstr_id(nfy_report *rep, const char *s);
static inline const char *nfy__report_string(const nfy_report *rep, uint32_t id)
{
    return id ? rep->by_id.items[id - 1].s : NULL;
}
/* Sealed finding i, and freeing them all. */
static inline const nfy_report_row *nfy__report_row(const nfy_report *rep,
                                                    size_t i)
{
    return &rep->row_chunks
                .items[i / NFY_REPORT_ROW_CHUNK][i % NFY_REPORT_ROW_CHUNK];
}
void nfy__report_rows_release(nfy_report *rep);
/* Finding i with only what its row holds itself (file, rule, position,
 * category, operation, safety, rule severity; the other strings NULL):
 * enough for every filter, and cheap. An open finding comes whole. */
const nfy_finding *nfy__report_finding_head(const nfy_report *rep, size_t i,
                                            nfy_finding *buf);
/* The strings of r other than file and rule, into f. */
void nfy__report_row_extra(const nfy_report *rep, const nfy_report_row *r,
                           nfy_finding *f);

/* Every finding of a report in report order, as indices (what the writers
 * walk: sealed findings are decoded one at a time, never all at once). */
typedef struct {
    const nfy_report *rep;
    size_t *order;
    size_t n;
} nfy__sorted;

void nfy__report_sorted_init(nfy__sorted *v, const nfy_report *rep);
void nfy__report_sorted_release(nfy__sorted *v);
/* Finding k of the order: the open finding itself, or a sealed one decoded
 * into *buf (valid until buf is reused). */
const nfy_finding *nfy__report_sorted_at(const nfy__sorted *v, size_t k,
                                         nfy_finding *buf);
/* Finding k of the order as nfy__report_finding_head gives it. */
const nfy_finding *nfy__report_sorted_head(const nfy__sorted *v, size_t k,
                                           nfy_finding *buf);
/* The file of finding k (NULL: project-wide), without decoding the rest. */
const char *nfy__report_sorted_file(const nfy__sorted *v, size_t k);

/* strcmp with NULL sorting before every string. */
int nfy__report_strcmp(const char *a, const char *b);
/* Three-way compare of two unsigned keys. */
static inline int nfy__report_cmp_u32(uint32_t a, uint32_t b)
{
    return (a > b) - (a < b);
}

/* The span keys of the report order, which an open finding and a sealed row
 * both carry: NFY__REPORT_SPAN(f) takes them from either. */
typedef struct {
    uint32_t start_line, start_col, end_line, end_col;
} nfy__span;

#define NFY__REPORT_SPAN(x)                                                    \
    ((nfy__span){(x)->start_line, (x)->start_col, (x)->end_line, (x)->end_col})

/* Start line, start column, end line, end column: the order's span keys. */
static inline int nfy__report_cmp_span(nfy__span a, nfy__span b)
{
    int c = nfy__report_cmp_u32(a.start_line, b.start_line);
    if (!c)
        c = nfy__report_cmp_u32(a.start_col, b.start_col);
    if (!c)
        c = nfy__report_cmp_u32(a.end_line, b.end_line);
    if (!c)
        c = nfy__report_cmp_u32(a.end_col, b.end_col);
    return c;
}
/* The report order: file, start, end, rule, category, message, the rest. */
int nfy__report_cmp_finding(const nfy_finding *a, const nfy_finding *b);
/* Files sorted by path; caller frees *out. */
size_t nfy__report_sorted_files(const nfy_report *rep,
                                const nfy_report_file ***out);

/* One rule id with how many findings carry it. */
typedef struct {
    const char *rule;
    size_t count;
} nfy__rule_count;

typedef NFY_VEC(nfy__rule_count) nfy__rule_count_vec;

/* Which findings a count or listing covers (given a finding as
 * nfy__report_finding_head decodes it: the row's own fields only). */
typedef bool (*nfy__finding_pred)(const nfy_finding *f);

bool nfy__report_is_change(const nfy_finding *f);
bool nfy__report_any_finding(const nfy_finding *f);
/* Not a change, and needs a human (nfy_report_finding_is_manual). */
bool nfy__report_is_manual_finding(const nfy_finding *f);
/* Not a change, not manual, not left unchanged: advice, unknown, ... */
bool nfy__report_is_other_finding(const nfy_finding *f);
bool nfy__report_is_left_unchanged(const nfy_finding *f);

/* Counts per rule id of the findings matching pred, sorted by rule id. */
void nfy__report_rule_counts(const nfy_report *rep, nfy__finding_pred pred,
                             nfy__rule_count_vec *out);
/* The same, ordered by count (descending), then rule id. */
void nfy__report_rule_counts_by_count(nfy__rule_count_vec *v);

/* "file:line:col" (1-based column, as compilers print) or "project" for a
 * project-wide finding. */
void nfy__report_add_location(nfy_buf *out, const nfy_finding *f);
/* The same with the file as the user opens it from the current directory:
 * root (SRC as given; NULL: none) joined with the file. */
void nfy__report_add_location_in(nfy_buf *out, const char *root,
                                 const nfy_finding *f);
/* root joined with file by one '/' ("a/" + "b.py": "a/b.py"); file alone
 * when root is NULL, root alone when file is. */
void nfy__report_add_path_in(nfy_buf *out, const char *root, const char *file);
/* s with each line break (CR, LF, CRLF) as one space: one log line. */
void nfy__report_add_oneline(nfy_buf *out, const char *s);
/* Create the output directory dir (and its parents); on failure add an
 * error under rule, "cannot create the <what> directory: <why>", to diags
 * (NULL: none) and return the status. */
nfy_status nfy__report_mkdir_out(const char *dir, const char *rule,
                                 const char *what, nfy_diags *diags);
/* A string or "" for NULL. */
const char *nfy__report_empty(const char *s);
/* Findings of one file: [*first, *end) of the sorted order. */
void nfy__report_file_range(const nfy__sorted *v, const char *file,
                            size_t *first, size_t *end);
/* What the files table shows for one file: its edits (change findings) and
 * the rest of its findings, counted over its range of the sorted order. */
typedef struct {
    size_t edits;
    size_t findings;
} nfy__file_counts;

nfy__file_counts nfy__report_file_counts(const nfy__sorted *v,
                                         const char *file);

/* The writers over an order already made: nfy_report_write sorts once for
 * every file it writes (each nfy_report_render_* sorts for itself, through
 * nfy__report_render_sorted). */
typedef void (*nfy__render_fn)(const nfy__sorted *v, nfy_buf *out);
/* fn over rep's findings in the report order, made for this call. */
void nfy__report_render_sorted(const nfy_report *rep, nfy__render_fn fn,
                               nfy_buf *out);
void nfy__report_render_log(const nfy__sorted *v, nfy_buf *out);
void nfy__report_render_json(const nfy__sorted *v, nfy_buf *out);
void nfy__report_render_md(const nfy__sorted *v, nfy_buf *out);
void nfy__report_render_sarif(const nfy__sorted *v, nfy_buf *out);
void nfy__report_render_html(const nfy__sorted *v, nfy_buf *out);
void nfy__report_render_csv(const nfy__sorted *v, nfy_csv_kind kind,
                            nfy_buf *out);
/* nfy_report_effort over the order v. */
nfy_effort nfy__report_effort(const nfy__sorted *v, const char *file,
                              nfy_effort_counts *counts);

/* "The level is high because of 3 custom kernel findings (NPU504 x2,
 * NPU705 x1)." for level e with counts c. */
void nfy__report_effort_drivers(const nfy_report *rep, nfy_effort e,
                                const nfy_effort_counts *c, nfy_buf *out);
/* Whether rep is an assessment (`npuify analyse`): nothing was written into
 * SRC, so the edits are what convert would make. */
bool nfy__report_is_analyse(const nfy_report *rep);

/* Effort of the findings [first, end) of the sorted order. */
nfy_effort nfy__report_effort_range(const nfy__sorted *v, size_t first,
                                    size_t end, nfy_effort_counts *counts);

#endif
