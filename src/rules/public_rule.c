/*
 * The public view of a rule (npuify/npuify.h): a copy of the fields a
 * caller lists, so the catalogue's own record can grow freely.
 */
#include "rules/rules.h"

bool nfy_rule_set_get(const nfy_rule_set *set, size_t i, nfy_rule_info *out)
{
    if (i >= nfy_rule_set_count(set))
        return false;
    const nfy_rule *r = nfy_rules_set_at(set, i);
    *out = (nfy_rule_info){.id = r->id,
                           .safety = nfy_rules_safety_name(r->safety),
                           .message = r->message,
                           .hint = r->hint,
                           .preview = nfy_rules_is_preview(r)};
    return true;
}
