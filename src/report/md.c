/*
 * summary.md and the console summary. The Markdown page follows what peers
 * found readable (peer_tools.md section 3): totals first, then edits by rule,
 * the work left to a human, a per-line table of changes with rule, safety and
 * before/after, the other findings, the "cuda" left alone with the reason,
 * and per-file counts. Table cells are escaped (pipes, line breaks) and
 * long code is shortened.
 */
#include <stdlib.h>
#include <string.h>

#include "core/swar.h"
#include "report/report_internal.h"

enum { CELL_MAX = 80 };

/* No pipe and no line break in the 8 bytes at s (other controls below
 * 14 are let through by the byte loop). */
static bool cell_plain8(const char *s)
{
    uint64_t x = nfy__swar_load(s);
    return !(nfy__swar_has(x, '|') | nfy__swar_below(x, 14));
}

/* Append s as one table cell: '|' escaped, line breaks as spaces, cut at
 * CELL_MAX bytes (on a UTF-8 boundary) with an ellipsis. */
static void cell(nfy_buf *out, const char *s, bool code)
{
    s = nfy__report_empty(s);
    size_t n = strlen(s);
    bool cut = n > CELL_MAX;
    if (cut) {
        n = CELL_MAX;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    bool tick = code && n && !memchr(s, '`', n);
    nfy_buf_addstr(out, tick ? " `" : " ");
    size_t i = 0, run = 0;
    while (i < n) {
        i = nfy__swar_skip_plain(s, i, n, cell_plain8);
        for (size_t stop = n - i >= 8 ? i + 8 : n; i < stop; i++) {
            char c = s[i];
            if (c != '|' && c != '\n' && c != '\r')
                continue;
            if (i > run)
                nfy_buf_add(out, s + run, i - run);
            run = i + 1;
            if (c == '|')
                nfy_buf_addstr(out, "\\|");
            else if (c == '\n')
                nfy_buf_addstr(out, tick ? "\\n" : " ");
        }
    }
    if (n > run)
        nfy_buf_add(out, s + run, n - run);
    if (cut)
        nfy_buf_addstr(out, "\xE2\x80\xA6");
    nfy_buf_addstr(out, tick ? "` |" : " |");
}

/* A file name cell: the name escaped reversibly (nfy_name_escape). */
static void name_cell(nfy_buf *out, const char *file)
{
    nfy_buf tmp = NFY_BUF_INIT;
    cell(out, nfy_name_shown(&tmp, file), false);
    nfy_buf_release(&tmp);
}

static void loc_cell(nfy_buf *out, const nfy_finding *f)
{
    nfy_buf loc = NFY_BUF_INIT;
    nfy__report_add_location(&loc, f);
    cell(out, nfy_buf_cstr(&loc), false);
    nfy_buf_release(&loc);
}

static void md_head(nfy_buf *out, const nfy_report *rep)
{
    const nfy_report_meta *m = &rep->meta;
    nfy_buf_addstr(out, nfy__report_is_analyse(rep)
                            ? "# npuify assessment (nothing was changed)\n\n"
                            : "# npuify migration report\n\n");
    nfy_buf_addf(out, "- Command: `npuify %s`\n",
                 m->command ? m->command : "convert");
    if (m->source)
        nfy_buf_addf(out, "- Source: `%s`\n", m->source);
    if (m->torch_version)
        nfy_buf_addf(out, "- Target torch / torch_npu: %s\n", m->torch_version);
    if (m->mode)
        nfy_buf_addf(out, "- Mode: %s\n", m->mode);
    nfy_buf_addstr(out, "\n");
}

/* The totals; an assessment's edits and changed files are convert's. */
static void md_totals(nfy_buf *out, const nfy_report *rep,
                      const nfy_report_totals *t)
{
    bool a = nfy__report_is_analyse(rep);
    if (a)
        nfy_buf_addstr(out, "## Totals\n\n`npuify analyse` wrote nothing "
                            "into the source tree: the edits and changed "
                            "files are what `npuify convert` would make.\n");
    nfy_buf_addstr(out, a ? "\n| Files | Scanned | convert would change "
                            "| Copied | Skipped | Errors | convert's edits "
                            "| Manual work |\n"
                          : "| Files | Scanned | Changed | Copied | Skipped "
                            "| Errors | Edits | Manual work |\n");
    nfy_buf_addstr(out, "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    nfy_buf_addf(out, "| %zu | %zu | %zu | %zu | %zu | %zu | %zu | %zu |\n\n",
                 t->files_total, t->files_scanned, t->files_changed,
                 t->files_copied, t->files_skipped, t->files_error, t->edits,
                 t->manual);
}

static void md_effort_files(nfy_buf *out, const nfy_report *rep,
                            const nfy__sorted *v)
{
    enum { SHOWN_FILES = 30 };
    const nfy_report_file **files;
    size_t nf = nfy__report_sorted_files(rep, &files), shown = 0;
    nfy_effort *level = calloc(nf + 1, sizeof *level);
    nfy_effort_counts *counts = calloc(nf + 1, sizeof *counts);
    for (size_t i = 0; level && counts && i < nf; i++) {
        size_t first, end;
        nfy__report_file_range(v, files[i]->file, &first, &end);
        level[i] = nfy__report_effort_range(v, first, end, &counts[i]);
    }
    for (int l = NFY_EFFORT_HIGH; level && counts && l > NFY_EFFORT_NONE; l--)
        for (size_t i = 0; i < nf && shown < SHOWN_FILES; i++) {
            if ((int)level[i] != l)
                continue;
            if (!shown++)
                nfy_buf_addstr(out, "| File | Effort | Blocking | Kernels "
                                    "| Manual | Edits |\n"
                                    "|---|---|---:|---:|---:|---:|\n");
            nfy_buf_addch(out, '|');
            name_cell(out, files[i]->file);
            nfy_buf_addf(out, " %s | %zu | %zu | %zu | %zu |\n",
                         nfy_report_effort_name((nfy_effort)l),
                         counts[i].blocking, counts[i].kernels,
                         counts[i].manual, counts[i].edits);
        }
    nfy_buf_addstr(out, shown ? "\n" : "");
    free(level);
    free(counts);
    free(files);
}

/* The estimate first: what a lead reads in a minute. */
static void md_effort(nfy_buf *out, const nfy_report *rep,
                      const nfy_report_totals *t, const nfy__sorted *v)
{
    enum { SHOWN_BLOCKING = 40 };
    nfy_effort_counts c;
    nfy_effort e = nfy__report_effort(v, NULL, &c);
    nfy_buf_addf(out, "## Effort: %s\n\n", nfy_report_effort_name(e));
    nfy__report_effort_drivers(rep, e, &c, out);
    nfy_buf_addf(out,
                 " %zu blocking (%zu custom kernels), %zu other manual, "
                 "%zu automatic edits%s. Rule: high = a custom kernel or "
                 "10+ blocking; medium = a blocking item or 10+ manual; "
                 "low = anything else to do.\n\n",
                 c.blocking, c.kernels, c.manual, c.edits,
                 nfy__report_is_analyse(rep) ? " (convert would make them)"
                                             : "");
    nfy_buf_addstr(out, "| Category | Findings |\n|---|---:|\n");
    for (int k = 0; k < NFY_CAT_COUNT; k++)
        if (t->by_cat[k])
            nfy_buf_addf(out, "| %s | %zu |\n",
                         nfy_finding_cat_name((nfy_finding_cat)k),
                         t->by_cat[k]);
    nfy_buf_addstr(out, "\n### Blocking\n\n");
    size_t rows = 0;
    for (size_t i = 0; i < v->n; i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_sorted_head(v, i, &buf);
        if (!nfy_report_finding_is_blocking(f) || rows++ >= SHOWN_BLOCKING)
            continue;
        f = nfy__report_sorted_at(v, i, &buf);
        nfy_buf_addstr(out, "- ");
        nfy__report_add_location(out, f);
        nfy_buf_addf(out, " %s `%s`: ", nfy__report_empty(f->rule),
                     nfy__report_empty(f->api));
        nfy__report_add_oneline(out, f->message);
        nfy_buf_addch(out, '\n');
    }
    if (rows > SHOWN_BLOCKING)
        nfy_buf_addf(out, "- ... and %zu more (see the tables below)\n",
                     rows - SHOWN_BLOCKING);
    nfy_buf_addstr(out, rows ? "\n" : "Nothing blocks the port.\n\n");
    md_effort_files(out, rep, v);
}

static void md_rules(nfy_buf *out, const nfy_report *rep)
{
    nfy__rule_count_vec rc = {0};
    nfy__report_rule_counts(rep, nfy__report_is_change, &rc);
    nfy__report_rule_counts_by_count(&rc);
    nfy_buf_addstr(out, "## Edits by rule\n\n");
    if (!rc.len)
        nfy_buf_addstr(out, "No edits.\n\n");
    else
        nfy_buf_addstr(out, "| Rule | Edits | Description |\n|---|---:|---|\n");
    for (size_t i = 0; i < rc.len; i++) {
        const char *d = rep->rule_desc ? rep->rule_desc(rep->rule_desc_ctx,
                                                        rc.items[i].rule)
                                       : NULL;
        nfy_buf_addch(out, '|');
        cell(out, rc.items[i].rule, false);
        nfy_buf_addf(out, " %zu |", rc.items[i].count);
        cell(out, d, false);
        nfy_buf_addch(out, '\n');
    }
    if (rc.len)
        nfy_buf_addch(out, '\n');
    nfy_vec_free(&rc);
}

/* Each script's training program (src/train), when it was modelled: what
 * --distributed and --amp build on, each element at its file:line. */
static void md_training(nfy_buf *out, const nfy_report *rep)
{
    const nfy_report_training_row **r;
    size_t n = nfy_report_training_sorted(rep, &r);
    if (n > 0)
        nfy_buf_addstr(out, "## Training program\n\n| Location | Kind | "
                            "Statement | How |\n|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        nfy_buf loc = NFY_BUF_INIT;
        nfy_buf_addf(&loc, "%s:%u", r[i]->file, (unsigned)r[i]->line);
        nfy_buf_addch(out, '|');
        cell(out, nfy_buf_cstr(&loc), false);
        cell(out, r[i]->kind, false);
        cell(out, r[i]->text, true);
        cell(out, r[i]->note, false);
        nfy_buf_addch(out, '\n');
        nfy_buf_release(&loc);
    }
    if (n > 0)
        nfy_buf_addch(out, '\n');
    free(r);
}

/* A table of the findings selected by pred; title and an empty text. */
static void md_table(nfy_buf *out, const nfy__sorted *v, nfy__finding_pred pred,
                     const char *title, const char *empty)
{
    nfy_buf_addf(out, "## %s\n\n", title);
    size_t rows = 0;
    for (size_t i = 0; i < v->n; i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_sorted_head(v, i, &buf);
        if (!pred(f))
            continue;
        f = nfy__report_sorted_at(v, i, &buf);
        if (!rows++)
            nfy_buf_addstr(out, "| Location | Rule | Kind | Safety | API "
                                "| Message | Before | After |\n"
                                "|---|---|---|---|---|---|---|---|\n");
        nfy_buf_addch(out, '|');
        loc_cell(out, f);
        cell(out, f->rule, false);
        cell(out,
             f->op != NFY_OPTYPE_NONE ? nfy_report_op_type_name(f->op)
                                      : nfy_finding_cat_name(f->cat),
             false);
        cell(out, nfy_report_safety_name(f->safety), false);
        cell(out, f->api, true);
        cell(out, f->message, false);
        cell(out, f->before, true);
        cell(out, f->after, true);
        nfy_buf_addch(out, '\n');
    }
    nfy_buf_addf(out, "%s\n", rows ? "" : empty);
}

static void md_files(nfy_buf *out, const nfy_report *rep, const nfy__sorted *v)
{
    const nfy_report_file **files;
    size_t nf = nfy__report_sorted_files(rep, &files);
    nfy_buf_addstr(out, "## Files\n\n");
    if (nf)
        nfy_buf_addstr(out, "| File | Status | Edits | Findings | Note |\n"
                            "|---|---|---:|---:|---|\n");
    for (size_t i = 0; i < nf; i++) {
        nfy__file_counts c = nfy__report_file_counts(v, files[i]->file);
        nfy_buf_addch(out, '|');
        name_cell(out, files[i]->file);
        cell(out, nfy_report_file_status_name(files[i]->status), false);
        nfy_buf_addf(out, " %zu | %zu |", c.edits, c.findings);
        cell(out, files[i]->note, false);
        nfy_buf_addch(out, '\n');
    }
    nfy_buf_addstr(out, nf ? "\n" : "No files.\n\n");
    free(files);
}

void nfy__report_render_md(const nfy__sorted *v, nfy_buf *out)
{
    const nfy_report *rep = v->rep;
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    md_head(out, rep);
    if (nfy__report_is_analyse(rep)) { /* the verdict is the first screen */
        md_effort(out, rep, &t, v);
        md_totals(out, rep, &t);
    } else {
        md_totals(out, rep, &t);
        md_effort(out, rep, &t, v);
    }
    md_training(out, rep);
    md_rules(out, rep);
    md_table(out, v, nfy__report_is_manual_finding, "Needs manual work",
             "Nothing needs manual work.\n");
    md_table(out, v, nfy__report_is_change, "Changes", "No changes.\n");
    md_table(out, v, nfy__report_is_other_finding, "Other findings and advice",
             "None.\n");
    md_table(out, v, nfy__report_is_left_unchanged,
             "Left unchanged (with the reason)", "None.\n");
    md_files(out, rep, v);
}

void nfy_report_render_md(const nfy_report *rep, nfy_buf *out)
{
    nfy__report_render_sorted(rep, nfy__report_render_md, out);
}

/* ---- console ------------------------------------------------------------ */

static void console_edits(nfy_buf *out, const nfy_report *rep, size_t edits)
{
    enum { SHOWN_RULES = 8 };
    nfy__rule_count_vec rc = {0};
    nfy__report_rule_counts(rep, nfy__report_is_change, &rc);
    nfy__report_rule_counts_by_count(&rc);
    nfy_buf_addf(out, "edits: %zu", edits);
    for (size_t i = 0; i < rc.len && i < SHOWN_RULES; i++)
        nfy_buf_addf(out, "%s%s x%zu", i ? ", " : " (", rc.items[i].rule,
                     rc.items[i].count);
    if (rc.len > SHOWN_RULES)
        nfy_buf_addf(out, ", %zu more %s", rc.len - SHOWN_RULES,
                     nfy_plural(rc.len - SHOWN_RULES, "rule", "rules"));
    nfy_buf_addstr(out, rc.len ? ")\n" : "\n");
    nfy_vec_free(&rc);
}

/* analyse writes nothing: it says what convert would do. */
static void console_files(nfy_buf *out, const nfy_report *rep,
                          const nfy_report_totals *t, const char *bold,
                          const char *off)
{
    bool a = nfy__report_is_analyse(rep);
    nfy_buf_addf(out,
                 a ? "%snpuify %s:%s %zu %s scanned, nothing written; "
                     "convert would change %zu, copy %zu; %zu skipped, %zu "
                     "%s\n"
                   : "%snpuify %s:%s %zu %s scanned, %zu changed, %zu "
                     "copied, %zu skipped, %zu %s\n",
                 bold, rep->meta.command ? rep->meta.command : "convert", off,
                 t->files_scanned,
                 nfy_plural(t->files_scanned, "file", "files"),
                 t->files_changed, t->files_copied, t->files_skipped,
                 t->files_error, nfy_plural(t->files_error, "error", "errors"));
    if (a)
        nfy_buf_addstr(out, "convert's ");
}

void nfy_report_render_console(const nfy_report *rep, const nfy_console_opts *o,
                               nfy_buf *out)
{
    const char *bold = o->color ? "\033[1m" : "";
    const char *warn = o->color ? "\033[1;33m" : "";
    const char *off = o->color ? "\033[0m" : "";
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    console_files(out, rep, &t, bold, off);
    console_edits(out, rep, t.edits);
    nfy_buf_addf(out, "%smanual work: %zu %s%s\n", t.manual ? warn : "",
                 t.manual, nfy_plural(t.manual, "finding", "findings"),
                 t.manual ? off : "");
    nfy__sorted v;
    nfy__report_sorted_init(&v, rep);
    size_t shown = 0;
    for (size_t i = 0; i < v.n && shown < o->top; i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_sorted_head(&v, i, &buf);
        if (!nfy__report_is_manual_finding(f))
            continue;
        f = nfy__report_sorted_at(&v, i, &buf);
        shown++;
        nfy_buf_addstr(out, "  ");
        nfy__report_add_location_in(out, rep->meta.file_root, f);
        nfy_buf_addf(out, ": %s%s%s ", warn, f->rule, off);
        nfy__report_add_oneline(out, f->message ? f->message : f->api);
        nfy_buf_addch(out, '\n');
    }
    if (t.manual > shown)
        nfy_buf_addf(out, "  ... and %zu more (%s)\n", t.manual - shown,
                     o->more_hint ? o->more_hint : "see the report");
    nfy__report_sorted_release(&v);
}
