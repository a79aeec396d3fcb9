/*
 * A report's strings, each distinct one stored once: findings repeat their
 * file, rule, message and API names, and a tree of thousands of files
 * would otherwise hold thousands of copies of each. Each string has a
 * small id (1-based, 0 standing for NULL), which sealed findings store;
 * core's table finds an id by content and by address.
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

typedef struct {
    const nfy_report *rep;
    const char *s;
    size_t n;
} content_probe;

static bool content_is(const void *ctx, uint32_t row)
{
    const content_probe *p = ctx;
    const nfy_report_string *e = &p->rep->by_id.items[row];
    return e->len == p->n && memcmp(e->s, p->s, p->n) == 0;
}

static bool address_is(const void *ctx, uint32_t row)
{
    const content_probe *p = ctx;
    return p->rep->by_id.items[row].s == p->s;
}

/* A new id for the n bytes at s, copied into the arena. */
static uint32_t add_id(nfy_report *rep, const char *s, size_t n)
{
    if (rep->by_id.len >= UINT32_MAX - 1)
        nfy__fatal("too many report strings");
    nfy_report_string e = {nfy_arena_strndup(&rep->arena, s, n),
                           n > UINT32_MAX ? UINT32_MAX : (uint32_t)n};
    nfy_vec_push(&rep->by_id, e);
    return (uint32_t)rep->by_id.len;
}

uint32_t nfy__report_intern_id(nfy_report *rep, const char *s, size_t n)
{
    if (!s)
        return 0;
    if (n >= UINT32_MAX) /* never shared: not worth a slot */
        return add_id(rep, s, n);
    uint32_t hash = (uint32_t)nfy_str_hash_words((nfy_str){s, n});
    content_probe p = {rep, s, n};
    uint32_t row = nfy_htab_get(&rep->strings, hash, content_is, &p);
    if (row != NFY_HTAB_NONE)
        return row + 1;
    uint32_t id = add_id(rep, s, n);
    nfy_htab_put(&rep->strings, hash, id - 1);
    nfy_htab_put(&rep->by_ptr, nfy_hash_ptr(entry(rep, id)->s), id - 1);
    return id;
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
    content_probe p = {rep, s, 0};
    uint32_t row = nfy_htab_get(&rep->by_ptr, nfy_hash_ptr(s), address_is, &p);
    return row == NFY_HTAB_NONE ? 0 : row + 1;
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
    nfy_htab_release(&rep->strings);
    nfy_htab_release(&rep->by_ptr);
    nfy_vec_free(&rep->by_id);
}
