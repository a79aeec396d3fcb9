/*
 * `npuify ops` report.html (rendered here, in the report module, with the
 * style and pieces of html_kit.h; proflog reads the logs and answers the
 * queries of proflog.h): one self-contained page (inline CSS, no
 * external resource; a few lines of inline script only sort a table on a
 * header click, the page reads the same without it). Top: the inputs, the
 * steps and the operators by status with their share of self time; then
 * what needs work (unsupported and CPU-fallback operators, by self time),
 * operators unknown to the data, every operator, the dynamic-shape
 * operators (new in a later step, shape changed), the rows that are not
 * operators, and the diagnostics with input:line.
 *
 * Operator names, overloads, shapes and paths come from untrusted logs:
 * every such text goes through nfy_html_escape. Nothing from the input
 * is ever written inside the script or a tag's attribute except as
 * escaped text. Deterministic: no timestamps.
 */
#include <stdlib.h>
#include <string.h>

#include "report/html_kit.h" /* the one style of npuify's pages */
#include "report/ops.h"

enum {
    SHAPES_SHOWN = 20,  /* shape texts listed per op in the dynamic table */
    DIAGS_SHOWN = 1000, /* diagnostics listed (the rest are counted) */
};

static void add_int(nfy_buf *b, long long v)
{
    (void)nfy_buf_addf(b, "%lld", v);
}

static void html_text(nfy_buf *out, nfy_str s)
{
    nfy_html_escape(out, s.ptr, s.len);
}

static void html_cstr(nfy_buf *out, const char *s)
{
    html_text(out, nfy_str_from_cstr(s ? s : ""));
}

static double share_of(double us, double total)
{
    return total > 0 ? 100.0 * us / total : 0.0;
}

/* ---- cells ------------------------------------------------------------ */

static void td_text(nfy_buf *out, nfy_str s, bool code)
{
    (void)nfy_buf_addstr(out, code && s.len ? "<td><code>" : "<td>");
    html_text(out, s);
    (void)nfy_buf_addstr(out, code && s.len ? "</code></td>" : "</td>");
}

static void td_int(nfy_buf *out, long long v)
{
    (void)nfy_buf_addstr(out, "<td class=\"n\" data-v=\"");
    add_int(out, v);
    (void)nfy_buf_addstr(out, "\">");
    add_int(out, v);
    (void)nfy_buf_addstr(out, "</td>");
}

static void td_time(nfy_buf *out, double us)
{
    (void)nfy_buf_addf(out, "<td class=\"n\" data-v=\"%.3f\">%.3f</td>", us,
                       us);
}

static void td_share(nfy_buf *out, double pct)
{
    (void)nfy_buf_addf(out, "<td class=\"n\" data-v=\"%.4f\">%.2f%%</td>", pct,
                       pct);
}

static void td_status(nfy_buf *out, nfy_prof_status s)
{
    const char *name = nfy_prof_status_name(s);
    (void)nfy_buf_addf(out, "<td class=\"st-%s\">%s</td>", name, name);
}

/* Steps as runs ("1-3 5"), sorted by the first step. */
static void td_steps(nfy_buf *out, const nfy_prof_step_vec *steps, nfy_buf *tmp)
{
    nfy__report_ops_join_steps(steps, tmp);
    (void)nfy_buf_addstr(out, "<td data-v=\"");
    add_int(out, steps->len ? steps->items[0] : -1);
    (void)nfy_buf_addstr(out, "\">");
    html_text(out, nfy_buf_view(tmp));
    (void)nfy_buf_addstr(out, "</td>");
}

/* Opens a table with its header row. At phone width a table of many
 * columns would squeeze each to a few letters: the table keeps a width of
 * COL_EM per column and scrolls inside its own box (the page itself never
 * scrolls sideways), and headers break between words only. */
enum { COL_EM = 7 };

static void th_row(nfy_buf *out, const char *const *heads, size_t n)
{
    (void)nfy_buf_addf(out,
                       "<div class=\"wide\" style=\"overflow-x:auto\">"
                       "<table class=\"sort\" style=\"min-width:%zuem\">"
                       "<thead><tr>",
                       n * COL_EM);
    for (size_t i = 0; i < n; i++)
        (void)nfy_buf_addf(out,
                           "<th style=\"overflow-wrap:normal;word-break:"
                           "normal\">%s</th>",
                           heads[i]);
    (void)nfy_buf_addstr(out, "</tr></thead><tbody>\n");
}

static void table_end(nfy_buf *out)
{
    (void)nfy_buf_addstr(out, "</tbody></table></div>\n");
}

/* ---- summary ---------------------------------------------------------- */

static void card(nfy_buf *out, const char *label, size_t n, bool warn)
{
    nfy__report_html_card(out, label, n, warn);
}

static void head(const nfy_prof_table *t, const nfy_prof_report_meta *m,
                 nfy_buf *out)
{
    nfy__report_html_open(out, "npuify ops report",
                          "npuify ops: operator report");
    (void)nfy_buf_addstr(out, "<p class=\"meta\">");
    if (m->version) {
        (void)nfy_buf_addstr(out, "target torch_npu ");
        html_cstr(out, m->version->name);
        (void)nfy_buf_addstr(out, " (<code>");
        html_cstr(out, m->version->npu_tag);
        (void)nfy_buf_addstr(out, "</code>) &middot; ");
    }
    if (t->steps_apart)
        (void)nfy_buf_addf(out, "%zu steps, reference step %d", t->steps.len,
                           (int)m->ref_step);
    else
        (void)nfy_buf_addstr(out, t->steps.len ? "one step only"
                                               : "no step markers");
    (void)nfy_buf_addf(out, " &middot; %llu rows", (unsigned long long)t->rows);
    if (t->accel_name[0]) {
        (void)nfy_buf_addstr(out, " &middot; device times: ");
        html_cstr(out, t->accel_name);
    }
    (void)nfy_buf_addstr(out, "</p>\n");
}

static void inputs_table(const nfy_prof_report_meta *m, nfy_buf *out)
{
    static const char *const heads[] = {"Input",  "Format", "Lines",
                                        "Tables", "Rows",   "Skipped lines",
                                        "Errors"};
    (void)nfy_buf_addstr(out, "<h2 id=\"inputs\">Inputs</h2>\n");
    th_row(out, heads, sizeof heads / sizeof heads[0]);
    for (size_t i = 0; i < m->ninputs; i++) {
        const nfy_prof_input_info *in = &m->inputs[i];
        (void)nfy_buf_addstr(out, "<tr>");
        td_text(out, nfy_str_from_cstr(in->path ? in->path : ""), true);
        td_text(out, nfy_str_from_cstr(in->format ? in->format : ""), false);
        td_int(out, (long long)in->stats.lines);
        td_int(out, (long long)in->stats.tables);
        td_int(out, (long long)in->stats.rows);
        td_int(out, (long long)in->stats.bad_rows);
        td_int(out, (long long)in->errors);
        (void)nfy_buf_addstr(out, "</tr>\n");
    }
    table_end(out);
}

/* Operators per status, with their calls and share of all self time. */
typedef struct {
    size_t ops;
    long long calls;
    double us;
} status_sum;

static void status_row(nfy_buf *out, const char *label, const char *cls,
                       const status_sum *s, double total)
{
    double pct = share_of(s->us, total);
    unsigned w = (unsigned)(pct + 0.5);
    (void)nfy_buf_addf(out,
                       "<tr data-status=\"%s\"><td class=\"st-%s\">%s"
                       "</td>",
                       cls, cls, label);
    td_int(out, (long long)s->ops);
    td_int(out, s->calls);
    td_time(out, s->us);
    td_share(out, pct);
    (void)nfy_buf_addf(out,
                       "<td><div class=\"bar\" style=\"max-width:100%%\"><div "
                       "style=\"width:%u%%\">"
                       "</div></div></td></tr>\n",
                       w > 100 ? 100 : w);
}

static void status_table(const nfy_prof_table *t, double total, nfy_buf *out)
{
    static const char *const heads[] = {"Status",         "Operators", "Calls",
                                        "Self time (us)", "Share",     ""};
    status_sum sums[NFY_PSTAT_UNKNOWN + 1];
    status_sum other = {0, 0, 0};
    memset(sums, 0, sizeof sums);
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_op *op = &t->ops.items[i];
        if (op->kind == NFY_PKIND_STEP)
            continue;
        status_sum *s =
            nfy_prof_op_is_operator(op) ? &sums[op->status] : &other;
        s->ops++;
        s->calls += op->calls > 0 ? op->calls : 0;
        s->us += nfy_prof_op_self_time(op);
    }
    (void)nfy_buf_addstr(out, "<h2 id=\"summary\">Operators by status</h2>\n");
    th_row(out, heads, sizeof heads / sizeof heads[0]);
    for (int s = NFY_PSTAT_SUPPORTED; s <= NFY_PSTAT_UNKNOWN; s++) {
        const char *name = nfy_prof_status_name((nfy_prof_status)s);
        status_row(out, name, name, &sums[s], total);
    }
    if (sums[NFY_PSTAT_UNCHECKED].ops)
        status_row(out, "unchecked", "unchecked", &sums[NFY_PSTAT_UNCHECKED],
                   total);
    status_row(out, "rows that are not operators", "none", &other, total);
    table_end(out);
    (void)nfy_buf_addstr(out, "<p>Share: of the self time "
                              "(host plus device) of every row but the "
                              "profiler steps.</p>\n");
}

static void summary(const nfy_prof_table *t, double total, nfy_buf *out)
{
    nfy_prof_counts c;
    nfy_prof_table_counts(t, &c);
    nfy__report_html_cards_open(out);
    card(out, "operators", c.ops, false);
    card(out, "supported", c.supported, false);
    card(out, "cpu-fallback", c.fallback, true);
    card(out, "unsupported", c.unsupported, true);
    card(out, "composite", c.composite, false);
    card(out, "unknown", c.unknown, true);
    if (t->steps_apart)
        card(out, "dynamic-shape", c.dynamic, true);
    else
        card(out, "possibly dynamic", c.possible, true);
    card(out, "names cut", c.truncated, false);
    card(out, "steps", t->steps.len, false);
    nfy__report_html_cards_close(out);
    status_table(t, total, out);
}

/* ---- operator tables -------------------------------------------------- */

typedef bool (*op_filter)(const nfy_prof_op *op);

static bool any_op(const nfy_prof_op *op)
{
    return nfy_prof_op_is_operator(op);
}

static bool not_op(const nfy_prof_op *op)
{
    return !nfy_prof_op_is_operator(op);
}

static size_t count_if(const nfy_prof_table *t, op_filter keep)
{
    size_t n = 0;
    for (size_t i = 0; i < t->ops.len; i++)
        n += keep(&t->ops.items[i]);
    return n;
}

/* The name reports use: resolved full name, "aten::" added to bare ones. */
static nfy_str shown_name(const nfy_prof_op *op, nfy_arena *a)
{
    return op->kind == NFY_PKIND_OP ? nfy_prof_qualified(a, op->full_name)
                                    : op->full_name;
}

typedef struct {
    const nfy_prof_table *t;
    double total;
    nfy_arena *arena;
    nfy_buf *tmp;
    nfy_buf *out;
} html_ctx;

static void op_row(const html_ctx *h, const nfy_prof_op *op)
{
    nfy_buf *out = h->out;
    (void)nfy_buf_addf(out, "<tr data-status=\"%s\">",
                       nfy_prof_status_name(op->status));
    td_text(out, shown_name(op, h->arena), true);
    td_text(out, op->overload, true);
    td_status(out, op->status);
    td_int(out, op->calls);
    td_time(out, nfy_prof_op_self_time(op));
    td_share(out, share_of(nfy_prof_op_self_time(op), h->total));
    td_steps(out, &op->steps, h->tmp);
    td_text(out, nfy_str_from_cstr(nfy_prof_dyn_name(op->dyn)), false);
    td_text(out, op->first_version, false);
    nfy__report_ops_notes(op, h->tmp);
    if (op->flags & NFY_PROW_NAME_TRUNCATED) { /* the name as printed */
        (void)nfy_buf_addstr(h->tmp, h->tmp->len ? "; printed " : "printed ");
        (void)nfy_buf_addview(h->tmp, op->name);
    }
    td_text(out, nfy_buf_view(h->tmp), false);
    (void)nfy_buf_addstr(out, "</tr>\n");
}

/* One (site, operator) pair of the work list, for the by-line table. */
typedef struct {
    nfy_str file, func;
    uint32_t line;
    const nfy_prof_op *op;
    const nfy_prof_site *site;
} site_ref;

static int cmp_site_ref(const void *pa, const void *pb)
{
    const site_ref *a = pa, *b = pb;
    int c = nfy_str_cmp(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->site->calls > b->site->calls ? -1
           : a->site->calls < b->site->calls
               ? 1
               : nfy_str_cmp(a->op->name, b->op->name);
}

/* The calls found in the source for a site: "torch.heaviside", then
 * the other candidates with their lines ("; :21 Tensor.heaviside"). */
static void site_calls(const nfy_prof_site *s, nfy_buf *tmp)
{
    nfy_buf_reset(tmp);
    for (uint32_t i = 0; i < s->nin_source; i++) {
        const nfy_prof_call *c = &s->in_source[i];
        if (i)
            (void)nfy_buf_addf(tmp, "; :%u ", c->line);
        (void)nfy_buf_addview(tmp, c->api);
    }
}

/* The work list's operators by the line of the user's code they came
 * from (with_stack profiles): file:line, function, operator, calls. */
static void sites_table(const html_ctx *h, op_filter keep)
{
    static const char *const heads[] = {"Source line", "Function", "Call",
                                        "Operator",    "Status",   "Calls",
                                        "Share"};
    NFY_VEC(site_ref) refs = {NULL, 0, 0};
    for (size_t i = 0; i < h->t->ops.len; i++) {
        const nfy_prof_op *op = &h->t->ops.items[i];
        if (!keep(op))
            continue;
        for (size_t k = 0; k < op->sites.len; k++) {
            site_ref r = {{0}, {0}, 0, op, &op->sites.items[k]};
            nfy_prof_site_parts(r.site->text, &r.file, &r.line, &r.func);
            if (r.site->nin_source) { /* the call itself, not the def */
                r.line = r.site->in_source[0].line;
                r.func = r.site->in_source[0].function;
            }
            nfy_vec_push(&refs, r);
        }
    }
    if (!refs.len)
        return;
    qsort(refs.items, refs.len, sizeof *refs.items, cmp_site_ref);
    (void)nfy_buf_addstr(h->out, "<h3 id=\"sites\">By source line</h3>\n");
    th_row(h->out, heads, sizeof heads / sizeof heads[0]);
    for (size_t i = 0; i < refs.len; i++) {
        const site_ref *r = &refs.items[i];
        nfy_buf_reset(h->tmp);
        (void)nfy_buf_addf(h->tmp, "%.*s:%u", NFY_STR_FMT(r->file),
                           (unsigned)r->line);
        (void)nfy_buf_addstr(h->out, "<tr>");
        td_text(h->out, nfy_buf_view(h->tmp), true);
        td_text(h->out, r->func, true);
        site_calls(r->site, h->tmp);
        td_text(h->out, nfy_buf_view(h->tmp), true);
        td_text(h->out, shown_name(r->op, h->arena), true);
        td_status(h->out, r->op->status);
        td_int(h->out, r->site->calls);
        td_share(h->out, share_of(r->site->self_us, h->total));
        (void)nfy_buf_addstr(h->out, "</tr>\n");
    }
    table_end(h->out);
    nfy_vec_free(&refs);
}

/* ops are sorted by kind, then self time: operators come by time already */
static void op_table(const html_ctx *h, const char *id, const char *title,
                     op_filter keep)
{
    static const char *const heads[] = {
        "Operator", "Overload", "Status",  "Calls",           "Self time (us)",
        "Share",    "Steps",    "Dynamic", "Supported since", "Notes"};
    size_t n = count_if(h->t, keep);
    (void)nfy_buf_addf(h->out, "<h2 id=\"%s\">%s (%zu)</h2>\n", id, title, n);
    if (!n) {
        (void)nfy_buf_addstr(h->out, "<p>None.</p>\n");
        return;
    }
    th_row(h->out, heads, sizeof heads / sizeof heads[0]);
    for (size_t i = 0; i < h->t->ops.len; i++)
        if (keep(&h->t->ops.items[i]))
            op_row(h, &h->t->ops.items[i]);
    table_end(h->out);
    if (!strcmp(id, "work"))
        sites_table(h, keep);
}

/* Shape texts first seen in the reference step or before it (in_ref), or
 * after it (with "@step"); at most SHAPES_SHOWN, then a count. */
static void td_shapes(nfy_buf *out, const nfy_prof_op *op, int32_t ref,
                      bool in_ref)
{
    size_t shown = 0, more = 0;
    (void)nfy_buf_addstr(out, "<td>");
    for (size_t k = 0; k < op->shapes.len; k++) {
        const nfy_prof_shape *s = &op->shapes.items[k];
        bool all = op->dyn == NFY_PDYN_POSSIBLE; /* no step to cut at */
        bool early = all || (s->first_step >= 0 && s->first_step <= ref);
        bool late = !all && s->first_step > ref;
        if (in_ref ? !early : !late)
            continue;
        if (shown == SHAPES_SHOWN) {
            more++;
            continue;
        }
        (void)nfy_buf_addstr(out, shown++ ? "<br><code>" : "<code>");
        html_text(out, s->text);
        (void)nfy_buf_addstr(out, "</code>");
        if (!in_ref)
            (void)nfy_buf_addf(out, " @%d", (int)s->first_step);
    }
    if (more)
        (void)nfy_buf_addf(out, "<br>&hellip; %zu more", more);
    (void)nfy_buf_addstr(out, "</td>");
}

static void dynamic_table(const html_ctx *h, const nfy_prof_report_meta *m,
                          nfy_prof_dyn which, const char *title)
{
    static const char *const heads[] = {"Operator",
                                        "Status",
                                        "Calls",
                                        "Self time (us)",
                                        "Shapes in reference",
                                        "New shapes @ step",
                                        "Steps"};
    static const char *const heads_apart[] = {"Operator",     "Status",
                                              "Calls",        "Self time (us)",
                                              "Input shapes", "Steps"};
    bool apart = which == NFY_PDYN_POSSIBLE;
    size_t n = 0;
    for (size_t i = 0; i < h->t->ops.len; i++)
        n += nfy_prof_op_is_operator(&h->t->ops.items[i]) &&
             h->t->ops.items[i].dyn == which;
    (void)nfy_buf_addf(h->out, "<h3>%s (%zu)</h3>\n", title, n);
    if (!n) {
        (void)nfy_buf_addstr(h->out, "<p>None.</p>\n");
        return;
    }
    if (apart)
        th_row(h->out, heads_apart, sizeof heads_apart / sizeof *heads_apart);
    else
        th_row(h->out, heads, sizeof heads / sizeof heads[0]);
    for (size_t i = 0; i < h->t->ops.len; i++) {
        const nfy_prof_op *op = &h->t->ops.items[i];
        if (!nfy_prof_op_is_operator(op) || op->dyn != which)
            continue;
        (void)nfy_buf_addf(h->out, "<tr data-dynamic=\"%s\">",
                           nfy_prof_dyn_name(op->dyn));
        td_text(h->out, shown_name(op, h->arena), true);
        td_status(h->out, op->status);
        td_int(h->out, op->calls);
        td_time(h->out, nfy_prof_op_self_time(op));
        td_shapes(h->out, op, m->ref_step, true);
        if (!apart)
            td_shapes(h->out, op, m->ref_step, false);
        td_steps(h->out, &op->steps, h->tmp);
        (void)nfy_buf_addstr(h->out, "</tr>\n");
    }
    table_end(h->out);
}

static void dynamic_section(const html_ctx *h, const nfy_prof_report_meta *m)
{
    if (!h->t->steps_apart) {
        nfy_prof_counts c;
        nfy_prof_table_counts(h->t, &c);
        nfy_buf_reset(h->tmp);
        nfy_prof_dynamic_phrase(h->t, &c, m->ref_step, h->tmp);
        (void)nfy_buf_addstr(h->out,
                             "<h2 id=\"dynamic\">Dynamic-shape operators</h2>\n"
                             "<p>");
        html_text(h->out, nfy_buf_view(h->tmp));
        (void)nfy_buf_addstr(h->out,
                             ". A log with one table per step (or a trace "
                             "with ProfilerStep markers) tells which shapes "
                             "change between steps.</p>\n");
        dynamic_table(h, m, NFY_PDYN_POSSIBLE, "Several input shapes");
        return;
    }
    (void)nfy_buf_addf(h->out,
                       "<h2 id=\"dynamic\">Dynamic-shape operators</h2>\n"
                       "<p>Against reference step %d: an operator absent "
                       "from it, or called there with other input shapes "
                       "than in a later step (each new shape compiles "
                       "again on the NPU).</p>\n",
                       (int)m->ref_step);
    dynamic_table(h, m, NFY_PDYN_NEW_LATER, "New in a later step");
    dynamic_table(h, m, NFY_PDYN_SHAPE_CHANGED, "Shape changed");
}

static void other_rows(const html_ctx *h)
{
    static const char *const heads[] = {"Name",           "Kind",  "Calls",
                                        "Self time (us)", "Share", "Steps"};
    size_t n = count_if(h->t, not_op);
    (void)nfy_buf_addf(h->out,
                       "<h2 id=\"other\">Rows that are not operators (%zu)"
                       "</h2>\n",
                       n);
    if (!n) {
        (void)nfy_buf_addstr(h->out, "<p>None.</p>\n");
        return;
    }
    (void)nfy_buf_addstr(h->out, "<details><summary>autograd nodes, "
                                 "annotations, steps, runtime calls, "
                                 "kernels</summary>\n");
    th_row(h->out, heads, sizeof heads / sizeof heads[0]);
    for (size_t i = 0; i < h->t->ops.len; i++) {
        const nfy_prof_op *op = &h->t->ops.items[i];
        if (!not_op(op))
            continue;
        (void)nfy_buf_addstr(h->out, "<tr>");
        td_text(h->out, op->full_name, true);
        td_text(h->out, nfy_str_from_cstr(nfy_prof_kind_name(op->kind)), false);
        td_int(h->out, op->calls);
        td_time(h->out, nfy_prof_op_self_time(op));
        td_share(h->out, op->kind == NFY_PKIND_STEP
                             ? 0.0
                             : share_of(nfy_prof_op_self_time(op), h->total));
        td_steps(h->out, &op->steps, h->tmp);
        (void)nfy_buf_addstr(h->out, "</tr>\n");
    }
    table_end(h->out);
    (void)nfy_buf_addstr(h->out, "</details>\n");
}

/* ---- diagnostics ------------------------------------------------------ */

static void diag_row(nfy_buf *out, const nfy_diag *dg, nfy_buf *tmp)
{
    nfy_buf_reset(tmp);
    (void)nfy_buf_addstr(tmp, dg->file ? dg->file : "");
    if (dg->line) {
        (void)nfy_buf_addch(tmp, ':');
        add_int(tmp, dg->line);
    }
    const char *sev = nfy_severity_name(dg->sev);
    (void)nfy_buf_addstr(out, "<tr>");
    td_text(out, nfy_buf_view(tmp), true);
    (void)nfy_buf_addf(out, "<td class=\"sev-%s\">%s</td>", sev, sev);
    td_text(out, nfy_str_from_cstr(dg->code ? dg->code : ""), false);
    td_text(out, nfy_str_from_cstr(dg->msg ? dg->msg : ""), false);
    (void)nfy_buf_addstr(out, "</tr>\n");
}

/* Errors and warnings first, then notes (skipped interleaved lines). */
static void diagnostics(const nfy_diags *d, nfy_buf *tmp, nfy_buf *out)
{
    static const char *const heads[] = {"Location", "Severity", "Code",
                                        "Message"};
    size_t n = d ? d->items.len : 0, shown = 0;
    (void)nfy_buf_addf(out, "<h2 id=\"diagnostics\">Diagnostics (%zu)</h2>\n",
                       n + (d ? d->dropped : 0));
    if (!n) {
        (void)nfy_buf_addstr(out, "<p>None.</p>\n");
        return;
    }
    th_row(out, heads, sizeof heads / sizeof heads[0]);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n && shown < DIAGS_SHOWN; i++) {
            const nfy_diag *dg = &d->items.items[i];
            if ((dg->sev >= NFY_SEV_WARNING) == (pass == 0)) {
                diag_row(out, dg, tmp);
                shown++;
            }
        }
    table_end(out);
    if (n + d->dropped > shown)
        (void)nfy_buf_addf(out, "<p>%zu more not shown.</p>\n",
                           n + d->dropped - shown);
}

void nfy_report_prof_render_html(const nfy_prof_table *t,
                                 const nfy_prof_report_meta *m, nfy_buf *out)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_buf tmp = NFY_BUF_INIT;
    double total = nfy_prof_table_self_time(t);
    html_ctx h = {t, total, &a, &tmp, out};
    head(t, m, out);
    summary(t, total, out);
    inputs_table(m, out);
    op_table(&h, "work", "Unsupported and CPU-fallback operators, by self time",
             nfy__report_ops_needs_work);
    op_table(&h, "unknown", "Operators unknown to the torch_npu data",
             nfy__report_ops_unknown);
    op_table(&h, "ops", "All operators", any_op);
    dynamic_section(&h, m);
    other_rows(&h);
    diagnostics(m->diags, &tmp, out);
    nfy__report_html_close(out);
    nfy_buf_release(&tmp);
    nfy_arena_release(&a);
}
