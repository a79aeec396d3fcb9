/*
 * The rows of the pass table (pass_table.h) and rule activation: the
 * one decision, for every file kind, of whether a rule is active in a run
 * and whether it may edit.
 */
#include <stddef.h>

#include "rules/rules.h"

/* The table's kind, modes and host columns, as nfy_pass_info has them. */
enum {
    KIND_GENERIC = -1,
#define KIND_OF(name, text) KIND_##name = NFY_RULE_##name,
    NFY_RULE_KIND_MAP(KIND_OF)
#undef KIND_OF
};
#define MODES_ALL     "all"
#define MODES_TOOL    "tool"
#define MODES_AUTO    "auto"
#define HOST_REGISTRY "migrate"
#define HOST_PASS     "migrate, in a pass"
#define HOST_PROJECT  "migrate, project"
#define HOST_CONVERT  "convert"
#define HOST_ANALYSE  "analyse"
#define HOST_NONE     ""

static const nfy_pass_info passes[NFY_PASS_COUNT] = {
#define NFY_PASS_ROW(id, name, kind, state, run, modes, host)                  \
    [NFY_PASS_##id] = {name, KIND_##kind, NFY_PASS_##state, MODES_##modes,     \
                       HOST_##host},
    NFY_PASS_TABLE(NFY_PASS_ROW)
#undef NFY_PASS_ROW
};

const nfy_pass_info *nfy_rules_pass_info_of(nfy_pass_id id)
{
    if ((int)id < 0 || id >= NFY_PASS_COUNT)
        return NULL;
    return &passes[id];
}

nfy_pass_id nfy_rules_pass_parse(nfy_str name)
{
    for (int i = 0; i < NFY_PASS_COUNT; i++)
        if (passes[i].kind != KIND_GENERIC &&
            nfy_str_eq_cstr(name, passes[i].name))
            return (nfy_pass_id)i;
    return NFY_PASS_NONE;
}

static const struct {
    const char *name;
    nfy_pass_state state;
} options[] = {
#define NFY_OPTION_ROW(id, name, state) {name, NFY_PASS_##state},
    NFY_OPTION_MAP(NFY_OPTION_ROW)
#undef NFY_OPTION_ROW
};

bool nfy_rules_option_known(nfy_str name, nfy_pass_state *state)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (nfy_str_eq_cstr(name, options[i].name)) {
            if (state)
                *state = options[i].state;
            return true;
        }
    return false;
}

/* Some option of the comma list can be turned on (a NULL list: none is
 * needed). */
static bool option_offered(const char *list)
{
    if (list == NULL || *list == '\0')
        return true;
    nfy_str rest = nfy_str_from_cstr(list);
    while (rest.len > 0) {
        ptrdiff_t comma = nfy_str_find_char(rest, ',');
        size_t n = comma < 0 ? rest.len : (size_t)comma;
        nfy_pass_state st;
        if (nfy_rules_option_known(nfy_str_slice(rest, 0, n), &st) &&
            st == NFY_PASS_BUILT)
            return true;
        rest = nfy_str_slice(rest, comma < 0 ? rest.len : n + 1, rest.len);
    }
    return false;
}

bool nfy_rules_preview_why(const nfy_rule *r, nfy_buf *why)
{
    const nfy_pass_info *p = nfy_rules_pass_info_of(r->pass);
    if (p != NULL && p->state == NFY_PASS_PREVIEW) {
        if (why)
            nfy_buf_addf(why, "pass '%s' is not built yet", p->name);
        return true;
    }
    if (!option_offered(r->option)) {
        if (why)
            nfy_buf_addf(why, "no command turns on option '%s' yet", r->option);
        return true;
    }
    return false;
}

bool nfy_rules_is_preview(const nfy_rule *r)
{
    return nfy_rules_preview_why(r, NULL);
}

/* An unsafe rule edits with --unsafe, or when its own option gate (open,
 * or the rule would be inactive) is what the user turned on. */
static bool unsafe_allowed(const nfy_rule *r, const nfy_rule_env *env)
{
    return env->unsafe || (r->option != NULL && r->option[0] != '\0');
}

nfy_rule_activity nfy_rules_activity_in(const nfy_rule *r,
                                        const nfy_rule_env *env)
{
    if (r == NULL || !r->enabled || nfy_rules_is_preview(r) ||
        !nfy_rules_option_on(r, env->options) ||
        !nfy_rules_applies_to_torch(r, env->torch_version))
        return NFY_RULE_INACTIVE;
    if (r->safety == NFY_SAFETY_MANUAL ||
        (r->safety == NFY_SAFETY_UNSAFE && !unsafe_allowed(r, env)) ||
        (env->imports_only && r->kind != NFY_RULE_INSERT_IMPORT))
        return NFY_RULE_REPORTS;
    return NFY_RULE_EDITS;
}
