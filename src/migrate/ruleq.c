/*
 * Rule-set questions asked by the public driver (migrate.c), which cannot
 * include rules.h together with report.h.
 */
#include <string.h>

#include "migrate/mig.h"
#include "npuify/rules.h"

mig_safety mig_rule_safety(const struct nfy_rule_set *set, const char *id)
{
    const nfy_rule *r = nfy_rule_set_find(set, id);
    if (r == NULL || r->safety == NFY_SAFETY_SAFE)
        return MIG_SAFE;
    return r->safety == NFY_SAFETY_UNSAFE ? MIG_UNSAFE : MIG_MANUAL;
}

bool mig_pass_rule(const struct nfy_rule_set *set, const char *pass,
                   const char **id, const char **message, const char **hint)
{
    nfy_rule_iter it;
    nfy_rule_iter_init(&it, set, NFY_RULE_FLAG, NFY_MATCH_PASS);
    for (const nfy_rule *r; (r = nfy_rule_iter_next(&it));) {
        if (strcmp(r->pattern, pass) == 0) {
            *id = r->id;
            *message = r->message;
            *hint = r->hint;
            return true;
        }
    }
    return false;
}

bool mig_pass_rule_row(const struct nfy_rule_set *set, const char *pass,
                       size_t i, const char **from, const char **note)
{
    nfy_rule_iter it;
    nfy_rule_iter_init(&it, set, NFY_RULE_FLAG, NFY_MATCH_PASS);
    for (const nfy_rule *r; (r = nfy_rule_iter_next(&it));) {
        if (strcmp(r->pattern, pass) != 0)
            continue;
        if (i >= r->nmap)
            return false;
        *from = r->map[i].from;
        *note = r->map[i].note;
        return true;
    }
    return false;
}
