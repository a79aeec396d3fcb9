/*
 * Judgements of torch API names, made once per distinct name in a file: a
 * file names the same few APIs many times (torch.tensor, nn.Module) and
 * each judgement is several table searches. Open addressing on the name's
 * hash, in the file's arena (released with it).
 */
#include <string.h>

#include "analyse/an_internal.h"

typedef struct {
    nfy_str key; /* points into the first qual judged under it */
    uint64_t hash;
    an_judgement j;
    bool used;
} memo_slot;

struct an_memo {
    memo_slot *slots;
    size_t cap, len; /* cap: a power of two */
};

static memo_slot *slot_of(struct an_memo *m, nfy_str key, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    while (m->slots[i].used &&
           !(m->slots[i].hash == h && nfy_str_eq(m->slots[i].key, key)))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static void grow(an_ctx *c, struct an_memo *m)
{
    memo_slot *old = m->slots;
    size_t n = m->cap;
    m->cap = n ? n * 2 : 64;
    m->slots = nfy_arena_calloc(c->arena, m->cap, sizeof *m->slots);
    for (size_t i = 0; i < n; i++) {
        if (old[i].used)
            *slot_of(m, old[i].key, old[i].hash) = old[i];
    }
}

const an_judgement *an_judge(an_ctx *c, nfy_str qual)
{
    struct an_memo *m = c->memo;
    if (m == NULL)
        m = c->memo = nfy_arena_calloc(c->arena, 1, sizeof *m);
    if (2 * (m->len + 1) > m->cap)
        grow(c, m);
    uint64_t h = nfy_str_hash(qual);
    memo_slot *s = slot_of(m, qual, h);
    if (!s->used) {
        s->used = true;
        s->key = qual;
        s->hash = h;
        nfy__analyse_judge_in(c->judge_v, qual, &s->j);
        m->len++;
    }
    return &s->j;
}
