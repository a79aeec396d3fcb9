/*
 * The NPU profile's reports: npu_summary.md (findings first, then the time
 * by core and the top operator types), npu_report.json (schema
 * "npuify-npu-profile/1"), npu_types.csv, npu_report.html (one
 * self-contained page, no script: a bar chart of device time by core, the
 * findings, the top types; every input text HTML-escaped), and for
 * --compare compare.md and compare.csv. Deterministic: fixed number formats, no
 * timestamps.
 */
#include <math.h>

#include "npuprof/npuprof.h"

#define TOP_TYPES 15

static const char *sev_name(nfy_severity s)
{
    return s == NFY_SEV_ERROR     ? "error"
           : s == NFY_SEV_WARNING ? "warning"
                                  : "note";
}

/* A Markdown table cell: '|' escaped, line breaks as spaces. */
static void md_cell(nfy_buf *b, nfy_str s)
{
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        if (c == '|')
            (void)nfy_buf_addstr(b, "\\|");
        else
            (void)nfy_buf_addch(b, c == '\n' || c == '\r' ? ' ' : c);
    }
}

static void md_cstr(nfy_buf *b, const char *s)
{
    md_cell(b, nfy_str_from_cstr(s ? s : ""));
}

static void json_str(nfy_buf *b, const char *key, nfy_str v, bool comma)
{
    (void)nfy_buf_addf(b, "\"%s\": ", key);
    nfy_json_escape(b, v.ptr, v.len); /* quotes included */
    (void)nfy_buf_addstr(b, comma ? ", " : "");
}

static void json_cstr(nfy_buf *b, const char *key, const char *v, bool comma)
{
    if (!v) {
        (void)nfy_buf_addf(b, "\"%s\": null%s", key, comma ? ", " : "");
        return;
    }
    json_str(b, key, nfy_str_from_cstr(v), comma);
}

static double fin(double v)
{
    return isfinite(v) ? v : 0;
}

static void md_sources(const nfy_npu_profile *p, nfy_buf *b)
{
    const char *names[] = {"kernel_details", "op_statistic", "trace_view",
                           "db"};
    const char *paths[] = {p->src.kernel_details, p->src.op_statistic,
                           p->src.trace_view, p->src.db};
    (void)nfy_buf_addstr(b, "Read:");
    for (size_t i = 0; i < 4; i++)
        if (paths[i])
            (void)nfy_buf_addf(b, " %s (`%s`)", names[i], paths[i]);
    (void)nfy_buf_addf(b, ".%s\n\n",
                       p->bad_rows ? " Some rows were skipped (see the "
                                     "diagnostics)."
                                   : "");
}

static void md_findings(const nfy_npu_analysis *a, nfy_buf *b)
{
    (void)nfy_buf_addstr(b, "## Why it is slow\n\n");
    if (!a->items.len)
        (void)nfy_buf_addstr(b, "No finding: no AI_CPU kernel, no FP32 "
                                "matrix work, no host-bound gaps, no unfused "
                                "optimizer were seen.\n\n");
    for (size_t i = 0; i < a->items.len; i++) {
        const nfy_npu_finding *f = &a->items.items[i];
        (void)nfy_buf_addf(b, "### %s %s: %s\n\n", f->code, sev_name(f->sev),
                           f->title);
        (void)nfy_buf_addf(b, "%s\n\n", f->evidence ? f->evidence : "");
        if (f->ops && *f->ops)
            (void)nfy_buf_addf(b, "Operator types: %s.\n\n", f->ops);
        (void)nfy_buf_addf(b, "Fix: %s\n\n", f->advice);
    }
}

static void md_breakdown(const nfy_npu_analysis *a, nfy_buf *b)
{
    (void)nfy_buf_addstr(b, "## Device time by core\n\n| core | time (us) | "
                            "share |\n| --- | ---: | ---: |\n");
    for (int c = 0; c < NFY_NCORE__COUNT; c++) {
        if (a->core_us[c] <= 0)
            continue;
        (void)nfy_buf_addf(b, "| %s | %.1f | %.1f%% |\n",
                           nfy_npuprof_core_name(c), a->core_us[c],
                           a->kernel_us > 0 ? 100 * a->core_us[c] / a->kernel_us
                                            : 0);
    }
    (void)nfy_buf_addf(b, "\n## Top operator types\n\n| type | core | input "
                          "dtypes | kernels | time (us) | per step (us) | "
                          "max (us) | share |\n| --- | --- | --- | ---: | ---: "
                          "| ---: | ---: | ---: |\n");
    for (size_t i = 0; i < a->types.len && i < TOP_TYPES; i++) {
        const nfy_npu_typesum *t = &a->types.items[i];
        (void)nfy_buf_addstr(b, "| ");
        md_cell(b, t->type);
        (void)nfy_buf_addf(b, " | %s | ", nfy_npuprof_core_name(t->core));
        md_cell(b, t->dtypes);
        (void)nfy_buf_addf(
            b, " | %lld | %.1f | %.1f | %.1f | %.1f%% |\n", (long long)t->count,
            t->total_us,
            a->steps ? t->total_us / (double)a->steps : t->total_us, t->max_us,
            a->kernel_us > 0 ? 100 * t->total_us / a->kernel_us : 0);
    }
    (void)nfy_buf_addch(b, '\n');
}

void nfy_npuprof_render_md(const nfy_npu_profile *p, const nfy_npu_analysis *a,
                           nfy_buf *b)
{
    (void)nfy_buf_addstr(b, "# NPU profile\n\n");
    md_sources(p, b);
    (void)nfy_buf_addf(b, "%lld kernels, %.1f us of device time",
                       (long long)a->kernels, a->kernel_us);
    if (a->steps)
        (void)nfy_buf_addf(b, " over %lld steps (%.1f us per step)",
                           (long long)a->steps, a->step_us);
    if (a->span_us > 0)
        (void)nfy_buf_addf(b, "; device busy %.1f us of %.1f us inside steps",
                           a->busy_us, a->span_us);
    (void)nfy_buf_addf(b, "; %zu finding%s.\n\n", a->items.len,
                       a->items.len == 1 ? "" : "s");
    md_findings(a, b);
    md_breakdown(a, b);
}

void nfy_npuprof_render_json(const nfy_npu_profile *p,
                             const nfy_npu_analysis *a, nfy_buf *b)
{
    (void)nfy_buf_addstr(b, "{\"schema\": \"npuify-npu-profile/1\", "
                            "\"sources\": {");
    json_cstr(b, "kernel_details", p->src.kernel_details, true);
    json_cstr(b, "op_statistic", p->src.op_statistic, true);
    json_cstr(b, "trace_view", p->src.trace_view, true);
    json_cstr(b, "db", p->src.db, false);
    (void)nfy_buf_addf(
        b,
        "},\n \"kernels\": %lld, \"kernel_us\": %.3f, \"steps\": "
        "%lld, \"span_us\": %.3f, \"busy_us\": %.3f, "
        "\"bad_rows\": %llu,\n \"core_us\": {",
        (long long)a->kernels, a->kernel_us, (long long)a->steps, a->span_us,
        a->busy_us, (unsigned long long)p->bad_rows);
    for (int c = 0; c < NFY_NCORE__COUNT; c++)
        (void)nfy_buf_addf(b, "%s\"%s\": %.3f", c ? ", " : "",
                           nfy_npuprof_core_name(c), a->core_us[c]);
    const nfy_npu_timeline *t = &p->tl;
    (void)nfy_buf_addf(
        b,
        "},\n \"timeline\": {\"overlap\": %s, \"computing_us\": %.3f, "
        "\"communication_us\": %.3f, \"comm_not_overlapped_us\": %.3f, "
        "\"free_us\": %.3f, \"enqueue\": %lld, \"enqueue_us\": %.3f, "
        "\"dequeue\": %lld, \"dequeue_us\": %.3f, \"flows\": %lld},\n "
        "\"findings\": [",
        t->overlap ? "true" : "false", t->computing_us, t->communication_us,
        t->comm_not_overlapped_us, t->free_us, (long long)t->enqueue_n,
        t->enqueue_us, (long long)t->dequeue_n, t->dequeue_us,
        (long long)t->flows);
    for (size_t i = 0; i < a->items.len; i++) {
        const nfy_npu_finding *f = &a->items.items[i];
        (void)nfy_buf_addstr(b, i ? ",\n  {" : "\n  {");
        json_cstr(b, "code", f->code, true);
        json_cstr(b, "severity", sev_name(f->sev), true);
        json_cstr(b, "title", f->title, true);
        (void)nfy_buf_addf(b,
                           "\"time_us\": %.3f, \"share\": %.4f, \"count\": "
                           "%lld, ",
                           fin(f->time_us), fin(f->share), (long long)f->count);
        json_cstr(b, "evidence", f->evidence ? f->evidence : "", true);
        json_cstr(b, "operators", f->ops ? f->ops : "", true);
        json_cstr(b, "advice", f->advice, false);
        (void)nfy_buf_addch(b, '}');
    }
    (void)nfy_buf_addstr(b, "],\n \"top_types\": [");
    for (size_t i = 0; i < a->types.len && i < TOP_TYPES; i++) {
        const nfy_npu_typesum *ty = &a->types.items[i];
        (void)nfy_buf_addstr(b, i ? ",\n  {" : "\n  {");
        json_str(b, "type", ty->type, true);
        json_cstr(b, "core", nfy_npuprof_core_name(ty->core), true);
        json_str(b, "input_dtypes", ty->dtypes, true);
        (void)nfy_buf_addf(b,
                           "\"count\": %lld, \"total_us\": %.3f, \"max_us\": "
                           "%.3f}",
                           (long long)ty->count, ty->total_us, ty->max_us);
    }
    (void)nfy_buf_addstr(b, "]}\n");
}

void nfy_npuprof_render_types_csv(const nfy_npu_analysis *a, nfy_buf *b)
{
    (void)nfy_buf_addstr(b, "Type,Core,Input Data Types,Kernels,Total Time(us),"
                            "Max Time(us),Share(%)\n");
    for (size_t i = 0; i < a->types.len; i++) {
        const nfy_npu_typesum *t = &a->types.items[i];
        nfy_csv_escape(b, t->type.ptr, t->type.len);
        (void)nfy_buf_addf(b, ",%s,", nfy_npuprof_core_name(t->core));
        nfy_csv_escape(b, t->dtypes.ptr, t->dtypes.len);
        (void)nfy_buf_addf(
            b, ",%lld,%.3f,%.3f,%.2f\n", (long long)t->count, t->total_us,
            t->max_us, a->kernel_us > 0 ? 100 * t->total_us / a->kernel_us : 0);
    }
}

static const char *side(const nfy_npu_cmp_row *r)
{
    return r->on_gpu && r->on_npu ? "both"
           : r->on_gpu            ? "gpu-only"
                                  : "npu-only";
}

static void ratio(nfy_buf *b, const nfy_npu_cmp_row *r)
{
    if (r->gpu_us > 0 && r->on_npu)
        (void)nfy_buf_addf(b, "%.2fx", r->npu_us / r->gpu_us);
    else
        (void)nfy_buf_addstr(b, "-");
}

void nfy_npuprof_render_compare_md(const nfy_npu_compare *c, nfy_buf *b)
{
    const char *what = c->by_host ? "host time" : "device time";
    (void)nfy_buf_addf(
        b,
        "# GPU and NPU, operator by operator\n\n%zu operators on both sides, "
        "%zu only on the GPU, %zu only on the NPU. Operator %s %s: GPU "
        "%.1f us, NPU %.1f us.%s\n\n",
        c->both, c->only_gpu, c->only_npu, what,
        c->gpu_steps > 1 || c->npu_steps > 1 ? "per step" : "in all",
        c->gpu_total_us, c->npu_total_us,
        c->by_host ? " The GPU profile has no device times (a CPU-only run?), "
                     "so host times are compared."
                   : "");
    (void)nfy_buf_addf(b,
                       "Biggest regressions first (NPU minus GPU %s).\n\n"
                       "| operator | side | GPU calls | NPU calls | GPU "
                       "(us) | NPU (us) | NPU/GPU | GPU share | NPU share "
                       "|\n| --- | --- | ---: | ---: | ---: | ---: | ---: "
                       "| ---: | ---: |\n",
                       what);
    for (size_t i = 0; i < c->rows.len; i++) {
        const nfy_npu_cmp_row *r = &c->rows.items[i];
        (void)nfy_buf_addstr(b, "| ");
        md_cell(b, r->name);
        (void)nfy_buf_addf(b, " | %s | %lld | %lld | %.1f | %.1f | ", side(r),
                           (long long)r->gpu_calls, (long long)r->npu_calls,
                           r->gpu_us, r->npu_us);
        ratio(b, r);
        (void)nfy_buf_addf(b, " | %.1f%% | %.1f%% |\n", 100 * r->gpu_share,
                           100 * r->npu_share);
    }
    md_cstr(b, "");
    (void)nfy_buf_addch(b, '\n');
}

void nfy_npuprof_render_compare_csv(const nfy_npu_compare *c, nfy_buf *b)
{
    (void)nfy_buf_addstr(b, "Operator,Side,GPU Calls,NPU Calls,GPU Time(us),"
                            "NPU Time(us),Diff(us),GPU Share(%),NPU Share(%),"
                            "GPU Host(us),NPU Host(us)\n");
    for (size_t i = 0; i < c->rows.len; i++) {
        const nfy_npu_cmp_row *r = &c->rows.items[i];
        nfy_csv_escape(b, r->name.ptr, r->name.len);
        (void)nfy_buf_addf(b,
                           ",%s,%lld,%lld,%.3f,%.3f,%.3f,%.2f,%.2f,%.3f,"
                           "%.3f\n",
                           side(r), (long long)r->gpu_calls,
                           (long long)r->npu_calls, r->gpu_us, r->npu_us,
                           r->npu_us - r->gpu_us, 100 * r->gpu_share,
                           100 * r->npu_share, r->gpu_host_us, r->npu_host_us);
    }
}

/* ---- npu_report.html ------------------------------------------------------
 */

static void html_text(nfy_buf *b, const char *s)
{
    nfy_html_escape(b, s ? s : "", s ? strlen(s) : 0);
}

/* One horizontal bar per core: its share of device time (inline SVG). */
static void html_core_chart(const nfy_npu_analysis *a, nfy_buf *b)
{
    static const char *const colour[NFY_NCORE__COUNT] = {
        "#999", "#2b6cb0", "#38a169", "#e53e3e", "#805ad5", "#dd6b20"};
    int rows = 0;
    for (int c = 0; c < NFY_NCORE__COUNT; c++)
        rows += a->core_us[c] > 0;
    (void)nfy_buf_addf(b,
                       "<svg role=\"img\" aria-label=\"device time by core\" "
                       "width=\"560\" height=\"%d\">",
                       rows * 26 + 4);
    int y = 2;
    for (int c = 0; c < NFY_NCORE__COUNT; c++) {
        if (a->core_us[c] <= 0)
            continue;
        double share = a->kernel_us > 0 ? a->core_us[c] / a->kernel_us : 0;
        (void)nfy_buf_addf(b,
                           "<text x=\"0\" y=\"%d\" font-size=\"13\">%s</text>"
                           "<rect x=\"130\" y=\"%d\" width=\"%.1f\" "
                           "height=\"18\" fill=\"%s\"/><text x=\"%.1f\" "
                           "y=\"%d\" font-size=\"13\">%.1f us (%.1f%%)</text>",
                           y + 14, nfy_npuprof_core_name(c), y, 300 * share,
                           colour[c], 136 + 300 * share, y + 14, a->core_us[c],
                           100 * share);
        y += 26;
    }
    (void)nfy_buf_addstr(b, "</svg>\n");
}

void nfy_npuprof_render_html(const nfy_npu_profile *p,
                             const nfy_npu_analysis *a, nfy_buf *b)
{
    (void)p;
    (void)nfy_buf_addstr(
        b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width\">"
           "<title>NPU profile</title><style>body{font-family:sans-serif;"
           "max-width:60em;margin:auto;padding:0 1em}table{border-collapse:"
           "collapse;display:block;overflow-x:auto}td,th{border:1px solid "
           "#ccc;padding:2px 6px;text-align:left}svg{max-width:100%}</style>"
           "</head><body>\n<h1>NPU profile</h1>\n");
    (void)nfy_buf_addf(b,
                       "<p>%lld kernels, %.1f us of device time, %lld steps, "
                       "%zu findings.</p>\n<h2>Device time by core</h2>\n",
                       (long long)a->kernels, a->kernel_us, (long long)a->steps,
                       a->items.len);
    html_core_chart(a, b);
    (void)nfy_buf_addstr(b, "<h2>Why it is slow</h2>\n");
    for (size_t i = 0; i < a->items.len; i++) {
        const nfy_npu_finding *f = &a->items.items[i];
        (void)nfy_buf_addf(b, "<h3>%s %s: ", f->code, sev_name(f->sev));
        html_text(b, f->title);
        (void)nfy_buf_addstr(b, "</h3>\n<p>");
        html_text(b, f->evidence);
        if (f->ops && *f->ops) {
            (void)nfy_buf_addstr(b, "</p>\n<p>Operator types: ");
            html_text(b, f->ops);
        }
        (void)nfy_buf_addstr(b, "</p>\n<p>Fix: ");
        html_text(b, f->advice);
        (void)nfy_buf_addstr(b, "</p>\n");
    }
    (void)nfy_buf_addstr(b, "<h2>Top operator types</h2>\n<table><tr><th>type"
                            "</th><th>core</th><th>input dtypes</th><th>"
                            "kernels</th><th>time (us)</th><th>share</th>"
                            "</tr>\n");
    for (size_t i = 0; i < a->types.len && i < TOP_TYPES; i++) {
        const nfy_npu_typesum *t = &a->types.items[i];
        (void)nfy_buf_addstr(b, "<tr><td>");
        nfy_html_escape(b, t->type.ptr, t->type.len);
        (void)nfy_buf_addf(b, "</td><td>%s</td><td>",
                           nfy_npuprof_core_name(t->core));
        nfy_html_escape(b, t->dtypes.ptr, t->dtypes.len);
        (void)nfy_buf_addf(b,
                           "</td><td>%lld</td><td>%.1f</td><td>%.1f%%</td>"
                           "</tr>\n",
                           (long long)t->count, t->total_us,
                           a->kernel_us > 0 ? 100 * t->total_us / a->kernel_us
                                            : 0);
    }
    (void)nfy_buf_addstr(b, "</table>\n</body></html>\n");
}

static nfy_status write_one(const char *dir, const char *name, nfy_buf *b)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_status st = b->status;
    if (st == NFY_OK)
        st = nfy_file_write_atomic(nfy_path_join(&a, dir, name),
                                   b->data ? b->data : "", b->len, 0644);
    nfy_arena_release(&a);
    nfy_buf_reset(b);
    return st;
}

nfy_status nfy_npuprof_write_reports(const nfy_npu_profile *p,
                                     const nfy_npu_analysis *a,
                                     const nfy_npu_compare *c, const char *dir)
{
    nfy_status st = nfy_mkdirs(dir, 0755);
    if (st != NFY_OK)
        return st;
    nfy_buf b = NFY_BUF_INIT;
    nfy_npuprof_render_md(p, a, &b);
    st = write_one(dir, "npu_summary.md", &b);
    nfy_npuprof_render_json(p, a, &b);
    if (st == NFY_OK)
        st = write_one(dir, "npu_report.json", &b);
    nfy_npuprof_render_types_csv(a, &b);
    if (st == NFY_OK)
        st = write_one(dir, "npu_types.csv", &b);
    nfy_npuprof_render_html(p, a, &b);
    if (st == NFY_OK)
        st = write_one(dir, "npu_report.html", &b);
    if (c) {
        nfy_npuprof_render_compare_md(c, &b);
        if (st == NFY_OK)
            st = write_one(dir, "compare.md", &b);
        nfy_npuprof_render_compare_csv(c, &b);
        if (st == NFY_OK)
            st = write_one(dir, "compare.csv", &b);
    }
    nfy_buf_release(&b);
    return st;
}
