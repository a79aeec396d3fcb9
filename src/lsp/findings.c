/*
 * Diagnostics of one document: convert its text in memory, keep each
 * finding (with its edit, for code actions) and publish them.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_internal.h"
#include "report/report.h"

enum { SEV_ERROR = 1, SEV_WARNING = 2, SEV_INFO = 3, SEV_HINT = 4 };

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

static void keep_finding(nfy__lsp_server *s, nfy__lsp_doc *doc,
                         const nfy__lsp_lines *lines, const nfy_finding *f)
{
    const nfy_rule *r = nfy_rule_set_find(s->rules, f->rule);
    nfy__lsp_finding k = {0};
    k.range =
        json_pack("{s:o,s:o}", "start",
                  nfy__lsp_position(lines, f->start_line, f->start_col), "end",
                  nfy__lsp_position(lines, f->end_line, f->end_col));
    k.change = f->cat == NFY_CAT_CHANGE;
    if (k.change)
        k.edit_range = json_deep_copy(k.range);
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

/* The other members of k's value set (sets: value set id -> array of
 * finding indices), as related locations. */
static json_t *related(const nfy__lsp_doc *doc, json_t *sets, size_t i)
{
    const nfy__lsp_finding *k = &doc->findings.items[i];
    json_t *rel = json_array();
    json_t *members =
        k->value_set_id ? json_object_get(sets, k->value_set_id) : NULL;
    size_t m;
    json_t *jx;
    json_array_foreach(members, m, jx)
    {
        size_t j = (size_t)json_integer_value(jx);
        if (j == i)
            continue;
        json_array_append_new(
            rel, json_pack("{s:{s:s,s:O},s:s}", "location", "uri", doc->uri,
                           "range", doc->findings.items[j].range, "message",
                           "the same value: changed together"));
    }
    return rel;
}

/* Value set id -> the indices of its findings. */
static json_t *value_sets(const nfy__lsp_doc *doc)
{
    json_t *sets = json_object();
    for (size_t i = 0; i < doc->findings.len; i++) {
        const char *id = doc->findings.items[i].value_set_id;
        if (!id)
            continue;
        json_t *members = json_object_get(sets, id);
        if (!members) {
            members = json_array();
            json_object_set_new(sets, id, members);
        }
        json_array_append_new(members, json_integer((json_int_t)i));
    }
    return sets;
}

static json_t *finding_diagnostic(nfy__lsp_server *s, const nfy__lsp_doc *doc,
                                  json_t *sets, size_t i)
{
    const nfy__lsp_finding *k = &doc->findings.items[i];
    json_t *d = json_pack("{s:O,s:i,s:s,s:s,s:o}", "range", k->range,
                          "severity", k->severity, "source", "npuify", "code",
                          k->rule, "message", nfy__lsp_string(k->message));
    char *href = nfy__lsp_explain_uri(s, k->rule);
    if (href)
        json_object_set_new(d, "codeDescription",
                            json_pack("{s:s}", "href", href));
    free(href);
    json_t *rel = related(doc, sets, i);
    if (json_array_size(rel))
        json_object_set(d, "relatedInformation", rel);
    json_decref(rel);
    return d;
}

static json_t *input_diagnostic(const nfy__lsp_lines *lines, const nfy_diag *dg)
{
    json_t *start = nfy__lsp_position(lines, dg->line, dg->col);
    json_t *end = nfy__lsp_position(lines, dg->line, dg->col + 1);
    return json_pack("{s:{s:o,s:o},s:i,s:s,s:s,s:o}", "range", "start", start,
                     "end", end, "severity",
                     dg->sev == NFY_SEV_ERROR     ? SEV_ERROR
                     : dg->sev == NFY_SEV_WARNING ? SEV_WARNING
                                                  : SEV_INFO,
                     "source", "npuify", "code", dg->code ? dg->code : "input",
                     "message", nfy__lsp_string(dg->msg));
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
}

static void publish(nfy__lsp_server *s, nfy__lsp_doc *doc, json_t *diags)
{
    json_decref(doc->diagnostics);
    doc->diagnostics = json_incref(diags);
    nfy__lsp_send(&s->io,
                  json_pack("{s:s,s:{s:s,s:I,s:o}}", "method",
                            "textDocument/publishDiagnostics", "params", "uri",
                            doc->uri, "version", (json_int_t)doc->version,
                            "diagnostics", diags));
}

void nfy__lsp_diagnose(nfy__lsp_server *s, nfy__lsp_doc *doc)
{
    doc->dirty = false;
    nfy__lsp_doc_clear_findings(doc);
    nfy_convert_opts co;
    convert_opts(s, &co);
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_use_rules(&rep, s->rules);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *text = doc->text.data ? doc->text.data : "";
    nfy_status st =
        nfy_convert_buffer(&co, doc->rel, text, doc->text.len, &rep, NULL, &d);
    nfy__lsp_lines lines = {0};
    nfy__lsp_lines_build(&lines, text, doc->text.len);
    json_t *out = json_array();
    size_t n = st ? 0 : nfy_report_finding_count(&rep);
    for (size_t i = 0; i < n; i++) {
        nfy_finding f;
        nfy_report_finding_read(&rep, i, &f);
        if (f.file && !strcmp(f.file, doc->rel) && f.start_line)
            keep_finding(s, doc, &lines, &f);
    }
    json_t *sets = value_sets(doc);
    for (size_t i = 0; i < doc->findings.len; i++)
        json_array_append_new(out, finding_diagnostic(s, doc, sets, i));
    json_decref(sets);
    for (size_t i = 0; i < d.items.len; i++)
        if (d.items.items[i].file && d.items.items[i].line)
            json_array_append_new(out,
                                  input_diagnostic(&lines, &d.items.items[i]));
    nfy__lsp_lines_release(&lines);
    nfy_diags_release(&d);
    nfy_report_release(&rep);
    publish(s, doc, out);
}
