/*
 * Rules by ID: an open-addressing table over the IDs, built with the name
 * index (findings look their rule up by ID, thousands of times a run, and
 * a set holds hundreds of rules). The first rule of an ID in load order is
 * the one found, as a scan of the set in order finds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules_internal.h"

static uint64_t id_hash(const char *id)
{
    return nfy_str_hash(nfy_str_from_cstr(id));
}

void nfy__rules_ids_build(nfy_rule_set *set)
{
    size_t n = 16;
    while (n < set->rules.len * 2)
        n *= 2;
    free(set->id_slots);
    set->id_slots = calloc(n, sizeof *set->id_slots);
    if (!set->id_slots) {
        fputs("npuify: out of memory\n", stderr);
        abort();
    }
    set->nid_slots = n;
    for (size_t i = 0; i < set->rules.len; i++) {
        const nfy_rule *r = set->rules.items[i];
        size_t k = (size_t)id_hash(r->id) & (n - 1);
        while (set->id_slots[k] && strcmp(set->id_slots[k]->id, r->id) != 0)
            k = (k + 1) & (n - 1);
        if (!set->id_slots[k]) /* an ID seen before keeps its first rule */
            set->id_slots[k] = r;
    }
    set->id_count = set->rules.len;
}

bool nfy__rules_ids_current(const nfy_rule_set *set)
{
    return set->id_slots != NULL && set->id_count == set->rules.len;
}

const nfy_rule *nfy__rules_id_find(const nfy_rule_set *set, const char *id)
{
    size_t mask = set->nid_slots - 1;
    for (size_t k = (size_t)id_hash(id) & mask; set->id_slots[k];
         k = (k + 1) & mask) {
        if (strcmp(set->id_slots[k]->id, id) == 0)
            return set->id_slots[k];
    }
    return NULL;
}

void nfy__rules_ids_free(nfy_rule_set *set)
{
    free(set->id_slots);
    set->id_slots = NULL;
    set->nid_slots = 0;
    set->id_count = 0;
}
