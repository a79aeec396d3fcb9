/*
 * Device time per "External id": kineto gives each CPU op an External id
 * and repeats it on the kernels, memcpys and memsets the op launched, so
 * the op's self device time (what the text tables call "Self CUDA") is the
 * sum of those events' durations. The first pass fills this map; the
 * second looks ops up in it. Open addressing with linear probing and a
 * used-byte per slot (any int64 id works), grown at half load.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"
#include "proflog/trace_internal.h"

static size_t slot_of(int64_t key, size_t cap)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 20) & (cap - 1);
}

/* The slot holding key, or the empty slot where it belongs. */
static size_t find(const nfy_trace_devmap *m, int64_t key)
{
    size_t i = slot_of(key, m->cap);
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void grow(nfy_trace_devmap *m)
{
    nfy_trace_devmap n = {NULL, NULL, NULL, m->cap ? m->cap * 2 : 1024, 0};
    n.keys = calloc(n.cap, sizeof *n.keys);
    n.us = calloc(n.cap, sizeof *n.us);
    n.used = calloc(n.cap, 1);
    if (!n.keys || !n.us || !n.used)
        nfy__fatal("out of memory");
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i])
            nfy__trace_devmap_add(&n, m->keys[i], m->us[i]);
    nfy__trace_devmap_release(m);
    *m = n;
}

void nfy__trace_devmap_add(nfy_trace_devmap *m, int64_t ext, double us)
{
    if (!(us >= 0))
        return; /* NaN or negative durations add nothing */
    if (m->len * 2 >= m->cap)
        grow(m);
    size_t i = find(m, ext);
    m->len += !m->used[i];
    m->used[i] = 1;
    m->keys[i] = ext;
    m->us[i] += us;
}

bool nfy__trace_devmap_get(const nfy_trace_devmap *m, int64_t ext, double *us)
{
    if (!m->cap)
        return false;
    size_t i = find(m, ext);
    if (!m->used[i])
        return false;
    *us = m->us[i];
    return true;
}

void nfy__trace_devmap_release(nfy_trace_devmap *m)
{
    free(m->keys);
    free(m->us);
    free(m->used);
    memset(m, 0, sizeof *m);
}
