/*
 * Device time per CPU op: a kernel, memcpy or memset event carries the
 * "External id" of the CPU op that launched it, and the op's device time
 * is the sum of those events' durations. The first pass fills this map; the
 * second looks ops up in it. Core's table keyed by the id's hash.
 */
#include "proflog/trace_internal.h"

typedef struct {
    const nfy_trace_devmap *m;
    int64_t key;
} key_probe;

static bool key_is(const void *ctx, uint32_t row)
{
    const key_probe *p = ctx;
    return p->m->keys.items[row] == p->key;
}

static uint32_t find(const nfy_trace_devmap *m, int64_t ext)
{
    key_probe p = {m, ext};
    return nfy_htab_get(&m->by_key, nfy_hash_u64((uint64_t)ext), key_is, &p);
}

void nfy__prof_trace_devmap_add(nfy_trace_devmap *m, int64_t ext, double us)
{
    if (!(us >= 0))
        return; /* NaN or negative durations add nothing */
    uint32_t row = find(m, ext);
    if (row == NFY_HTAB_NONE) {
        row = (uint32_t)m->keys.len;
        nfy_htab_put(&m->by_key, nfy_hash_u64((uint64_t)ext), row);
        nfy_vec_push(&m->keys, ext);
        nfy_vec_push(&m->us, 0.0);
    }
    m->us.items[row] += us;
}

bool nfy__prof_trace_devmap_get(const nfy_trace_devmap *m, int64_t ext,
                                double *us)
{
    uint32_t row = find(m, ext);
    if (row == NFY_HTAB_NONE)
        return false;
    *us = m->us.items[row];
    return true;
}

void nfy__prof_trace_devmap_release(nfy_trace_devmap *m)
{
    nfy_vec_free(&m->keys);
    nfy_vec_free(&m->us);
    nfy_htab_release(&m->by_key);
}
