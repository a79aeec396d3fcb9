/*
 * Device time per "External id": kineto gives each CPU op an External id
 * and repeats it on the kernels, memcpys and memsets the op launched, so
 * the op's self device time (what the text tables call "Self CUDA") is the
 * sum of those events' durations. The first pass fills this map; the
 * second looks ops up in it. Open addressing with linear probing, keys
 * stored as given (ids are small non-negative integers in practice, any
 * int64 works), grown at half load.
 */
#include "proflog/trace_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"

static size_t slot_of(int64_t key, size_t cap)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 20) & (cap - 1);
}

/* Slots hold key + 1 in keys[] so that 0 means empty (ids may be 0 but
 * never INT64_MAX in any writer; that one id is dropped). */
static void put(int64_t *keys, double *us, size_t cap, int64_t key, double v)
{
    size_t i = slot_of(key, cap);
    while (keys[i] && keys[i] != key + 1)
        i = (i + 1) & (cap - 1);
    keys[i] = key + 1;
    us[i] += v;
}

static void grow(nfy_trace_devmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 1024;
    int64_t *keys = calloc(ncap, sizeof *keys);
    double *us = calloc(ncap, sizeof *us);
    if (!keys || !us)
        nfy__fatal("out of memory");
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i])
            put(keys, us, ncap, m->keys[i] - 1, m->us[i]);
    free(m->keys);
    free(m->us);
    m->keys = keys;
    m->us = us;
    m->cap = ncap;
}

void nfy__trace_devmap_add(nfy_trace_devmap *m, int64_t ext, double us)
{
    if (ext == INT64_MAX || !(us >= 0))
        return;
    if (m->len * 2 >= m->cap)
        grow(m);
    size_t before = 0;
    size_t i = slot_of(ext, m->cap);
    while (m->keys[i] && m->keys[i] != ext + 1)
        i = (i + 1) & (m->cap - 1);
    before = m->keys[i] != 0;
    m->keys[i] = ext + 1;
    m->us[i] += us;
    m->len += !before;
}

bool nfy__trace_devmap_get(const nfy_trace_devmap *m, int64_t ext, double *us)
{
    if (!m->cap || ext == INT64_MAX)
        return false;
    size_t i = slot_of(ext, m->cap);
    while (m->keys[i]) {
        if (m->keys[i] == ext + 1) {
            *us = m->us[i];
            return true;
        }
        i = (i + 1) & (m->cap - 1);
    }
    return false;
}

void nfy__trace_devmap_release(nfy_trace_devmap *m)
{
    free(m->keys);
    free(m->us);
    memset(m, 0, sizeof *m);
}
