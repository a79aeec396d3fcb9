/*
 * A hash index of the three torch API lists serving one version, for
 * nfy_apidb_api_ask when a caller asks thousands of names: every name a
 * list holds for the version maps to its first row, and every dotted head
 * of one (a module or class) is marked as having members. The answers are
 * those of the sorted searches (equal keys, and the keys starting with a
 * name, are neighbours in a sorted list); a list kept in file order is not
 * indexed and is searched as before.
 */
#include <stdlib.h>
#include <string.h>

#include "apidb/apidb_index.h"

typedef nfy__apidb_idx_entry idx_entry;

#define IDX_NONE UINT32_MAX /* no row */

static inline uint64_t load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t name_hash(const char *p, size_t n)
{
    const uint64_t k = 0x9E3779B97F4A7C15ull;
    uint64_t h = n * k, w = 0;
    if (n >= 8) { /* whole words, the last one overlapping */
        for (size_t i = 0; i + 8 < n; i += 8)
            h = (h ^ load8(p + i)) * k, h ^= h >> 29;
        w = load8(p + n - 8);
    } else {
        for (size_t j = 0; j < n; j++)
            w |= (uint64_t)(unsigned char)p[j] << (8 * j);
    }
    h = (h ^ w) * k;
    return h ^ (h >> 32);
}

static idx_entry *slot_of(const nfy__apidb_api_table *t, const char *p,
                          size_t n)
{
    idx_entry *e = t->slots;
    size_t i = (size_t)name_hash(p, n) & t->mask;
    while (e[i].used &&
           !(e[i].len == n && memcmp(nfy__apidb_str(e[i].key), p, n) == 0))
        i = (i + 1) & t->mask;
    return &e[i];
}

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p == NULL)
        abort(); /* out of memory, as the arena does */
    return p;
}

/* Double the table (first: room for about want entries). */
static void grow(nfy__apidb_api_table *t, size_t want)
{
    idx_entry *old = t->slots;
    size_t n = old ? (size_t)t->mask + 1 : 0, cap = 64;
    while (cap < 2 * want)
        cap *= 2;
    t->mask = (uint32_t)((n ? 2 * n : cap) - 1);
    t->slots = zalloc((size_t)t->mask + 1, sizeof *t->slots);
    for (size_t i = 0; i < n; i++)
        if (old[i].used)
            *slot_of(t, nfy__apidb_str(old[i].key), old[i].len) = old[i];
    free(old);
}

/* The entry of the first n bytes of the pool string at key, made when
 * missing. */
static idx_entry *entry(nfy__apidb_api_table *t, uint32_t key, size_t n)
{
    if (2 * (t->len + 1) > (size_t)t->mask + 1)
        grow(t, 0);
    idx_entry *e = slot_of(t, nfy__apidb_str(key), n);
    if (!e->used) {
        *e = (idx_entry){key, (uint32_t)n, IDX_NONE, false, true};
        t->len++;
    }
    return e;
}

static void build(nfy__apidb_api_table *t, nfy__apidb_fam_id fam, int label)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    t->slots = NULL;
    t->mask = 0;
    t->len = 0;
    if (!f->sorted)
        return; /* searched as before */
    size_t rows = 0;
    for (uint32_t i = 0; i < f->nrows; i++)
        rows += nfy__apidb_has_label(&nfy__apidb_rows[f->first_row + i], label);
    grow(t, rows + rows / 2); /* the names and their (shared) heads */
    for (uint32_t i = 0; i < f->nrows; i++) {
        const nfy__apidb_row *r = &nfy__apidb_rows[f->first_row + i];
        if (!nfy__apidb_has_label(r, label))
            continue;
        const char *k = nfy__apidb_str(r->key);
        size_t n = strlen(k);
        idx_entry *e = entry(t, r->key, n);
        if (e->row == IDX_NONE)
            e->row = i;
        /* heads longest first: one marked before has its own heads
         * marked too (siblings share them) */
        for (size_t p = n; p-- > 0;) {
            if (k[p] != '.')
                continue;
            idx_entry *h = entry(t, r->key, p);
            if (h->members)
                break;
            h->members = true;
        }
    }
}

void nfy_apidb_api_lists_index(nfy_apidb_api_lists *l)
{
    if (l->index != NULL)
        return;
    l->index = zalloc(1, sizeof *l->index);
    build(&l->index->t[NFY__IDX_UNSUPPORTED], NFY__FAM_API_UNSUPPORTED,
          l->unsupported);
    build(&l->index->t[NFY__IDX_SUPPORTED], NFY__FAM_API_SUPPORTED,
          l->supported);
    build(&l->index->t[NFY__IDX_NATIVE], NFY__FAM_NATIVE_API, l->native);
}

void nfy_apidb_api_lists_release(nfy_apidb_api_lists *l)
{
    if (l->index == NULL)
        return;
    for (int k = 0; k < NFY__IDX_COUNT; k++)
        free(l->index->t[k].slots);
    free(l->index);
    l->index = NULL;
}

bool nfy__apidb_index_find(const nfy__apidb_api_table *t,
                           const nfy__apidb_family *f, nfy_str key,
                           const nfy__apidb_row **row, bool *members)
{
    if (t->slots == NULL)
        return false;
    const idx_entry *e = slot_of(t, key.ptr, key.len);
    *row = e->used && e->row != IDX_NONE
               ? &nfy__apidb_rows[f->first_row + e->row]
               : NULL;
    if (members != NULL)
        *members = e->used && e->members;
    return true;
}
