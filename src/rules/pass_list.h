/*
 * The pass table as text (`npuify rules --passes`): the list the docs
 * show, so they are generated from the table, never typed.
 */
#ifndef NPUIFY_RULES_PASS_LIST_H
#define NPUIFY_RULES_PASS_LIST_H

#include "rules/rules.h"

/** Every row of the pass table, in run order: name, rule kind, state,
 * modes, who runs it, and the rules of set that name it. */
void nfy_rules_render_passes(const nfy_rule_set *set, nfy_buf *out);

#endif
