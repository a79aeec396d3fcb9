/*
 * A report's strings, each distinct one stored once: findings repeat their
 * file, rule, message and API names, and a tree of thousands of files
 * would otherwise hold thousands of copies of each. Each string also has
 * a small id (1-based, 0 standing for NULL), which sealed findings store.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"
#include "npuify/report.h"
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

/* A new id for s (already in the arena). */
static uint32_t add_id(nfy_report *rep, const char *s)
{
    if (rep->by_id.len >= UINT32_MAX)
        nfy__fatal("too many report strings");
    nfy_vec_push(&rep->by_id, s);
    return (uint32_t)rep->by_id.len;
}

uint32_t nfy__report_intern_id(nfy_report *rep, const char *s, size_t n)
{
    if (!s)
        return 0;
    if (n > UINT32_MAX)
        return add_id(rep, nfy_arena_strndup(&rep->arena, s, n));
    if ((rep->nstrings + 1) * 4 > rep->strings_cap * 3)
        grow(rep);
    uint32_t hash = (uint32_t)nfy_str_hash((nfy_str){s, n});
    size_t i = slot_of(rep->strings, rep->strings_cap, hash, s, n);
    if (!rep->strings[i].s) {
        const char *copy = nfy_arena_strndup(&rep->arena, s, n);
        rep->strings[i] =
            (nfy_report_string){copy, (uint32_t)n, hash, add_id(rep, copy)};
        rep->nstrings++;
    }
    return rep->strings[i].id;
}

const char *nfy__report_intern(nfy_report *rep, const char *s, size_t n)
{
    return nfy__report_string(rep, nfy__report_intern_id(rep, s, n));
}

const char *nfy_report_strndup(nfy_report *rep, const char *s, size_t n)
{
    return nfy__report_intern(rep, s, n);
}

const char *nfy__report_intern_cstr(nfy_report *rep, const char *s)
{
    return s ? nfy__report_intern(rep, s, strlen(s)) : NULL;
}

uint32_t nfy__report_intern_cstr_id(nfy_report *rep, const char *s)
{
    return s ? nfy__report_intern_id(rep, s, strlen(s)) : 0;
}

const char *nfy__report_string(const nfy_report *rep, uint32_t id)
{
    return id ? rep->by_id.items[id - 1] : NULL;
}

void nfy__report_strings_release(nfy_report *rep)
{
    free(rep->strings);
    rep->strings = NULL;
    rep->nstrings = rep->strings_cap = 0;
    nfy_vec_free(&rep->by_id);
}
