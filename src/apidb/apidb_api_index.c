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

typedef struct {
    const nfy__apidb_api_table *t;
    const char *p;
    size_t n;
} name_probe;

static bool entry_is(const void *ctx, uint32_t row)
{
    const name_probe *q = ctx;
    const idx_entry *e = &q->t->entries.items[row];
    return e->len == q->n && memcmp(nfy__apidb_str(e->key), q->p, q->n) == 0;
}

static uint32_t name_hash(const char *p, size_t n)
{
    return (uint32_t)nfy_str_hash_words((nfy_str){p, n});
}

/* The row of entries holding the n bytes at p, or NFY_HTAB_NONE. */
static uint32_t find(const nfy__apidb_api_table *t, const char *p, size_t n,
                     uint32_t hash)
{
    name_probe q = {t, p, n};
    return nfy_htab_get(&t->names, hash, entry_is, &q);
}

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p == NULL)
        abort(); /* out of memory, as the arena does */
    return p;
}

/* The entry of the first n bytes of the pool string at key, made when
 * missing. */
static idx_entry *entry(nfy__apidb_api_table *t, uint32_t key, size_t n)
{
    const char *p = nfy__apidb_str(key);
    uint32_t hash = name_hash(p, n);
    uint32_t row = find(t, p, n, hash);
    if (row == NFY_HTAB_NONE) {
        row = (uint32_t)t->entries.len;
        nfy_htab_put(&t->names, hash, row);
        nfy_vec_push(&t->entries,
                     ((idx_entry){key, (uint32_t)n, IDX_NONE, false}));
    }
    return &t->entries.items[row];
}

static void build(nfy__apidb_api_table *t, nfy__apidb_fam_id fam, int label)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    *t = (nfy__apidb_api_table){{NULL, 0, 0}, NFY_HTAB_INIT, false};
    if (!f->sorted)
        return; /* searched as before */
    size_t rows = 0;
    for (uint32_t i = 0; i < f->nrows; i++)
        rows += nfy__apidb_has_label(&nfy__apidb_rows[f->first_row + i], label);
    t->indexed = true;
    nfy_htab_reserve(&t->names, rows + rows / 2); /* names and (shared) heads */
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
    for (int k = 0; k < NFY__IDX_COUNT; k++) {
        nfy_vec_free(&l->index->t[k].entries);
        nfy_htab_release(&l->index->t[k].names);
    }
    free(l->index);
    l->index = NULL;
}

bool nfy__apidb_index_find(const nfy__apidb_api_table *t,
                           const nfy__apidb_family *f, nfy_str key,
                           const nfy__apidb_row **row, bool *members)
{
    if (!t->indexed)
        return false;
    uint32_t at = find(t, key.ptr, key.len, name_hash(key.ptr, key.len));
    const idx_entry *e = at == NFY_HTAB_NONE ? NULL : &t->entries.items[at];
    *row = e != NULL && e->row != IDX_NONE
               ? &nfy__apidb_rows[f->first_row + e->row]
               : NULL;
    if (members != NULL)
        *members = e != NULL && e->members;
    return true;
}
