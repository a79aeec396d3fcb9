/*
 * `npuify ops` outputs: all_ops.txt (Huawei's file: one operator per line),
 * ops.csv and dynamic_ops.csv here, the text helpers the other ops
 * renderers share, and the writer of every file (report/ops.h). Everything
 * is rendered from a sorted nfy_prof_table, so the bytes depend only on the
 * input: no timestamps, no absolute paths beyond what the caller passes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/ops.h"
#include "report/report_internal.h"

void nfy__report_ops_add_int(nfy_buf *b, long long v)
{
    char tmp[24];
    size_t n = 0;
    unsigned long long u =
        v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[n++] = '-';
    char out[24];
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    (void)nfy_buf_add(b, out, n);
}

static double share(const nfy_prof_op *op, double total)
{
    return total > 0 ? 100.0 * nfy_prof_op_self_time(op) / total : 0.0;
}

/* The name reports use: resolved full name, "aten::" added to bare ones. */
static nfy_str display_name(const nfy_prof_op *op, nfy_arena *a)
{
    return op->kind == NFY_PKIND_OP ? nfy_prof_qualified(a, op->full_name)
                                    : op->full_name;
}

static int cmp_str(const void *a, const void *b)
{
    return nfy_str_cmp(*(const nfy_str *)a, *(const nfy_str *)b);
}

void nfy_report_prof_render_all_ops(const nfy_prof_table *t, nfy_buf *out)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_str *names = calloc(t->ops.len + 1, sizeof *names);
    size_t n = 0;
    if (!names)
        abort();
    for (size_t i = 0; i < t->ops.len; i++)
        if (nfy_prof_op_is_operator(&t->ops.items[i]))
            names[n++] = display_name(&t->ops.items[i], &a);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (i && nfy_str_eq(names[i], names[i - 1]))
            continue;
        (void)nfy_buf_addview(out, names[i]);
        (void)nfy_buf_addch(out, '\n');
    }
    free(names);
    nfy_arena_release(&a);
}

static void csv_view(nfy_buf *out, nfy_str s)
{
    nfy_csv_escape(out, s.ptr ? s.ptr : "", s.len);
}

static void join_shapes(const nfy_prof_op *op, nfy_buf *tmp, int32_t after)
{
    nfy_buf_reset(tmp);
    bool first = true;
    for (size_t k = 0; k < op->shapes.len; k++) {
        const nfy_prof_shape *s = &op->shapes.items[k];
        if (after >= 0 && !(s->first_step > after))
            continue;
        if (!first)
            (void)nfy_buf_addstr(tmp, "; ");
        first = false;
        (void)nfy_buf_addview(tmp, s->text);
        if (after >= 0) {
            (void)nfy_buf_addch(tmp, '@');
            nfy__report_ops_add_int(tmp, s->first_step);
        }
    }
}

/* "1-3 5 7-9": runs of consecutive steps as ranges (logs with thousands
 * of per-step tables would otherwise list every one). */
void nfy__report_ops_join_steps(const nfy_prof_step_vec *v, nfy_buf *tmp)
{
    nfy_buf_reset(tmp);
    for (size_t k = 0; k < v->len;) {
        size_t e = k;
        while (e + 1 < v->len && v->items[e + 1] == v->items[e] + 1)
            e++;
        if (k)
            (void)nfy_buf_addch(tmp, ' ');
        nfy__report_ops_add_int(tmp, v->items[k]);
        if (e > k) {
            (void)nfy_buf_addch(tmp, '-');
            nfy__report_ops_add_int(tmp, v->items[e]);
        }
        k = e + 1;
    }
}

void nfy__report_ops_notes(const nfy_prof_op *op, nfy_buf *tmp)
{
    nfy_buf_reset(tmp);
    if (op->flags & NFY_PROW_NAME_TRUNCATED)
        (void)nfy_buf_addstr(
            tmp, op->cut_from_known
                     ? "name cut by the profiler, resolved from the known "
                       "operators; "
                 : op->full_name.ptr != op->name.ptr
                     ? "name cut by the profiler, resolved; "
                     : "name cut by the profiler; ");
    if (op->npu_counterpart.len)
        (void)nfy_buf_addf(tmp, "backend-only kernel; on NPU: %.*s%s%.*s; ",
                           NFY_STR_FMT(op->npu_counterpart),
                           op->counterpart_note.len ? " - " : "",
                           NFY_STR_FMT(op->counterpart_note));
    if (op->cut_candidates)
        (void)nfy_buf_addf(tmp, "%u known operators start so; ",
                           (unsigned)op->cut_candidates);
    if (op->ambiguity.len)
        (void)nfy_buf_addf(tmp, "could be %.*s; ", NFY_STR_FMT(op->ambiguity));
    for (size_t k = 0; k < op->shapes.len; k++)
        if (op->shapes.items[k].truncated) {
            (void)nfy_buf_addstr(tmp, "shapes cut by the profiler; ");
            break;
        }
    if (op->flags & NFY_PROW_TABLE_CUT)
        (void)nfy_buf_addstr(tmp, "from a table cut off; ");
    if (tmp->len >= 2)
        tmp->len -= 2, tmp->data[tmp->len] = '\0';
}

/* "model.py:20 Net.forward torch.heaviside, :21 Tensor.heaviside": the
 * calls the frame's function holds, best first. */
static void add_calls_in_source(const nfy_prof_site *s, nfy_str file,
                                nfy_buf *tmp)
{
    const nfy_prof_call *c = &s->in_source[0];
    (void)nfy_buf_addf(tmp, "%.*s:%u %.*s %.*s", NFY_STR_FMT(file), c->line,
                       NFY_STR_FMT(c->function), NFY_STR_FMT(c->api));
    for (uint32_t i = 1; i < s->nin_source; i++)
        (void)nfy_buf_addf(tmp, ", :%u %.*s", s->in_source[i].line,
                           NFY_STR_FMT(s->in_source[i].api));
}

void nfy__report_ops_join_sites(const nfy_prof_op *op, double total,
                                nfy_buf *tmp)
{
    nfy_buf_reset(tmp);
    size_t order[NFY_PROF_SITES_MAX];
    nfy_prof_op_sites_by_calls(op, order);
    for (size_t k = 0; k < op->sites.len; k++) {
        nfy__ops_site p = nfy__report_ops_site(op, order, k);
        const nfy_prof_site *s = p.site;
        if (k)
            (void)nfy_buf_addstr(tmp, "; ");
        if (s->nin_source)
            add_calls_in_source(s, p.file, tmp);
        else
            (void)nfy_buf_addf(tmp, "%.*s:%u %.*s", NFY_STR_FMT(p.file),
                               (unsigned)p.line, NFY_STR_FMT(p.func));
        (void)nfy_buf_addf(tmp, " (%lld call%s, %.2f%%)", (long long)s->calls,
                           s->calls == 1 ? "" : "s",
                           total > 0 ? 100.0 * s->self_us / total : 0.0);
    }
    if (op->other_site_calls)
        (void)nfy_buf_addf(tmp, "%s%lld calls from other sites",
                           op->sites.len ? "; " : "",
                           (long long)op->other_site_calls);
}

void nfy_report_prof_render_ops_csv(const nfy_prof_table *t,
                                    const nfy_prof_report_meta *m, nfy_buf *out)
{
    (void)m;
    nfy_arena a = NFY_ARENA_INIT;
    nfy_buf tmp = NFY_BUF_INIT;
    double total = nfy_prof_table_self_time(t);
    (void)nfy_buf_addstr(out, "Op,Overload,Kind,Calls,Input Shapes,Self CPU "
                              "(us),Self Device (us),Self Time Share (%),"
                              "Status,Supported Since,First Step,Steps,"
                              "Dynamic,Notes,Sites\n");
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_op *op = &t->ops.items[i];
        csv_view(out, op->full_name); /* as printed: "detach" and
                                         "aten::detach" are two rows */
        (void)nfy_buf_addch(out, ',');
        csv_view(out, op->overload);
        (void)nfy_buf_addf(out, ",%s,%lld,", nfy_prof_kind_name(op->kind),
                           (long long)op->calls);
        join_shapes(op, &tmp, -1);
        csv_view(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addf(out, ",%.3f,%.3f,%.2f,%s,", op->self_us[0],
                           op->self_us[1], share(op, total),
                           nfy_prof_status_name(op->status));
        csv_view(out, op->first_version);
        if (op->first_step >= 0)
            (void)nfy_buf_addf(out, ",%d,", (int)op->first_step);
        else
            (void)nfy_buf_addstr(out, ",,");
        nfy__report_ops_join_steps(&op->steps, &tmp);
        csv_view(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addf(out, ",%s,", nfy_prof_dyn_name(op->dyn));
        nfy__report_ops_notes(op, &tmp);
        csv_view(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addch(out, ',');
        nfy__report_ops_join_sites(op, total, &tmp);
        csv_view(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addch(out, '\n');
    }
    nfy_buf_release(&tmp);
    nfy_arena_release(&a);
}

void nfy_report_prof_render_dynamic_csv(const nfy_prof_table *t,
                                        const nfy_prof_report_meta *m,
                                        nfy_buf *out)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_buf tmp = NFY_BUF_INIT;
    (void)nfy_buf_addstr(out, "Op,Kind,Dynamic,Reference Step,"
                              "Shapes In Reference,New Shapes@Step,Steps\n");
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_op *op = &t->ops.items[i];
        if (op->dyn == NFY_PDYN_STATIC)
            continue;
        csv_view(out, display_name(op, &a));
        (void)nfy_buf_addf(out, ",%s,%s,%d,", nfy_prof_kind_name(op->kind),
                           nfy_prof_dyn_name(op->dyn), (int)m->ref_step);
        nfy_buf_reset(&tmp);
        bool first = true;
        bool all = op->dyn == NFY_PDYN_POSSIBLE; /* no step to cut at */
        for (size_t k = 0; k < op->shapes.len; k++) {
            const nfy_prof_shape *s = &op->shapes.items[k];
            if (!all && (s->first_step < 0 || s->first_step > m->ref_step))
                continue;
            if (!first)
                (void)nfy_buf_addstr(&tmp, "; ");
            first = false;
            (void)nfy_buf_addview(&tmp, s->text);
        }
        csv_view(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addch(out, ',');
        if (all)
            nfy_buf_reset(&tmp);
        else
            join_shapes(op, &tmp, m->ref_step);
        csv_view(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addch(out, ',');
        nfy__report_ops_join_steps(&op->steps, &tmp);
        csv_view(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addch(out, '\n');
    }
    nfy_buf_release(&tmp);
    nfy_arena_release(&a);
}

static nfy_status write_one(const char *dir, const char *name, nfy_buf *b,
                            nfy_diags *diags)
{
    nfy_arena a = NFY_ARENA_INIT;
    char *path = nfy_path_join(&a, dir, name);
    nfy_status st = b->status;
    if (st == NFY_OK)
        st = nfy_file_write_atomic(path, b->data ? b->data : "", b->len, 0644);
    if (st && diags)
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "ops-write", path, 0, 0,
                        "cannot write: %s", nfy_status_str(st));
    nfy_arena_release(&a);
    return st;
}

nfy_status nfy_report_prof_report_write(const nfy_prof_table *t,
                                        const nfy_prof_report_meta *m,
                                        const char *dir, nfy_diags *diags)
{
    nfy_status st = nfy__report_mkdir_out(dir, "ops-write", "output", diags);
    if (st)
        return st;
    nfy_status first = NFY_OK;
    nfy_buf b = NFY_BUF_INIT;
    nfy_report_prof_render_all_ops(t, &b);
    first = write_one(dir, "all_ops.txt", &b, diags);
    struct {
        unsigned fmt;
        const char *name;
        void (*render)(const nfy_prof_table *, const nfy_prof_report_meta *,
                       nfy_buf *);
    } outs[] = {
        {NFY_REPORT_CSV, "ops.csv", nfy_report_prof_render_ops_csv},
        {NFY_REPORT_CSV, "dynamic_ops.csv", nfy_report_prof_render_dynamic_csv},
        {NFY_REPORT_JSON, "report.json", nfy_report_prof_render_json},
        {NFY_REPORT_MD, "summary.md", nfy_report_prof_render_md},
        {NFY_REPORT_HTML, "report.html", nfy_report_prof_render_html},
        {NFY_REPORT_SARIF, "ops.sarif", nfy_report_prof_render_sarif},
    };
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        if (!(m->formats & outs[i].fmt))
            continue;
        nfy_buf_reset(&b);
        outs[i].render(t, m, &b);
        st = write_one(dir, outs[i].name, &b, diags);
        if (st && !first)
            first = st;
    }
    nfy_buf_release(&b);
    return first;
}

bool nfy__report_ops_needs_work(const nfy_prof_op *op)
{
    return nfy_prof_op_is_operator(op) &&
           (op->status == NFY_PSTAT_UNSUPPORTED ||
            op->status == NFY_PSTAT_FALLBACK);
}

bool nfy__report_ops_unknown(const nfy_prof_op *op)
{
    return nfy_prof_op_is_operator(op) && op->status == NFY_PSTAT_UNKNOWN;
}

nfy__ops_site nfy__report_ops_site(const nfy_prof_op *op, const size_t *order,
                                   size_t k)
{
    nfy__ops_site p = {.site = &op->sites.items[order[k]]};
    nfy_prof_site_parts(p.site->text, &p.file, &p.line, &p.func);
    return p;
}
