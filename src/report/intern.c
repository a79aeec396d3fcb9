/*
 * A report's strings, each distinct one stored once: findings repeat their
 * file, rule, message and API names, and a tree of thousands of files
 * would otherwise hold thousands of copies of each. Each string has a
 * small id (1-based, 0 standing for NULL), which sealed findings store;
 * the set itself holds only ids, 4 bytes a slot.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"
#include "report/report.h"
#include "report/report_internal.h"

static const nfy_report_string *entry(const nfy_report *rep, uint32_t id)
{
    return &rep->by_id.items[id - 1];
}

static size_t slot_of(const nfy_report *rep, const uint32_t *slots, size_t cap,
                      uint32_t hash, const char *s, size_t n)
{
    size_t i = hash & (cap - 1);
    for (; slots[i]; i = (i + 1) & (cap - 1)) {
        const nfy_report_string *e = entry(rep, slots[i]);
        if (e->hash == hash && e->len == n && memcmp(e->s, s, n) == 0)
            break;
    }
    return i;
}

/* Where pointer s's id goes in by_ptr (cap slots): its slot or a free one. */
static size_t ptr_slot(const nfy_report *rep, const uint32_t *slots, size_t cap,
                       const char *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(h >> 32) & (cap - 1);
    for (; slots[i] && entry(rep, slots[i])->s != s; i = (i + 1) & (cap - 1))
        ;
    return i;
}

static void grow(nfy_report *rep)
{
    size_t cap = rep->strings_cap ? rep->strings_cap * 2 : 64;
    uint32_t *slots = calloc(cap, sizeof *slots);
    uint32_t *by_ptr = calloc(cap, sizeof *by_ptr);
    if (!slots || !by_ptr)
        nfy__fatal("out of memory");
    for (size_t i = 0; i < rep->strings_cap; i++) {
        uint32_t id = rep->strings[i];
        if (id) {
            const nfy_report_string *e = entry(rep, id);
            slots[slot_of(rep, slots, cap, e->hash, e->s, e->len)] = id;
            by_ptr[ptr_slot(rep, by_ptr, cap, e->s)] = id;
        }
    }
    free(rep->strings);
    free(rep->by_ptr);
    rep->strings = slots;
    rep->by_ptr = by_ptr;
    rep->strings_cap = cap;
}

/* A new id for the n bytes at s, copied into the arena. */
static uint32_t add_id(nfy_report *rep, const char *s, size_t n, uint32_t hash)
{
    if (rep->by_id.len >= UINT32_MAX)
        nfy__fatal("too many report strings");
    nfy_report_string e = {nfy_arena_strndup(&rep->arena, s, n),
                           n > UINT32_MAX ? UINT32_MAX : (uint32_t)n, hash};
    nfy_vec_push(&rep->by_id, e);
    return (uint32_t)rep->by_id.len;
}

uint32_t nfy__report_intern_id(nfy_report *rep, const char *s, size_t n)
{
    if (!s)
        return 0;
    if (n >= UINT32_MAX) /* never shared: not worth a slot */
        return add_id(rep, s, n, 0);
    if ((rep->by_id.len + 1) * 4 > rep->strings_cap * 3)
        grow(rep);
    uint32_t hash = (uint32_t)nfy_str_hash_words((nfy_str){s, n});
    size_t i = slot_of(rep, rep->strings, rep->strings_cap, hash, s, n);
    if (!rep->strings[i]) {
        uint32_t id = add_id(rep, s, n, hash);
        rep->strings[i] = id;
        rep->by_ptr[ptr_slot(rep, rep->by_ptr, rep->strings_cap,
                             entry(rep, id)->s)] = id;
    }
    return rep->strings[i];
}

const char *nfy__report_intern(nfy_report *rep, const char *s, size_t n)
{
    return nfy__report_string(rep, nfy__report_intern_id(rep, s, n));
}

const char *nfy_report_strndup(nfy_report *rep, const char *s, size_t n)
{
    return nfy__report_intern(rep, s, n);
}

/* The id of s when s is one of the report's own strings, else 0. */
static uint32_t own_id(const nfy_report *rep, const char *s)
{
    if (rep->strings_cap == 0)
        return 0;
    return rep->by_ptr[ptr_slot(rep, rep->by_ptr, rep->strings_cap, s)];
}

uint32_t nfy__report_intern_cstr_id(nfy_report *rep, const char *s)
{
    if (!s)
        return 0;
    uint32_t id = own_id(rep, s);
    return id ? id : nfy__report_intern_id(rep, s, strlen(s));
}

const char *nfy__report_intern_cstr(nfy_report *rep, const char *s)
{
    return nfy__report_string(rep, nfy__report_intern_cstr_id(rep, s));
}

void nfy__report_strings_release(nfy_report *rep)
{
    free(rep->strings);
    free(rep->by_ptr);
    rep->strings = NULL;
    rep->by_ptr = NULL;
    rep->strings_cap = 0;
    nfy_vec_free(&rep->by_id);
}
