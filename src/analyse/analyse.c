/*
 * Entry points of the assessment: the migrate observer for Python files and
 * the reader of text files, each building an an_ctx and running the passes
 * the modes select.
 */
#include <string.h>

#include "analyse/an_internal.h"
#include "migrate/migrate.h"

nfy_status nfy_analyse_modes_parse(const char *list, unsigned *modes)
{
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"all", NFY_ANALYSE_ALL},
                 {"torch_apis", NFY_ANALYSE_TORCH_APIS},
                 {"extensions", NFY_ANALYSE_EXTENSIONS},
                 {"dependencies", NFY_ANALYSE_DEPENDENCIES}};
    *modes = 0;
    nfy_str rest = nfy_str_from_cstr(list ? list : "");
    while (rest.len > 0) {
        size_t n = 0;
        while (n < rest.len && rest.ptr[n] != ',')
            n++;
        nfy_str item = {rest.ptr, n};
        bool found = false;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (nfy_str_eq_cstr(item, names[i].name)) {
                *modes |= names[i].bit;
                found = true;
            }
        if (!found)
            return NFY_EUSAGE;
        rest = n < rest.len ? (nfy_str){rest.ptr + n + 1, rest.len - n - 1}
                            : (nfy_str){rest.ptr + n, 0};
    }
    return *modes ? NFY_OK : NFY_EUSAGE;
}

const nfy_rule *nfy__analyse_rule(const an_ctx *c, const char *id)
{
    const nfy_rule *r = nfy_rules_set_find(c->o->rules, id);
    return r != NULL && nfy_rules_activity_in(r, &c->env) != NFY_RULE_INACTIVE
               ? r
               : NULL;
}

/* The activation environment of an assessment: its torch version, no
 * option on (an unknown version: the newest, as the verdicts do). */
static nfy_rule_env an_env(const nfy_analyse_opts *o)
{
    nfy_migrate_opts mo = {0};
    mo.rules = o->rules;
    mo.torch_version = o->torch_version;
    nfy_rule_env env = {0};
    if (nfy_mig_rule_env(&mo, &env) != NFY_OK)
        env.torch_version = NULL;
    return env;
}

/* The report file a finding goes to, from its rule's tags (rules.json). */
static nfy_finding_cat cat_of(const nfy_rule *r)
{
    if (nfy_rules_has_tag(r, "unknown"))
        return NFY_CAT_UNKNOWN_API;
    if (nfy_rules_has_tag(r, "cuda-op"))
        return NFY_CAT_CUDA_OP;
    if (nfy_rules_has_tag(r, "precision"))
        return NFY_CAT_PRECISION_ADVICE;
    if (nfy_rules_has_tag(r, "performance"))
        return NFY_CAT_PERFORMANCE_ADVICE;
    return NFY_CAT_UNSUPPORTED_API;
}

void nfy__analyse_emit(an_ctx *c, const char *rule, nfy_span span,
                       const char *api, const char *detail, const char *npu_api)
{
    nfy__analyse_emit_as(c, rule, span,
                         (an_extra){api, detail, npu_api, NULL, NULL, NULL});
}

void nfy__analyse_emit_as(an_ctx *c, const char *rule, nfy_span span,
                          an_extra x)
{
    const nfy_rule *r = nfy__analyse_rule(c, rule);
    if (r != NULL)
        nfy__analyse_emit_rule(c, r, span, x);
}

void nfy__analyse_emit_rule(an_ctx *c, const nfy_rule *r, nfy_span span,
                            an_extra x)
{
    const char *api = x.api, *detail = x.detail, *npu_api = x.npu_api;
    if (c->rep == NULL)
        return;
    nfy_finding f = {0};
    f.file = c->rel;
    nfy_report_finding_locate(&f, c->src, span);
    f.rule = r->id;
    f.cat = cat_of(r);
    f.op = NFY_OPTYPE_NONE;
    f.safety = r->safety;
    f.api = api;
    f.message = x.message ? x.message
                : detail ? nfy_arena_fmt(c->arena, "%s: %s", r->message, detail)
                         : r->message;
    f.npu_api = npu_api;
    f.api_type = x.api_type;
    f.after = x.after;
    f.before = nfy_arena_strndup(c->arena, c->src->data + span.start,
                                 span.end - span.start);
    /* a second reason at the site joins the first when the file's findings
       are merged (nfy_report_merge_sites) */
    nfy_report_add_finding(c->rep, &f);
}

static const nfy_apidb_version *version_of(const char *text)
{
    const nfy_apidb_version *v = NULL;
    if (text == NULL ||
        nfy_apidb_version_parse(nfy_str_from_cstr(text), &v) != NFY_OK)
        return nfy_apidb_version_default();
    return v;
}

nfy_migrate_observer nfy_analyse_observer(const nfy_analyse_opts *o)
{
    return (nfy_migrate_observer){nfy_analyse_python, (void *)o};
}

void nfy_analyse_python(void *ctx, const nfy_source *src, const char *relpath,
                        const nfy_pysyn *syn, const nfy_resolution *res,
                        nfy_report *report, nfy_migrate_keep *keep)
{
    const nfy_analyse_opts *o = ctx;
    if (o == NULL || o->rules == NULL || report == NULL)
        return;
    nfy_arena arena;
    nfy_arena_init(&arena);
    an_ctx c = {.o = o,
                .src = src,
                .rel = relpath,
                .m = syn,
                .r = res,
                .rep = report,
                .arena = &arena,
                .env = an_env(o),
                .keep = keep};
    if (!nfy__analyse_memo_versions(&c, &c.v,
                                    &c.judge_v)) { /* parsed once a run */
        c.v = version_of(o->torch_version);
        c.judge_v = version_of(c.v->name);
    }
    c.btype = nfy_arena_calloc(&arena, syn->nbindings + 1, sizeof *c.btype);
    if (o->modes & NFY_ANALYSE_TORCH_APIS) {
        nfy__analyse_torch_apis(&c);
        nfy__analyse_dynamic_shapes(&c);
    }
    if (o->modes & NFY_ANALYSE_EXTENSIONS) {
        nfy__analyse_custom_ops(&c);
        nfy__analyse_triton(&c);
    }
    nfy__analyse_memo_release(&c);
    nfy_arena_release(&arena);
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static const char *base_name(const char *rel)
{
    const char *slash = strrchr(rel, '/');
    return slash ? slash + 1 : rel;
}

static bool is_cpp_source(const char *rel)
{
    static const char *const ext[] = {".cu",  ".cuh", ".cpp", ".cc",
                                      ".cxx", ".c",   ".h",   ".hpp"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (has_suffix(rel, ext[i]))
            return true;
    return false;
}

/* Dockerfiles are convert's (its container line rules NPU526-NPU531 run in
 * analyse too): scanning them here as well would report each image and
 * wheel twice. */
static bool is_dependency_file(const char *rel)
{
    const char *b = base_name(rel);
    return (strncmp(b, "requirements", 12) == 0 && has_suffix(b, ".txt")) ||
           strcmp(b, "environment.yml") == 0 ||
           strcmp(b, "environment.yaml") == 0 ||
           strcmp(b, "pyproject.toml") == 0 || strcmp(b, "setup.cfg") == 0 ||
           strcmp(b, "setup.py") == 0;
}

bool nfy_analyse_text_wanted(const char *relpath)
{
    return is_cpp_source(relpath) || is_dependency_file(relpath);
}

void nfy_analyse_text(const nfy_analyse_opts *o, const nfy_source *src,
                      const char *relpath, nfy_report *report)
{
    if (o == NULL || o->rules == NULL || report == NULL)
        return;
    nfy_arena arena;
    nfy_arena_init(&arena);
    an_ctx c = {.o = o,
                .v = version_of(o->torch_version),
                .src = src,
                .rel = relpath,
                .rep = report,
                .arena = &arena,
                .env = an_env(o),
                .first_open = nfy_report_open_mark(report)};
    c.judge_v = version_of(c.v->name);
    if ((o->modes & NFY_ANALYSE_EXTENSIONS) && is_cpp_source(relpath))
        nfy__analyse_cpp_cuda(&c);
    if ((o->modes & NFY_ANALYSE_DEPENDENCIES) && is_dependency_file(relpath))
        nfy__analyse_dependencies(&c);
    nfy_report_merge_sites(report, c.first_open);
    nfy__analyse_memo_release(&c);
    nfy_arena_release(&arena);
}
