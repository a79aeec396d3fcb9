/*
 * Rule sets: creation (built-in catalogue from the embedded JSON), access by
 * position and ID, enabling, and filtered iteration. Lookup by name lives in
 * rule_index.c, loading in rule_load.c.
 */
#include <stdlib.h>
#include <string.h>

#include "rules/rules_internal.h"

nfy_rule_set *nfy_rules_set_new_empty(void)
{
    nfy_rule_set *set = calloc(1, sizeof *set);
    if (!set)
        return NULL;
    nfy_arena_init(&set->arena);
    return set;
}

nfy_rule_set *nfy_rule_set_new(nfy_diags *diags)
{
    nfy_rule_set *set = nfy_rules_set_new_empty();
    if (!set)
        return NULL;
    nfy_status st = nfy_rules_load_mem(set, "builtin",
                                       (const char *)nfy__rules_builtin_json,
                                       nfy__rules_builtin_json_len, diags);
    if (st != NFY_OK) {
        nfy_rule_set_free(set);
        return NULL;
    }
    return set;
}

void nfy_rule_set_free(nfy_rule_set *set)
{
    if (!set)
        return;
    nfy_vec_free(&set->rules);
    nfy__rules_index_free(set);
    nfy_vec_free(&set->scanned);
    nfy_arena_release(&set->arena);
    free(set);
}

size_t nfy_rule_set_count(const nfy_rule_set *set)
{
    return set ? set->rules.len : 0;
}

const nfy_rule *nfy_rules_set_at(const nfy_rule_set *set, size_t i)
{
    if (!set || i >= set->rules.len)
        return NULL;
    return set->rules.items[i];
}

const nfy_rule *nfy_rules_set_find(const nfy_rule_set *set, const char *id)
{
    if (!set || !id)
        return NULL;
    if (nfy__rules_ids_current(set))
        return nfy__rules_id_find(set, id);
    for (size_t i = 0; i < set->rules.len; i++) /* rules being loaded */
        if (!strcmp(set->rules.items[i]->id, id))
            return set->rules.items[i];
    return NULL;
}

nfy_status nfy_rules_set_enable(nfy_rule_set *set, const char *id, bool on)
{
    if (!set || !id)
        return NFY_EUSAGE;
    for (size_t i = 0; i < set->rules.len; i++) {
        if (!strcmp(set->rules.items[i]->id, id)) {
            set->rules.items[i]->enabled = on;
            return NFY_OK;
        }
    }
    return NFY_ENOENT;
}

void nfy_rules_iter_init(nfy_rule_iter *it, const nfy_rule_set *set, int kind,
                         int match)
{
    it->set = set;
    it->next = 0;
    it->kind = kind;
    it->match = match;
    it->include_disabled = false;
    it->chained = set != NULL && kind >= 0 && kind < NFY_RULE_KIND_COUNT &&
                  set->kind_next != NULL && set->kind_count == set->rules.len;
    if (it->chained)
        it->next = set->kind_first[kind];
}

/* Whether r is one the iterator asks for. */
static bool iter_wants(const nfy_rule_iter *it, const nfy_rule *r)
{
    if (it->kind >= 0 && (int)r->kind != it->kind)
        return false;
    if (it->match >= 0 && (int)r->match != it->match)
        return false;
    return r->enabled || it->include_disabled;
}

/* The next rule of its kind by its kind's chain (see nfy_rule_set). */
static const nfy_rule *iter_chained(nfy_rule_iter *it)
{
    const nfy_rule_set *set = it->set;
    while (it->next < set->rules.len) {
        const nfy_rule *r = set->rules.items[it->next];
        it->next = set->kind_next[it->next];
        if (iter_wants(it, r))
            return r;
    }
    return NULL;
}

const nfy_rule *nfy_rules_iter_next(nfy_rule_iter *it)
{
    if (it->chained)
        return iter_chained(it);
    while (it->set && it->next < it->set->rules.len) {
        const nfy_rule *r = it->set->rules.items[it->next++];
        if (iter_wants(it, r))
            return r;
    }
    return NULL;
}
