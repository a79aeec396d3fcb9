/*
 * report.html: one self-contained page (inline CSS, no script, no external
 * resource) with the totals as cards, bar charts of edits per rule and
 * findings per category (plain <div> bars sized in percent), then the same
 * tables as summary.md. Text goes through nfy_html_escape.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}"
    "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em}"
    ".meta{color:#555}.cards{display:flex;gap:1em;flex-wrap:wrap}"
    ".card{border:1px solid #ccc;border-radius:6px;padding:.6em 1em;"
    "min-width:7em}.card b{display:block;font-size:1.6em}"
    ".warn b{color:#b45309}table{border-collapse:collapse;width:100%}"
    "th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;"
    "vertical-align:top}th{background:#f3f4f6}"
    "code{background:#f6f6f6;white-space:pre-wrap}"
    ".bar{display:flex;align-items:center;gap:.5em;margin:2px 0}"
    ".bar span{width:12em}.bar div{background:#2563eb;height:1em}"
    ".manual{color:#b45309}";

static void esc(nfy_buf *out, const char *s)
{
    s = nfy__or_empty(s);
    nfy_html_escape(out, s, strlen(s));
}

static void card(nfy_buf *out, const char *label, size_t n, bool warn)
{
    nfy_buf_addf(out, "<div class=\"card%s\"><b>%zu</b>%s</div>\n",
                 warn && n ? " warn" : "", n, label);
}

static void head(nfy_buf *out, const nfy_report *rep,
                 const nfy_report_totals *t)
{
    const nfy_report_meta *m = &rep->meta;
    nfy_buf_addf(out,
                 "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                 "charset=\"utf-8\">\n<title>npuify migration report</title>"
                 "\n<style>%s</style></head><body>\n"
                 "<h1>npuify migration report</h1>\n<p class=\"meta\">npuify ",
                 style);
    esc(out, m->command ? m->command : "convert");
    if (m->source) {
        nfy_buf_addstr(out, " &middot; source <code>");
        esc(out, m->source);
        nfy_buf_addstr(out, "</code>");
    }
    if (m->torch_version) {
        nfy_buf_addstr(out, " &middot; target torch ");
        esc(out, m->torch_version);
    }
    nfy_buf_addstr(out, "</p>\n<div class=\"cards\">\n");
    card(out, "files scanned", t->files_scanned, false);
    card(out, "files changed", t->files_changed, false);
    card(out, "files copied", t->files_copied, false);
    card(out, "errors", t->files_error, true);
    card(out, "edits", t->edits, false);
    card(out, "manual work", t->manual, true);
    nfy_buf_addstr(out, "</div>\n");
}

static void bar(nfy_buf *out, const char *label, size_t n, size_t max)
{
    unsigned pct = max ? (unsigned)(n * 100 / max) : 0;
    nfy_buf_addstr(out, "<div class=\"bar\"><span>");
    esc(out, label);
    nfy_buf_addf(out, "</span><div style=\"width:%u%%\"></div>%zu</div>\n",
                 pct ? pct : 1, n);
}

static void charts(nfy_buf *out, const nfy_report *rep,
                   const nfy_report_totals *t)
{
    nfy__rule_count_vec rc = {0};
    nfy__rule_counts(rep, nfy__is_change, &rc);
    nfy__rule_counts_by_count(&rc);
    nfy_buf_addstr(out, "<h2>Edits by rule</h2>\n");
    if (!rc.len)
        nfy_buf_addstr(out, "<p>No edits.</p>\n");
    for (size_t i = 0; i < rc.len; i++)
        bar(out, rc.items[i].rule, rc.items[i].count, rc.items[0].count);
    nfy_vec_free(&rc);
    size_t max = 0;
    for (int c = 0; c < NFY_CAT_COUNT; c++)
        max = t->by_cat[c] > max ? t->by_cat[c] : max;
    nfy_buf_addstr(out, "<h2>Findings by category</h2>\n");
    for (int c = 0; c < NFY_CAT_COUNT; c++)
        if (t->by_cat[c])
            bar(out, nfy_finding_cat_name((nfy_finding_cat)c), t->by_cat[c],
                max);
    if (!max)
        nfy_buf_addstr(out, "<p>No findings.</p>\n");
}

static void td(nfy_buf *out, const char *s, bool code)
{
    nfy_buf_addstr(out, code && s && *s ? "<td><code>" : "<td>");
    esc(out, s);
    nfy_buf_addstr(out, code && s && *s ? "</code></td>" : "</td>");
}

static void finding_row(nfy_buf *out, const nfy_finding *f)
{
    nfy_buf loc = NFY_BUF_INIT;
    nfy__add_location(&loc, f);
    nfy_buf_addstr(out,
                   nfy_finding_is_manual(f) ? "<tr class=\"manual\">" : "<tr>");
    td(out, nfy_buf_cstr(&loc), false);
    td(out, f->rule, false);
    td(out,
       f->op != NFY_OPTYPE_NONE ? nfy_op_type_name(f->op)
                                : nfy_finding_cat_name(f->cat),
       false);
    td(out, nfy_safety_name(f->safety), false);
    td(out, f->api, true);
    td(out, f->message, false);
    td(out, f->before, true);
    td(out, f->after, true);
    nfy_buf_addstr(out, "</tr>\n");
    nfy_buf_release(&loc);
}

static void table(nfy_buf *out, const nfy_finding **v, size_t n,
                  nfy__finding_pred pred, const char *title)
{
    size_t rows = 0;
    nfy_buf_addf(out, "<h2>%s</h2>\n", title);
    for (size_t i = 0; i < n; i++) {
        if (!pred(v[i]))
            continue;
        if (!rows++)
            nfy_buf_addstr(out, "<table><tr><th>Location</th><th>Rule</th>"
                                "<th>Kind</th><th>Safety</th><th>API</th>"
                                "<th>Message</th><th>Before</th>"
                                "<th>After</th></tr>\n");
        finding_row(out, v[i]);
    }
    nfy_buf_addstr(out, rows ? "</table>\n" : "<p>None.</p>\n");
}

static void files_table(nfy_buf *out, const nfy_report *rep,
                        const nfy_finding **v, size_t n)
{
    const nfy_report_file **files;
    size_t nf = nfy__report_sorted_files(rep, &files);
    nfy_buf_addstr(out, "<h2>Files</h2>\n<table><tr><th>File</th><th>Status"
                        "</th><th>Edits</th><th>Findings</th><th>Note</th>"
                        "</tr>\n");
    for (size_t i = 0; i < nf; i++) {
        size_t first, end, edits = 0;
        nfy__file_range(v, n, files[i]->file, &first, &end);
        for (size_t k = first; k < end; k++)
            edits += v[k]->cat == NFY_CAT_CHANGE;
        nfy_buf_addstr(out, "<tr>");
        td(out, files[i]->file, false);
        td(out, nfy_file_status_name(files[i]->status), false);
        nfy_buf_addf(out, "<td>%zu</td><td>%zu</td>", edits,
                     end - first - edits);
        td(out, files[i]->note, false);
        nfy_buf_addstr(out, "</tr>\n");
    }
    nfy_buf_addstr(out, "</table>\n");
    free(files);
}

void nfy_report_render_html(const nfy_report *rep, nfy_buf *out)
{
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    const nfy_finding **v;
    size_t n = nfy_report_sorted(rep, &v);
    head(out, rep, &t);
    charts(out, rep, &t);
    table(out, v, n, nfy__is_manual_finding, "Needs manual work");
    table(out, v, n, nfy__is_change, "Changes");
    table(out, v, n, nfy__is_other_finding, "Other findings and advice");
    table(out, v, n, nfy__is_left_unchanged,
          "Left unchanged (with the reason)");
    files_table(out, rep, v, n);
    nfy_buf_addstr(out, "</body></html>\n");
    free(v);
}
