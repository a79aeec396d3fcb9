/*
 * npuify.log and nfy_report_write. The log is plain text grouped per file
 * (sorted), each file's status, then its changes in msFmkTransplt's console
 * format ("line: a ~ b   Operation Type: X   Message: ..."), then its other
 * findings, then the caller's log lines in the order they were added.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

static int cmp_log(const void *pa, const void *pb)
{
    const nfy_report_log_line *const *a = pa;
    const nfy_report_log_line *const *b = pb;
    int c = nfy__report_strcmp((*a)->file, (*b)->file);
    if (c)
        return c;
    return ((*a)->seq > (*b)->seq) - ((*a)->seq < (*b)->seq);
}

static void log_finding(nfy_buf *out, const nfy_finding *f)
{
    if (f->cat == NFY_CAT_CHANGE || f->op == NFY_OPTYPE_UNSUPPORTED) {
        nfy_buf_addstr(out, "line: ");
        nfy_buf_addu(out, f->start_line);
        nfy_buf_addstr(out, " ~ ");
        nfy_buf_addu(out, f->end_line);
        nfy_buf_addstr(out, "   Operation Type: ");
        nfy_buf_addstr(out, f->op == NFY_OPTYPE_NONE
                                ? "UNSUPPORTED"
                                : nfy_report_op_type_name(f->op));
        nfy_buf_addstr(out, "   Message: ");
    } else {
        if (!f->file || !f->start_line) {
            nfy_buf_addstr(out, "project   ");
        } else {
            nfy_buf_addstr(out, "line: ");
            nfy_buf_addu(out, f->start_line);
            nfy_buf_addstr(out, "   ");
        }
        nfy_buf_addstr(out, nfy_finding_cat_name(f->cat));
        nfy_buf_addstr(out, "   ");
        nfy__report_add_oneline(out, f->api);
        nfy_buf_addstr(out, ": ");
    }
    nfy__report_add_oneline(out, f->message);
    nfy_buf_addstr(out, "   [");
    nfy_buf_addstr(out, f->rule ? f->rule : "(null)");
    nfy_buf_addstr(out, "]\n");
}

/* Everything about one file (NULL: the run as a whole). */
static void log_file(nfy_buf *out, const char *file,
                     const nfy_report_file *status, const nfy__sorted *v,
                     const nfy_report_log_line **lines, size_t nl)
{
    size_t first, end, k;
    nfy_buf name = NFY_BUF_INIT; /* escaped as in every report */
    if (file) {
        nfy_buf_addf(out, "\n== %s: %s", nfy_name_shown(&name, file),
                     status ? nfy_report_file_status_name(status->status)
                            : "findings");
        if (status && status->note)
            nfy_buf_addf(out, " (%s)", status->note);
        nfy_buf_addch(out, '\n');
    }
    nfy_buf_release(&name);
    nfy__report_file_range(v, file, &first, &end);
    for (k = first; k < end; k++) {
        nfy_finding buf;
        log_finding(out, nfy__report_sorted_at(v, k, &buf));
    }
    for (k = 0; k < nl; k++)
        if (!nfy__report_strcmp(lines[k]->file, file))
            nfy_buf_addf(out, "%s\n", lines[k]->text);
}

static int cmp_name(const void *pa, const void *pb)
{
    const char *const *a = pa;
    const char *const *b = pb;
    return strcmp(*a, *b);
}

/* Sorted, de-duplicated names of every file the report mentions. */
static size_t all_files(const nfy_report *rep, const nfy__sorted *v,
                        const nfy_report_log_line **lines, size_t nl,
                        const char ***out)
{
    size_t cap = rep->files.len + v->n + nl + 1, m = 0;
    const char **names = calloc(cap, sizeof *names);
    if (!names)
        abort();
    for (size_t i = 0; i < rep->files.len; i++)
        names[m++] = rep->files.items[i].file;
    for (size_t i = 0; i < v->n; i++)
        if (nfy__report_sorted_file(v, i))
            names[m++] = nfy__report_sorted_file(v, i);
    for (size_t i = 0; i < nl; i++)
        if (lines[i]->file)
            names[m++] = lines[i]->file;
    qsort(names, m, sizeof *names, cmp_name);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || strcmp(names[u - 1], names[i]))
            names[u++] = names[i];
    *out = names;
    return u;
}

static const nfy_report_file *find_status(const nfy_report_file **files,
                                          size_t nf, const char *name)
{
    size_t lo = 0, hi = nf;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(files[mid]->file, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nf && !strcmp(files[lo]->file, name) ? files[lo] : NULL;
}

static void log_head(nfy_buf *out, const nfy_report *rep)
{
    const nfy_report_meta *m = &rep->meta;
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    nfy_buf_addf(out, "npuify %s %s\n", m->command ? m->command : "convert",
                 m->tool_version ? m->tool_version : "");
    if (m->source)
        nfy_buf_addf(out, "source: %s\n", m->source);
    if (m->torch_version)
        nfy_buf_addf(out, "target torch: %s\n", m->torch_version);
    if (m->mode)
        nfy_buf_addf(out, "mode: %s\n", m->mode);
    nfy_buf_addf(out,
                 "files: %zu scanned, %zu changed, %zu copied, %zu skipped, "
                 "%zu %s; edits: %zu; manual work: %zu\n",
                 t.files_scanned, t.files_changed, t.files_copied,
                 t.files_skipped, t.files_error,
                 nfy_plural(t.files_error, "error", "errors"), t.edits,
                 t.manual);
}

void nfy__report_render_log(const nfy__sorted *v, nfy_buf *out)
{
    const nfy_report *rep = v->rep;
    size_t nl = rep->log.len;
    const nfy_report_log_line **lines = calloc(nl + 1, sizeof *lines);
    if (!lines)
        abort();
    for (size_t i = 0; i < nl; i++)
        lines[i] = &rep->log.items[i];
    if (nl > 1)
        qsort(lines, nl, sizeof *lines, cmp_log);
    const nfy_report_file **files;
    size_t nf = nfy__report_sorted_files(rep, &files);
    const char **names;
    size_t nn = all_files(rep, v, lines, nl, &names);
    log_head(out, rep);
    log_file(out, NULL, NULL, v, lines, nl);
    for (size_t i = 0; i < nn; i++)
        log_file(out, names[i], find_status(files, nf, names[i]), v, lines, nl);
    free(names);
    free(files);
    free(lines);
}

void nfy_report_render_log(const nfy_report *rep, nfy_buf *out)
{
    nfy__report_render_sorted(rep, nfy__report_render_log, out);
}
