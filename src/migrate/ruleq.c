/*
 * Rule-set questions of the driver and the passes: the rule environment of
 * a run, and the active rule of a dedicated pass.
 */
#include <string.h>

#include "migrate/mig.h"
#include "rules/rules.h"

void mig_rule_env(unsigned flags, const char *version, nfy_rule_env *out)
{
    static const struct {
        const char *name;
        unsigned flag;
    } opts[] = {{"amp", MIG_F_AMP},
                {"distributed", MIG_F_DISTRIBUTED},
                {"auto", MIG_F_AUTO},
                {"msfmktransplt", MIG_F_MSFT}};
    _Static_assert(sizeof opts / sizeof opts[0] <
                       sizeof out->options / sizeof out->options[0],
                   "room for the terminating NULL");
    memset(out, 0, sizeof *out);
    out->torch_version = version;
    out->unsafe = (flags & MIG_F_UNSAFE) != 0;
    out->imports_only = (flags & MIG_F_AUTO) != 0;
    size_t n = 0;
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (flags & opts[i].flag)
            out->options[n++] = opts[i].name;
}

mig_safety mig_rule_safety(const nfy_rule_set *set, const char *id)
{
    const nfy_rule *r = nfy_rule_set_find(set, id);
    if (r == NULL || r->safety == NFY_SAFETY_SAFE)
        return MIG_SAFE;
    return r->safety == NFY_SAFETY_UNSAFE ? MIG_UNSAFE : MIG_MANUAL;
}

const nfy_rule *mig_pass_rule_in(const nfy_rule_set *set,
                                 const nfy_rule_env *env, nfy_pass_id pass)
{
    nfy_rule_iter it;
    nfy_rule_iter_init(&it, set, -1, NFY_MATCH_PASS);
    for (const nfy_rule *r; (r = nfy_rule_iter_next(&it));)
        if (r->pass == pass &&
            nfy_rule_activity_in(r, env) != NFY_RULE_INACTIVE)
            return r;
    return NULL;
}

bool mig_pass_rule(const nfy_rule_set *set, const nfy_rule_env *env,
                   nfy_pass_id pass, const char **id, const char **message,
                   const char **hint)
{
    const nfy_rule *r = mig_pass_rule_in(set, env, pass);
    if (r == NULL)
        return false;
    *id = r->id;
    *message = r->message;
    *hint = r->hint;
    return true;
}

bool mig_pass_rule_row(const nfy_rule_set *set, const nfy_rule_env *env,
                       nfy_pass_id pass, size_t i, const char **from,
                       const char **note)
{
    const nfy_rule *r = mig_pass_rule_in(set, env, pass);
    if (r == NULL || i >= r->nmap)
        return false;
    *from = r->map[i].from;
    *note = r->map[i].note;
    return true;
}
