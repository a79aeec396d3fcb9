/*
 * Diagnostics of one document: convert its text in memory, keep each
 * finding (with its edit, for code actions) and publish them. The publish
 * message is written as JSON text straight from the findings (thousands
 * of diagnostics in a large file: no tree of JSON objects to build and
 * free); code actions rebuild the few diagnostics they quote.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_internal.h"
#include "report/report.h"

enum { SEV_ERROR = 1, SEV_WARNING = 2, SEV_INFO = 3, SEV_HINT = 4 };

static const char related_note[] = "the same value: changed together";

static int lsp_severity(const nfy_finding *f)
{
    if (f->cat == NFY_CAT_LEFT_UNCHANGED)
        return SEV_HINT;
    return f->rule_severity == NFY_SEV_ERROR     ? SEV_ERROR
           : f->rule_severity == NFY_SEV_WARNING ? SEV_WARNING
                                                 : SEV_INFO;
}

static bool adds_import(const nfy_finding *f)
{
    return f->op == NFY_OPTYPE_INSERT && f->after &&
           (!strncmp(f->after, "import ", 7) || !strncmp(f->after, "from ", 5));
}

void nfy__lsp_keep_finding(nfy__lsp_server *s, nfy__lsp_doc *doc,
                           const nfy__lsp_lines *lines, uint32_t first_line,
                           const nfy_finding *f)
{
    const nfy_rule *r = nfy_rules_set_find(s->rules, f->rule);
    nfy__lsp_finding k = {0};
    k.start = nfy__lsp_position(lines, f->start_line, f->start_col);
    k.end = nfy__lsp_position(lines, f->end_line, f->end_col);
    k.start.line -= first_line;
    k.end.line -= first_line;
    k.change = f->cat == NFY_CAT_CHANGE;
    k.rule = nfy_arena_strdup(&doc->arena, f->rule);
    k.message = nfy_arena_strdup(&doc->arena, f->message ? f->message : "");
    k.hint = r ? r->hint : NULL;
    k.after = nfy_arena_strdup(&doc->arena, f->after ? f->after : "");
    k.value_set_id = nfy_arena_strdup(&doc->arena, f->value_set_id);
    k.safety = f->safety;
    k.import = k.change && adds_import(f);
    k.severity = lsp_severity(f);
    nfy_vec_push(&doc->findings, k);
}

json_t *nfy__lsp_range_json(nfy__lsp_pos start, nfy__lsp_pos end)
{
    return json_pack(
        "{s:{s:I,s:I},s:{s:I,s:I}}", "start", "line", (json_int_t)start.line,
        "character", (json_int_t)start.character, "end", "line",
        (json_int_t)end.line, "character", (json_int_t)end.character);
}

/* ---- the published text ---- */

static void add_str(nfy_buf *b, const char *s)
{
    nfy_json_escape(b, s, strlen(s));
}

static void add_range(nfy_buf *b, nfy__lsp_pos start, nfy__lsp_pos end)
{
    nfy_buf_addf(b,
                 "{\"start\":{\"line\":%u,\"character\":%u},"
                 "\"end\":{\"line\":%u,\"character\":%u}}",
                 start.line, start.character, end.line, end.character);
}

/* Findings of one value set are adjacent in a sorted index list. */
typedef struct {
    size_t *order; /* finding indices with a value set, by set id */
    size_t n;
    const nfy__lsp_doc *doc;
} value_sets;

static int by_set(const void *a, const void *b, void *ctx)
{
    const nfy__lsp_doc *doc = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int c = strcmp(doc->findings.items[i].value_set_id,
                   doc->findings.items[j].value_set_id);
    return c ? c : (i > j) - (i < j);
}

static void value_sets_build(value_sets *v, const nfy__lsp_doc *doc)
{
    v->doc = doc;
    v->n = 0;
    v->order = malloc((doc->findings.len + 1) * sizeof *v->order);
    if (!v->order)
        abort();
    for (size_t i = 0; i < doc->findings.len; i++)
        if (doc->findings.items[i].value_set_id)
            v->order[v->n++] = i;
    qsort_r(v->order, v->n, sizeof *v->order, by_set, (void *)doc);
}

/* [*from, *to) of v->order: the members of finding i's set. */
static bool set_members(const value_sets *v, size_t i, size_t *from, size_t *to)
{
    const char *id = v->doc->findings.items[i].value_set_id;
    if (!id)
        return false;
    size_t lo = 0, hi = v->n;
    while (lo < hi) { /* the first member of the set */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(v->doc->findings.items[v->order[mid]].value_set_id, id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t e = lo;
    while (e < v->n &&
           !strcmp(v->doc->findings.items[v->order[e]].value_set_id, id))
        e++;
    *from = lo;
    *to = e;
    return e - lo > 1;
}

static void add_related(nfy_buf *b, const value_sets *v, size_t i)
{
    size_t from, to;
    if (!set_members(v, i, &from, &to))
        return;
    nfy_buf_addstr(b, ",\"relatedInformation\":[");
    bool first = true;
    for (size_t m = from; m < to; m++) {
        size_t j = v->order[m];
        if (j == i)
            continue;
        nfy_buf_addstr(b, first ? "{\"location\":{\"uri\":"
                                : ",{\"location\":{\"uri\":");
        first = false;
        add_str(b, v->doc->uri);
        nfy_buf_addstr(b, ",\"range\":");
        add_range(b, v->doc->findings.items[j].start,
                  v->doc->findings.items[j].end);
        nfy_buf_addf(b, "},\"message\":\"%s\"}", related_note);
    }
    nfy_buf_addch(b, ']');
}

static void add_diagnostic(nfy__lsp_server *s, nfy_buf *b, const value_sets *v,
                           size_t i)
{
    const nfy__lsp_finding *k = &v->doc->findings.items[i];
    nfy_buf_addstr(b, "{\"range\":");
    add_range(b, k->start, k->end);
    nfy_buf_addf(
        b, ",\"severity\":%d,\"source\":\"npuify\",\"code\":", k->severity);
    add_str(b, k->rule);
    char *href = nfy__lsp_explain_uri(s, k->rule);
    if (href) {
        nfy_buf_addstr(b, ",\"codeDescription\":{\"href\":");
        add_str(b, href);
        nfy_buf_addch(b, '}');
        free(href);
    }
    nfy_buf_addstr(b, ",\"message\":");
    add_str(b, k->message);
    add_related(b, v, i);
    nfy_buf_addch(b, '}');
}

static void add_input_diagnostic(nfy_buf *b, const nfy__lsp_lines *lines,
                                 const nfy_diag *dg, uint32_t first_line)
{
    nfy__lsp_pos start = nfy__lsp_position(lines, dg->line, dg->col);
    nfy__lsp_pos end = nfy__lsp_position(lines, dg->line, dg->col + 1);
    start.line -= first_line;
    end.line -= first_line;
    nfy_buf_addstr(b, "{\"range\":");
    add_range(b, start, end);
    nfy_buf_addf(b, ",\"severity\":%d,\"source\":\"npuify\",\"code\":",
                 dg->sev == NFY_SEV_ERROR     ? SEV_ERROR
                 : dg->sev == NFY_SEV_WARNING ? SEV_WARNING
                                              : SEV_INFO);
    add_str(b, dg->code ? dg->code : "input");
    nfy_buf_addstr(b, ",\"message\":");
    add_str(b, dg->msg ? dg->msg : "");
    nfy_buf_addch(b, '}');
}

/* ---- one diagnostic as an object, for code actions ---- */

json_t *nfy__lsp_finding_diagnostic(nfy__lsp_server *s, const nfy__lsp_doc *doc,
                                    size_t i)
{
    value_sets v;
    value_sets_build(&v, doc);
    nfy_buf b = NFY_BUF_INIT;
    add_diagnostic(s, &b, &v, i);
    free(v.order);
    json_t *d = json_loadb(b.data, b.len, 0, NULL);
    nfy_buf_release(&b);
    return d ? d : json_object();
}

static void convert_opts(const nfy__lsp_server *s, nfy_convert_opts *co)
{
    memset(co, 0, sizeof *co);
    co->rules = s->rules;
    co->torch_version = s->config.torch_version ? s->config.torch_version
                                                : s->opts->torch_version;
    co->unsafe = s->config.unsafe == 1;
    co->amp = s->config.amp == 1;
    co->amp_apex = s->config.amp_apex;
    co->amp_bf16 = s->config.amp_bf16;
}

void nfy__lsp_publish(nfy__lsp_server *s, nfy__lsp_doc *doc,
                      const nfy__lsp_lines *lines, const nfy_diags *d,
                      uint32_t first_line, uint32_t nlines)
{
    nfy_buf b = NFY_BUF_INIT;
    nfy_buf_addstr(&b, "{\"jsonrpc\":\"2.0\",\"method\":"
                       "\"textDocument/publishDiagnostics\",\"params\":"
                       "{\"uri\":");
    add_str(&b, doc->uri);
    if (doc->version >= 0)
        nfy_buf_addf(&b, ",\"version\":%lld", (long long)doc->version);
    nfy_buf_addstr(&b, ",\"diagnostics\":[");
    value_sets v;
    value_sets_build(&v, doc);
    bool first = true;
    for (size_t i = 0; i < doc->findings.len; i++, first = false) {
        if (!first)
            nfy_buf_addch(&b, ',');
        add_diagnostic(s, &b, &v, i);
    }
    free(v.order);
    for (size_t i = 0; i < d->items.len; i++) {
        const nfy_diag *dg = &d->items.items[i];
        if (!dg->file || !dg->line || dg->line - 1 < first_line ||
            dg->line - 1 - first_line >= nlines)
            continue;
        if (!first)
            nfy_buf_addch(&b, ',');
        first = false;
        add_input_diagnostic(&b, lines, dg, first_line);
    }
    nfy_buf_addstr(&b, "]}}");
    nfy__lsp_send_text(&s->io, b.data, b.len);
    nfy_buf_release(&b);
}

void nfy__lsp_convert(nfy__lsp_server *s, const char *rel, const char *text,
                      size_t len, nfy_report *rep, nfy_diags *d)
{
    nfy_convert_opts co;
    convert_opts(s, &co);
    nfy_report_init(rep);
    nfy_report_use_rules(rep, s->rules);
    nfy_diags_init(d);
    if (nfy_convert_buffer(&co, rel, text, len, rep, NULL, d) != NFY_OK) {
        nfy_report_release(rep); /* diagnosed: no findings to show */
        nfy_report_init(rep);
    }
}

void nfy__lsp_diagnose(nfy__lsp_server *s, nfy__lsp_doc *doc)
{
    doc->dirty = false;
    nfy__lsp_doc_clear_findings(doc);
    const char *text = doc->text.data ? doc->text.data : "";
    nfy_report rep;
    nfy_diags d;
    nfy__lsp_convert(s, doc->rel, text, doc->text.len, &rep, &d);
    nfy__lsp_lines lines = {0};
    nfy__lsp_lines_build(&lines, text, doc->text.len);
    for (size_t i = 0; i < nfy_report_finding_count(&rep); i++) {
        nfy_finding f;
        nfy_report_finding_read(&rep, i, &f);
        if (f.file && !strcmp(f.file, doc->rel) && f.start_line)
            nfy__lsp_keep_finding(s, doc, &lines, 0, &f);
    }
    nfy__lsp_publish(s, doc, &lines, &d, 0, UINT32_MAX);
    nfy__lsp_lines_release(&lines);
    nfy_diags_release(&d);
    nfy_report_release(&rep);
}
