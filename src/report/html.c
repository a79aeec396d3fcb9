/*
 * report.html of convert: one self-contained page in the shared style
 * (html_kit.h). The first screen answers "how much work, and where": the
 * totals, the files with the most manual work and edits, then named SVG
 * charts of edits per rule and findings per category; then the tables of
 * summary.md, each code cell with the source line before and after.
 * Every text goes through the kit's escaping.
 */
#include <stdlib.h>
#include <string.h>

#include "report/html_kit.h"
#include "report/report_internal.h"

enum { WHERE_ROWS = 10 };

static void meta_line(nfy_buf *out, const nfy_report *rep)
{
    const nfy_report_meta *m = &rep->meta;
    nfy_buf_addstr(out, "<p class=\"meta\">npuify ");
    nfy__report_html_esc(out, m->command ? m->command : "convert");
    if (m->source) {
        nfy_buf_addstr(out, " &middot; source <code>");
        nfy__report_html_esc(out, m->source);
        nfy_buf_addstr(out, "</code>");
    }
    if (m->torch_version) {
        nfy_buf_addstr(out, " &middot; target torch ");
        nfy__report_html_esc(out, m->torch_version);
    }
    nfy_buf_addstr(out, "</p>\n");
}

static void cards(nfy_buf *out, const nfy_report *rep,
                  const nfy_report_totals *t)
{
    bool a = nfy__report_is_analyse(rep); /* nothing was written */
    nfy__report_html_cards_open(out);
    nfy__report_html_card(out, "need manual work", t->manual, true);
    nfy__report_html_card(out, a ? "edits convert would make" : "edits made",
                          t->edits, false);
    nfy__report_html_card(out,
                          a ? "files convert would change" : "files changed",
                          t->files_changed, false);
    nfy__report_html_card(out, "files scanned", t->files_scanned, false);
    nfy__report_html_card(out, "files copied", t->files_copied, false);
    nfy__report_html_card(out, "errors", t->files_error, true);
    nfy__report_html_cards_close(out);
}

typedef struct {
    const char *file;
    size_t manual, edits, other;
} where_row;

static int cmp_where(const void *pa, const void *pb)
{
    const where_row *a = pa, *b = pb;
    if (a->manual != b->manual)
        return a->manual < b->manual ? 1 : -1;
    if (a->edits != b->edits)
        return a->edits < b->edits ? 1 : -1;
    return nfy__report_strcmp(a->file, b->file);
}

/* A file name cell: the name escaped reversibly (nfy_name_escape). */
static void name_td(nfy_buf *out, const char *file)
{
    nfy_buf tmp = NFY_BUF_INIT;
    nfy__report_html_td(out, nfy_name_shown(&tmp, file), false);
    nfy_buf_release(&tmp);
}

/* Files by manual work, then edits: where the work is. */
static void where(nfy_buf *out, const nfy__sorted *v)
{
    size_t n = v->n;
    where_row *rows = calloc(n ? n : 1, sizeof *rows);
    size_t nr = 0;
    for (size_t i = 0; rows && i < n; i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_sorted_head(v, i, &buf);
        const char *file = f->file ? f->file : "(project)";
        if (!nr || strcmp(rows[nr - 1].file, file))
            rows[nr++].file = file;
        where_row *r = &rows[nr - 1];
        if (nfy__report_is_manual_finding(f))
            r->manual++;
        else if (f->cat == NFY_CAT_CHANGE)
            r->edits++;
        else
            r->other++;
    }
    qsort(rows, nr, sizeof *rows, cmp_where);
    nfy_buf_addstr(out, "<h2>Where the work is</h2>\n");
    static const nfy__html_col cols[] = {{"File", 0},
                                         {"Manual work", 14},
                                         {"Edits", 12},
                                         {"Other findings", 14}};
    nfy__report_html_table_open(out, "where", true, cols, 4);
    for (size_t i = 0; i < nr && i < WHERE_ROWS; i++) {
        nfy_buf_addstr(out, rows[i].manual ? "<tr class=\"manual\">" : "<tr>");
        name_td(out, rows[i].file);
        nfy_buf_addf(out,
                     "<td class=\"n\" data-v=\"%zu\">%zu</td><td class=\"n\" "
                     "data-v=\"%zu\">%zu</td><td class=\"n\" "
                     "data-v=\"%zu\">%zu</td></tr>\n",
                     rows[i].manual, rows[i].manual, rows[i].edits,
                     rows[i].edits, rows[i].other, rows[i].other);
    }
    nfy__report_html_table_close(out);
    if (nr > WHERE_ROWS)
        nfy_buf_addf(out, "<p>%zu more files: see Files below.</p>\n",
                     nr - WHERE_ROWS);
    free(rows);
}

static void charts(nfy_buf *out, const nfy_report *rep,
                   const nfy_report_totals *t)
{
    nfy__rule_count_vec rc = {0};
    nfy__report_rule_counts(rep, nfy__report_is_change, &rc);
    nfy__report_rule_counts_by_count(&rc);
    nfy__html_bar *bars = calloc(rc.len + NFY_CAT_COUNT, sizeof *bars);
    if (!bars) {
        nfy_vec_free(&rc);
        return;
    }
    for (size_t i = 0; i < rc.len; i++)
        bars[i] =
            (nfy__html_bar){rc.items[i].rule,
                            rep->rule_desc ? rep->rule_desc(rep->rule_desc_ctx,
                                                            rc.items[i].rule)
                                           : NULL,
                            (double)rc.items[i].count, NULL};
    nfy__report_html_bars(out, "Edits by rule", bars, rc.len);
    size_t nb = 0;
    for (int c = 0; c < NFY_CAT_COUNT; c++)
        if (t->by_cat[c])
            bars[nb++] =
                (nfy__html_bar){nfy_finding_cat_name((nfy_finding_cat)c), NULL,
                                (double)t->by_cat[c], NULL};
    nfy__report_html_bars(out, "Findings by category", bars, nb);
    free(bars);
    nfy_vec_free(&rc);
}

/* The code cell: the source line, and for a change the line after it
 * (or the replaced and inserted text when the change spans lines). */
static void code_cell(nfy_buf *out, const nfy_finding *f)
{
    bool change = f->cat == NFY_CAT_CHANGE;
    const char *before = f->code_before ? f->code_before : f->before;
    const char *after = f->code_after ? f->code_after : f->after;
    nfy_buf_addstr(out, "<td>");
    if (before && *before) {
        nfy_buf_addstr(out, change ? "<code class=\"del\">" : "<code>");
        nfy__report_html_esc(out, before);
        nfy_buf_addstr(out, "</code>");
    }
    if (change && after) {
        nfy_buf_addstr(out, "<code class=\"add\">");
        nfy__report_html_esc(out, after);
        nfy_buf_addstr(out, "</code>");
    }
    nfy_buf_addstr(out, "</td>");
}

static void finding_row(nfy_buf *out, const nfy_finding *f)
{
    nfy_buf loc = NFY_BUF_INIT;
    nfy__report_add_location(&loc, f);
    nfy_buf_addstr(out, nfy_report_finding_is_manual(f)
                            ? "<tr class=\"manual\">"
                            : "<tr>");
    nfy__report_html_td(out, nfy_buf_cstr(&loc), false);
    nfy__report_html_td(out, f->rule, false);
    nfy__report_html_td(out,
                        f->op != NFY_OPTYPE_NONE
                            ? nfy_report_op_type_name(f->op)
                            : nfy_finding_cat_name(f->cat),
                        false);
    nfy_buf_addstr(out, "<td>");
    nfy__report_html_esc(out, f->message);
    if (f->api && *f->api) {
        nfy_buf_addstr(out, " <code>");
        nfy__report_html_esc(out, f->api);
        nfy_buf_addstr(out, "</code>");
    }
    nfy_buf_addstr(out, "</td>");
    code_cell(out, f);
    nfy_buf_addstr(out, "</tr>\n");
    nfy_buf_release(&loc);
}

static void table(nfy_buf *out, const nfy__sorted *v, nfy__finding_pred pred,
                  const char *id, const char *title)
{
    static const nfy__html_col cols[] = {{"Location", 15},
                                         {"Rule", 8},
                                         {"Kind", 11},
                                         {"Message", 28},
                                         {"Code (before / after)", 0}};
    nfy_buf_addstr(out, "<h2>");
    nfy__report_html_esc(out, title);
    nfy_buf_addstr(out, "</h2>\n");
    nfy__report_html_table_open(out, id, true, cols, 5);
    size_t rows = 0;
    for (size_t i = 0; i < v->n; i++) {
        nfy_finding buf;
        if (pred(nfy__report_sorted_head(v, i, &buf))) {
            finding_row(out, nfy__report_sorted_at(v, i, &buf));
            rows++;
        }
    }
    nfy__report_html_table_close(out);
    if (!rows)
        nfy_buf_addstr(out, "<p>None.</p>\n");
}

static void files_table(nfy_buf *out, const nfy_report *rep,
                        const nfy__sorted *v)
{
    const nfy_report_file **files;
    size_t nf = nfy__report_sorted_files(rep, &files);
    static const nfy__html_col cols[] = {{"File", 0},
                                         {"Status", 12},
                                         {"Edits", 8},
                                         {"Findings", 8},
                                         {"Note", 25}};
    nfy_buf_addstr(out, "<h2>Files</h2>\n");
    nfy__report_html_table_open(out, "files", true, cols, 5);
    for (size_t i = 0; i < nf; i++) {
        nfy__file_counts c = nfy__report_file_counts(v, files[i]->file);
        nfy_buf_addstr(out, "<tr>");
        name_td(out, files[i]->file);
        nfy__report_html_td(out, nfy_report_file_status_name(files[i]->status),
                            false);
        nfy_buf_addf(out,
                     "<td class=\"n\" data-v=\"%zu\">%zu</td><td class=\"n\" "
                     "data-v=\"%zu\">%zu</td>",
                     c.edits, c.edits, c.findings, c.findings);
        nfy__report_html_td(out, files[i]->note, false);
        nfy_buf_addstr(out, "</tr>\n");
    }
    nfy__report_html_table_close(out);
    free(files);
}

/* An assessment's first screen: the effort verdict, what drives it, the
 * top blockers. */
static void verdict(nfy_buf *out, const nfy__sorted *v)
{
    enum { TOP_BLOCKERS = 10 };
    nfy_effort_counts c;
    nfy_effort e = nfy__report_effort(v, NULL, &c);
    nfy_buf_addstr(out, "<h2 id=\"effort\">Effort: ");
    nfy__report_html_esc(out, nfy_report_effort_name(e));
    nfy_buf_addstr(out, "</h2>\n<p>");
    nfy_buf d = NFY_BUF_INIT;
    nfy__report_effort_drivers(v->rep, e, &c, &d);
    nfy__report_html_esc(out, nfy_buf_cstr(&d));
    nfy_buf_release(&d);
    nfy_buf_addstr(out, " Nothing was written into the source tree: edits "
                        "and changed files below are what <code>npuify "
                        "convert</code> would make.</p>\n");
    size_t rows = 0;
    for (size_t i = 0; i < v->n; i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_sorted_head(v, i, &buf);
        if (!nfy_report_finding_is_blocking(f) || rows++ >= TOP_BLOCKERS)
            continue;
        f = nfy__report_sorted_at(v, i, &buf);
        nfy_buf_addstr(out, rows == 1 ? "<h3>Top blockers</h3>\n<ul>\n<li>"
                                      : "<li>");
        nfy_buf loc = NFY_BUF_INIT;
        nfy__report_add_location(&loc, f);
        nfy_buf_addstr(out, "<code>");
        nfy__report_html_esc(out, nfy_buf_cstr(&loc));
        nfy_buf_release(&loc);
        nfy_buf_addstr(out, "</code> ");
        nfy__report_html_esc(out, nfy__report_empty(f->rule));
        nfy_buf_addstr(out, " <code>");
        nfy__report_html_esc(out, nfy__report_empty(f->api));
        nfy_buf_addstr(out, "</code>: ");
        nfy__report_html_esc(out, nfy__report_empty(f->message));
        nfy_buf_addstr(out, "</li>\n");
    }
    if (rows > TOP_BLOCKERS)
        nfy_buf_addf(out, "<li>... and %zu more (Needs manual work)</li>\n",
                     rows - TOP_BLOCKERS);
    nfy_buf_addstr(out, rows ? "</ul>\n" : "<p>Nothing blocks the port.</p>\n");
}

void nfy__report_render_html(const nfy__sorted *v, nfy_buf *out)
{
    const nfy_report *rep = v->rep;
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    bool a = nfy__report_is_analyse(rep);
    const char *title = a ? "npuify assessment (nothing was changed)"
                          : "npuify migration report";
    nfy__report_html_open(out, title, title);
    meta_line(out, rep);
    if (a)
        verdict(out, v);
    cards(out, rep, &t);
    where(out, v);
    table(out, v, nfy__report_is_manual_finding, "manual", "Needs manual work");
    charts(out, rep, &t);
    table(out, v, nfy__report_is_change, "changes", "Changes");
    table(out, v, nfy__report_is_other_finding, "other",
          "Other findings and advice");
    table(out, v, nfy__report_is_left_unchanged, "left",
          "Left unchanged (with the reason)");
    files_table(out, rep, v);
    nfy__report_html_close(out);
}

void nfy_report_render_html(const nfy_report *rep, nfy_buf *out)
{
    nfy__report_render_sorted(rep, nfy__report_render_html, out);
}
