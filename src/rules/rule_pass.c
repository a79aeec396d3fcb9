/*
 * The registry of dedicated passes (NFY_PASS_MAP) and rule activation: the
 * one decision, for every file kind, of whether a rule is active in a run
 * and whether it may edit.
 */
#include "npuify/rules.h"

static const nfy_pass_info passes[NFY_PASS_COUNT] = {
#define NFY_PASS_ROW(id, name, kind, state)                                    \
    [NFY_PASS_##id] = {name, NFY_RULE_##kind, NFY_PASS_##state},
    NFY_PASS_MAP(NFY_PASS_ROW)
#undef NFY_PASS_ROW
};

const nfy_pass_info *nfy_pass_info_of(nfy_pass_id id)
{
    if ((int)id < 0 || id >= NFY_PASS_COUNT)
        return NULL;
    return &passes[id];
}

nfy_pass_id nfy_pass_parse(nfy_str name)
{
    for (int i = 0; i < NFY_PASS_COUNT; i++)
        if (nfy_str_eq_cstr(name, passes[i].name))
            return (nfy_pass_id)i;
    return NFY_PASS_NONE;
}

bool nfy_rule_is_preview(const nfy_rule *r)
{
    const nfy_pass_info *p = nfy_pass_info_of(r->pass);
    return p != NULL && p->state == NFY_PASS_PREVIEW;
}

/* An unsafe rule edits with --unsafe, or when its own option gate (open,
 * or the rule would be inactive) is what the user turned on. */
static bool unsafe_allowed(const nfy_rule *r, const nfy_rule_env *env)
{
    return env->unsafe || (r->option != NULL && r->option[0] != '\0');
}

nfy_rule_activity nfy_rule_activity_in(const nfy_rule *r,
                                       const nfy_rule_env *env)
{
    if (r == NULL || !r->enabled || nfy_rule_is_preview(r) ||
        !nfy_rule_option_on(r, env->options) ||
        !nfy_rule_applies_to_torch(r, env->torch_version))
        return NFY_RULE_INACTIVE;
    if (r->safety == NFY_SAFETY_MANUAL ||
        (r->safety == NFY_SAFETY_UNSAFE && !unsafe_allowed(r, env)))
        return NFY_RULE_REPORTS;
    return NFY_RULE_EDITS;
}
