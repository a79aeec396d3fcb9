/*
 * ops.sarif: the unsupported and CPU-fallback operators of a with_stack
 * profile as SARIF 2.1.0 results at the user's source lines they came
 * from, so an editor or CI shows them where the code calls them. One
 * result per (operator, site); an operator without a site (a profile
 * without stacks) is one result without a location.
 */
#include <string.h>

#include "report/ops.h"

static void jstr(nfy_buf *out, nfy_str s)
{
    nfy_json_escape(out, s.ptr ? s.ptr : "", s.len);
}

static bool reported(const nfy_prof_op *op)
{
    return nfy_prof_op_is_operator(op) &&
           (op->status == NFY_PSTAT_UNSUPPORTED ||
            op->status == NFY_PSTAT_FALLBACK);
}

static const char *rule_of(const nfy_prof_op *op)
{
    return op->status == NFY_PSTAT_UNSUPPORTED ? "ops-unsupported"
                                               : "ops-cpu-fallback";
}

static void message(const nfy_prof_op *op, const nfy_prof_report_meta *m,
                    int64_t calls, double share, nfy_arena *a, nfy_buf *out)
{
    nfy_buf text = NFY_BUF_INIT;
    nfy_str name = nfy_prof_qualified(a, op->full_name);
    (void)nfy_buf_addf(&text,
                       "%.*s %s on torch_npu %s; ran: %lld call%s, "
                       "%.2f%% of self time",
                       NFY_STR_FMT(name),
                       op->status == NFY_PSTAT_UNSUPPORTED
                           ? "is not supported"
                           : "falls back to the CPU",
                       m->version ? m->version->name : "?", (long long)calls,
                       calls == 1 ? "" : "s", share);
    if (op->first_version.len)
        (void)nfy_buf_addf(&text, " (supported from %.*s)",
                           NFY_STR_FMT(op->first_version));
    jstr(out, nfy_buf_view(&text));
    nfy_buf_release(&text);
}

/* A site's location: the best call in the source when it was found
 * (the other candidates as related locations), else the frame's line. */
static void site_locations(const nfy_prof_site *site, nfy_buf *out)
{
    nfy_str file, func;
    uint32_t line;
    nfy_prof_site_parts(site->text, &file, &line, &func);
    const nfy_prof_call *best = site->nin_source ? &site->in_source[0] : NULL;
    (void)nfy_buf_addstr(out, ", \"locations\": [{\"physicalLocation\": "
                              "{\"artifactLocation\": {\"uri\": ");
    jstr(out, file);
    (void)nfy_buf_addstr(out, "}");
    if (best)
        (void)nfy_buf_addf(out,
                           ", \"region\": {\"startLine\": %u, "
                           "\"startColumn\": %u}",
                           best->line, best->col);
    else if (line)
        (void)nfy_buf_addf(out, ", \"region\": {\"startLine\": %u}",
                           (unsigned)line);
    (void)nfy_buf_addstr(out, "}, \"logicalLocations\": [{\"name\": ");
    jstr(out, best ? best->function : func);
    (void)nfy_buf_addstr(out, ", \"kind\": \"function\"}]}]");
    if (site->nin_source < 2)
        return;
    (void)nfy_buf_addstr(out, ", \"relatedLocations\": [");
    for (uint32_t i = 1; i < site->nin_source; i++) {
        const nfy_prof_call *c = &site->in_source[i];
        (void)nfy_buf_addf(out, "%s{\"id\": %u, \"message\": {\"text\": ",
                           i > 1 ? ", " : "", i);
        jstr(out, c->api);
        (void)nfy_buf_addstr(out, "}, \"physicalLocation\": "
                                  "{\"artifactLocation\": {\"uri\": ");
        jstr(out, file);
        (void)nfy_buf_addf(out,
                           "}, \"region\": {\"startLine\": %u, "
                           "\"startColumn\": %u}}}",
                           c->line, c->col);
    }
    (void)nfy_buf_addstr(out, "]");
}

static void result(const nfy_prof_op *op, const nfy_prof_report_meta *m,
                   const nfy_prof_site *site, double total, bool *first,
                   nfy_arena *a, nfy_buf *out)
{
    int64_t calls = site ? site->calls : op->calls;
    double self = site ? site->self_us : nfy_prof_op_self_time(op);
    (void)nfy_buf_addf(out,
                       "%s\n      {\"ruleId\": \"%s\", \"level\": \"%s\", "
                       "\"message\": {\"text\": ",
                       *first ? "" : ",", rule_of(op),
                       op->status == NFY_PSTAT_UNSUPPORTED ? "error"
                                                           : "warning");
    *first = false;
    message(op, m, calls, total > 0 ? 100.0 * self / total : 0.0, a, out);
    (void)nfy_buf_addstr(out, "}");
    if (site)
        site_locations(site, out);
    (void)nfy_buf_addstr(out, "}");
}

void nfy_report_prof_render_sarif(const nfy_prof_table *t,
                                  const nfy_prof_report_meta *m, nfy_buf *out)
{
    nfy_arena a = NFY_ARENA_INIT;
    double total = nfy_prof_table_self_time(t);
    (void)nfy_buf_addstr(
        out,
        "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
        "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
        "    \"tool\": {\"driver\": {\"name\": \"npuify ops\", \"rules\": [\n"
        "      {\"id\": \"ops-unsupported\", \"shortDescription\": {\"text\": "
        "\"operator not supported on the target torch_npu\"}},\n"
        "      {\"id\": \"ops-cpu-fallback\", \"shortDescription\": {\"text\": "
        "\"operator falls back to the CPU on the target torch_npu\"}}]}},\n"
        "    \"results\": [");
    bool first = true;
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_op *op = &t->ops.items[i];
        if (!reported(op))
            continue;
        size_t order[NFY_PROF_SITES_MAX];
        nfy_prof_op_sites_by_calls(op, order);
        for (size_t k = 0; k < op->sites.len; k++)
            result(op, m, &op->sites.items[order[k]], total, &first, &a, out);
        if (!op->sites.len)
            result(op, m, NULL, total, &first, &a, out);
    }
    (void)nfy_buf_addstr(out, "]\n  }]\n}\n");
    nfy_arena_release(&a);
}
