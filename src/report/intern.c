/*
 * A report's strings, each distinct one stored once: findings repeat their
 * file, rule, message and API names, and a tree of thousands of files
 * would otherwise hold thousands of copies of each.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"
#include "report/report.h"
#include "report/report_internal.h"

static size_t slot_of(const nfy_report_string *slots, size_t cap, uint32_t hash,
                      const char *s, size_t n)
{
    size_t i = hash & (cap - 1);
    while (slots[i].s && !(slots[i].hash == hash && slots[i].len == n &&
                           memcmp(slots[i].s, s, n) == 0))
        i = (i + 1) & (cap - 1);
    return i;
}

static void grow(nfy_report *rep)
{
    size_t cap = rep->strings_cap ? rep->strings_cap * 2 : 64;
    nfy_report_string *slots = calloc(cap, sizeof *slots);
    if (!slots)
        nfy__fatal("out of memory");
    for (size_t i = 0; i < rep->strings_cap; i++) {
        const nfy_report_string *old = &rep->strings[i];
        if (old->s)
            slots[slot_of(slots, cap, old->hash, old->s, old->len)] = *old;
    }
    free(rep->strings);
    rep->strings = slots;
    rep->strings_cap = cap;
}

const char *nfy__report_intern(nfy_report *rep, const char *s, size_t n)
{
    if (!s)
        return NULL;
    if (n > UINT32_MAX)
        return nfy_arena_strndup(&rep->arena, s, n);
    if ((rep->nstrings + 1) * 4 > rep->strings_cap * 3)
        grow(rep);
    uint32_t hash = (uint32_t)nfy_str_hash((nfy_str){s, n});
    size_t i = slot_of(rep->strings, rep->strings_cap, hash, s, n);
    if (!rep->strings[i].s) {
        rep->strings[i] = (nfy_report_string){
            nfy_arena_strndup(&rep->arena, s, n), (uint32_t)n, hash};
        rep->nstrings++;
    }
    return rep->strings[i].s;
}

const char *nfy__report_intern_cstr(nfy_report *rep, const char *s)
{
    return s ? nfy__report_intern(rep, s, strlen(s)) : NULL;
}

void nfy__report_strings_release(nfy_report *rep)
{
    free(rep->strings);
    rep->strings = NULL;
    rep->nstrings = rep->strings_cap = 0;
}
