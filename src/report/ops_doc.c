/*
 * `npuify ops` documents: report.json (schema "npuify-ops/1") and
 * summary.md, where what needs work comes first: unsupported and CPU
 * fallback operators weighted by self time, then unknown ones, then
 * dynamic-shape operators. Deterministic: no timestamps.
 */
#include <math.h>
#include <string.h>

#include "report/ops.h"

static void jstr(nfy_buf *out, nfy_str s)
{
    nfy_json_escape(out, s.ptr ? s.ptr : "", s.len);
}

static void jkey(nfy_buf *out, const char *k)
{
    nfy_json_escape(out, k, strlen(k));
    (void)nfy_buf_addch(out, ':');
}

static void json_inputs(const nfy_prof_report_meta *m, nfy_buf *out)
{
    (void)nfy_buf_addstr(out, "\"inputs\":[");
    for (size_t i = 0; i < m->ninputs; i++) {
        const nfy_prof_input_info *in = &m->inputs[i];
        (void)nfy_buf_addstr(out, i ? ",\n  {" : "\n  {");
        jkey(out, "path");
        jstr(out, nfy_str_from_cstr(in->path));
        (void)nfy_buf_addf(out,
                           ",\"format\":\"%s\",\"lines\":%llu,\"tables\":%llu,"
                           "\"rows\":%llu,\"skipped_lines\":%llu,"
                           "\"errors\":%u}",
                           in->format, (unsigned long long)in->stats.lines,
                           (unsigned long long)in->stats.tables,
                           (unsigned long long)in->stats.rows,
                           (unsigned long long)in->stats.bad_rows, in->errors);
    }
    (void)nfy_buf_addstr(out, "],\n");
}

/* "could_be": the full names in the input a cut name may stand for
 * (nfy_prof_op.ambiguity "a|b" as an array; empty when resolved). */
static void json_could_be(nfy_str amb, nfy_buf *out)
{
    (void)nfy_buf_addstr(out, "\"could_be\":[");
    for (size_t i = 0, start = 0; amb.len && i <= amb.len; i++) {
        if (i < amb.len && amb.ptr[i] != '|')
            continue;
        if (start)
            (void)nfy_buf_addch(out, ',');
        jstr(out, nfy_str_slice(amb, start, i));
        start = i + 1;
    }
    (void)nfy_buf_addstr(out, "],");
}

/* "in_source": the calls in the frame's function that can dispatch the
 * op, best first (empty when the source was not read). */
static void json_in_source(const nfy_prof_site *s, nfy_buf *out)
{
    jkey(out, "in_source");
    (void)nfy_buf_addch(out, '[');
    for (uint32_t i = 0; i < s->nin_source; i++) {
        const nfy_prof_call *c = &s->in_source[i];
        (void)nfy_buf_addf(out, "%s{\"line\":%u,\"col\":%u,", i ? "," : "",
                           c->line, c->col);
        jkey(out, "api");
        jstr(out, c->api);
        (void)nfy_buf_addch(out, ',');
        jkey(out, "function");
        jstr(out, c->function);
        (void)nfy_buf_addch(out, '}');
    }
    (void)nfy_buf_addch(out, ']');
}

static void json_op(const nfy_prof_op *op, double total, nfy_arena *a,
                    nfy_buf *out)
{
    (void)nfy_buf_addstr(out, "{");
    jkey(out, "name");
    jstr(out, op->full_name);
    (void)nfy_buf_addch(out, ',');
    jkey(out, "qualified");
    jstr(out, op->kind == NFY_PKIND_OP ? nfy_prof_qualified(a, op->full_name)
                                       : op->full_name);
    (void)nfy_buf_addch(out, ',');
    jkey(out, "printed");
    jstr(out, op->name);
    (void)nfy_buf_addch(out, ',');
    jkey(out, "overload");
    jstr(out, op->overload);
    (void)nfy_buf_addf(
        out,
        ",\"kind\":\"%s\",\"status\":\"%s\",\"calls\":%lld,"
        "\"self_cpu_us\":%.3f,\"self_device_us\":%.3f,"
        "\"self_share_pct\":%.2f,\"first_step\":%d,"
        "\"dynamic\":\"%s\",\"name_truncated\":%s,"
        "\"cut_from_known\":%s,\"cut_candidates\":%u,",
        nfy_prof_kind_name(op->kind), nfy_prof_status_name(op->status),
        (long long)op->calls, op->self_us[0], op->self_us[1],
        total > 0 ? 100.0 * nfy_prof_op_self_time(op) / total : 0.0,
        (int)op->first_step, nfy_prof_dyn_name(op->dyn),
        (op->flags & NFY_PROW_NAME_TRUNCATED) ? "true" : "false",
        op->cut_from_known ? "true" : "false", (unsigned)op->cut_candidates);
    json_could_be(op->ambiguity, out);
    jkey(out, "supported_since");
    jstr(out, op->first_version);
    (void)nfy_buf_addch(out, ',');
    jkey(out, "npu_counterpart");
    jstr(out, op->npu_counterpart);
    /* steps as [first, last] runs: thousands of per-step tables would
     * otherwise list every step of every op */
    (void)nfy_buf_addstr(out, ",\"steps\":[");
    for (size_t k = 0; k < op->steps.len;) {
        size_t e = k;
        while (e + 1 < op->steps.len &&
               op->steps.items[e + 1] == op->steps.items[e] + 1)
            e++;
        (void)nfy_buf_addstr(out, k ? ",[" : "[");
        nfy__report_ops_add_int(out, op->steps.items[k]);
        (void)nfy_buf_addch(out, ',');
        nfy__report_ops_add_int(out, op->steps.items[e]);
        (void)nfy_buf_addch(out, ']');
        k = e + 1;
    }
    (void)nfy_buf_addstr(out, "],\"shapes\":[");
    for (size_t k = 0; k < op->shapes.len; k++) {
        const nfy_prof_shape *s = &op->shapes.items[k];
        (void)nfy_buf_addstr(out, k ? ",{" : "{");
        jkey(out, "text");
        jstr(out, s->text);
        (void)nfy_buf_addf(out,
                           ",\"calls\":%lld,\"first_step\":%d,"
                           "\"truncated\":%s}",
                           (long long)s->calls, (int)s->first_step,
                           s->truncated ? "true" : "false");
    }
    (void)nfy_buf_addstr(out, "],\"sites\":[");
    size_t order[NFY_PROF_SITES_MAX];
    nfy_prof_op_sites_by_calls(op, order);
    for (size_t k = 0; k < op->sites.len; k++) {
        nfy__ops_site p = nfy__report_ops_site(op, order, k);
        const nfy_prof_site *s = p.site;
        (void)nfy_buf_addstr(out, k ? ",{" : "{");
        jkey(out, "file");
        jstr(out, p.file);
        (void)nfy_buf_addf(out, ",\"line\":%u,", (unsigned)p.line);
        jkey(out, "function");
        jstr(out, p.func);
        (void)nfy_buf_addf(out, ",\"calls\":%lld,\"self_share_pct\":%.2f,",
                           (long long)s->calls,
                           total > 0 ? 100.0 * s->self_us / total : 0.0);
        json_in_source(s, out);
        (void)nfy_buf_addch(out, '}');
    }
    (void)nfy_buf_addf(out, "],\"other_site_calls\":%lld}",
                       (long long)op->other_site_calls);
}

void nfy_report_prof_render_json(const nfy_prof_table *t,
                                 const nfy_prof_report_meta *m, nfy_buf *out)
{
    nfy_prof_counts c;
    nfy_prof_table_counts(t, &c);
    nfy_arena a = NFY_ARENA_INIT;
    (void)nfy_buf_addstr(out, "{\"schema\":\"npuify-ops/1\",\n");
    if (m->version) {
        (void)nfy_buf_addstr(out, "\"torch_npu\":{\"version\":");
        jstr(out, nfy_str_from_cstr(m->version->name));
        (void)nfy_buf_addstr(out, ",\"tag\":");
        jstr(out, nfy_str_from_cstr(m->version->npu_tag));
        (void)nfy_buf_addstr(out, "},\n");
    }
    json_inputs(m, out);
    (void)nfy_buf_addf(
        out,
        "\"summary\":{\"names\":%zu,\"operators\":%zu,\"supported\":%zu,"
        "\"cpu_fallback\":%zu,\"unsupported\":%zu,\"composite\":%zu,"
        "\"unknown\":%zu,\"dynamic\":%zu,\"possibly_dynamic\":%zu,"
        "\"steps_apart\":%s,\"truncated_names\":%zu,"
        "\"steps\":%zu,\"reference_step\":%d,\"rows\":%llu},\n",
        c.names, c.ops, c.supported, c.fallback, c.unsupported, c.composite,
        c.unknown, c.dynamic, c.possible, t->steps_apart ? "true" : "false",
        c.truncated, t->steps.len, (int)m->ref_step,
        (unsigned long long)t->rows);
    (void)nfy_buf_addstr(out, "\"ops\":[");
    double total = nfy_prof_table_self_time(t);
    for (size_t i = 0; i < t->ops.len; i++) {
        (void)nfy_buf_addstr(out, i ? ",\n " : "\n ");
        json_op(&t->ops.items[i], total, &a, out);
    }
    (void)nfy_buf_addstr(out, "]}\n");
    nfy_arena_release(&a);
}

/* Markdown table cell: '|' escaped, newlines flattened. */
static void md_cell(nfy_buf *out, nfy_str s)
{
    for (size_t i = 0; i < s.len; i++) {
        char ch = s.ptr[i];
        if (ch == '|')
            (void)nfy_buf_addstr(out, "\\|");
        else if (ch == '\n' || ch == '\r')
            (void)nfy_buf_addch(out, ' ');
        else
            (void)nfy_buf_addch(out, ch);
    }
}

typedef bool (*op_filter)(const nfy_prof_op *op);

static bool dynamic_op(const nfy_prof_op *op)
{
    return nfy_prof_op_is_operator(op) && op->dyn != NFY_PDYN_STATIC;
}

static void md_section(const nfy_prof_table *t, const char *title,
                       op_filter keep, double total, nfy_arena *a, nfy_buf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < t->ops.len; i++)
        n += keep(&t->ops.items[i]);
    (void)nfy_buf_addf(out, "\n## %s (%zu)\n\n", title, n);
    if (!n) {
        (void)nfy_buf_addstr(out, "None.\n");
        return;
    }
    (void)nfy_buf_addstr(out,
                         "| Operator | Status | Calls | Self time (us) "
                         "| Share | Dynamic | Supported since |\n"
                         "| --- | --- | ---: | ---: | ---: | --- | --- |\n");
    /* ops are sorted by kind then self time: operators by time already */
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_op *op = &t->ops.items[i];
        if (!keep(op))
            continue;
        (void)nfy_buf_addstr(out, "| `");
        md_cell(out, op->kind == NFY_PKIND_OP
                         ? nfy_prof_qualified(a, op->full_name)
                         : op->full_name);
        (void)nfy_buf_addf(out, "` | %s | %lld | %.3f | %.2f%% | %s | ",
                           nfy_prof_status_name(op->status),
                           (long long)op->calls, nfy_prof_op_self_time(op),
                           total > 0 ? 100.0 * nfy_prof_op_self_time(op) / total
                                     : 0.0,
                           nfy_prof_dyn_name(op->dyn));
        md_cell(out, op->first_version);
        (void)nfy_buf_addstr(out, " |\n");
    }
}

/* The work list's sites in the user's code (with_stack profiles). */
static void md_sites(const nfy_prof_table *t, double total, nfy_arena *a,
                     nfy_buf *out)
{
    nfy_buf tmp = NFY_BUF_INIT;
    bool any = false;
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_op *op = &t->ops.items[i];
        if (!nfy__report_ops_needs_work(op) || !op->sites.len)
            continue;
        if (!any)
            (void)nfy_buf_addstr(out, "\nWhere your code calls them "
                                      "(profiled with_stack):\n\n");
        any = true;
        nfy__report_ops_join_sites(op, total, &tmp);
        (void)nfy_buf_addstr(out, "- `");
        md_cell(out, nfy_prof_qualified(a, op->full_name));
        (void)nfy_buf_addstr(out, "`: ");
        md_cell(out, nfy_buf_view(&tmp));
        (void)nfy_buf_addch(out, '\n');
    }
    nfy_buf_release(&tmp);
}

void nfy_report_prof_render_md(const nfy_prof_table *t,
                               const nfy_prof_report_meta *m, nfy_buf *out)
{
    nfy_prof_counts c;
    nfy_prof_table_counts(t, &c);
    nfy_arena a = NFY_ARENA_INIT;
    double total = nfy_prof_table_self_time(t);
    (void)nfy_buf_addstr(out, "# npuify ops: operator report\n\n");
    if (m->version)
        (void)nfy_buf_addf(out, "Target: torch_npu %s (`%s`).\n\n",
                           m->version->name, m->version->npu_tag);
    (void)nfy_buf_addstr(out, "| Input | Format | Tables | Rows | Skipped "
                              "lines |\n| --- | --- | ---: | ---: | ---: |\n");
    for (size_t i = 0; i < m->ninputs; i++) {
        const nfy_prof_input_info *in = &m->inputs[i];
        (void)nfy_buf_addstr(out, "| ");
        md_cell(out, nfy_str_from_cstr(in->path));
        (void)nfy_buf_addf(out, " | %s | %llu | %llu | %llu |\n", in->format,
                           (unsigned long long)in->stats.tables,
                           (unsigned long long)in->stats.rows,
                           (unsigned long long)in->stats.bad_rows);
    }
    (void)nfy_buf_addf(out,
                       "\n%zu distinct names, %zu operators: %zu supported, "
                       "%zu cpu-fallback, %zu unsupported, %zu composite, "
                       "%zu unknown. ",
                       c.names, c.ops, c.supported, c.fallback, c.unsupported,
                       c.composite, c.unknown);
    nfy_prof_dynamic_phrase(t, &c, m->ref_step, out);
    (void)nfy_buf_addstr(out, ".\n");
    md_section(t, "Unsupported and CPU-fallback operators, by self time",
               nfy__report_ops_needs_work, total, &a, out);
    md_sites(t, total, &a, out);
    md_section(t, "Operators unknown to the torch_npu data",
               nfy__report_ops_unknown, total, &a, out);
    md_section(t,
               t->steps_apart ? "Dynamic-shape operators"
                              : "Operators with several input shapes "
                                "(steps cannot be told apart)",
               dynamic_op, total, &a, out);
    size_t kinds[NFY_PKIND__COUNT] = {0};
    for (size_t i = 0; i < t->ops.len; i++)
        kinds[t->ops.items[i].kind]++;
    (void)nfy_buf_addstr(out, "\n## Rows that are not operators\n\n");
    for (int k = NFY_PKIND_AUTOGRAD; k < NFY_PKIND__COUNT; k++)
        (void)nfy_buf_addf(out, "- %s: %zu\n",
                           nfy_prof_kind_name((nfy_prof_kind)k), kinds[k]);
    nfy_arena_release(&a);
}
