/*
 * Judgements of torch API names, made once per distinct name: a file names
 * the same few APIs many times (torch.tensor, nn.Module), and a tree names
 * the same few thousand, while each judgement is several table searches.
 * Open addressing on the name's hash. The memo is the run's when the
 * migrate driver keeps one for this thread (nfy_migrate_keep), else the
 * file's (in its arena, released with it). A judgement depends on the
 * version and the name only, so where it was made changes no answer.
 */
#include <stdlib.h>
#include <string.h>

#include "analyse/an_internal.h"

typedef struct {
    nfy_str key; /* the memo's own copy of the name */
    uint64_t hash;
    an_judgement j; /* j.api is a head of key */
    bool used;
} memo_slot;

struct an_memo {
    nfy_arena arena; /* keys */
    const nfy_apidb_version *v;
    memo_slot *slots;
    size_t cap, len; /* cap: a power of two */
};

/* A run memo stops growing here: memory stays bounded on any tree, and
 * names past it are judged each time (the same answers). */
#define MEMO_MAX_NAMES (1u << 14)

static memo_slot *slot_of(struct an_memo *m, nfy_str key, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    while (m->slots[i].used &&
           !(m->slots[i].hash == h && nfy_str_eq(m->slots[i].key, key)))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static void grow(struct an_memo *m)
{
    memo_slot *old = m->slots;
    size_t n = m->cap;
    m->cap = n ? n * 2 : 64;
    m->slots = calloc(m->cap, sizeof *m->slots);
    if (m->slots == NULL)
        abort(); /* out of memory, as the arena does */
    for (size_t i = 0; i < n; i++) {
        if (old[i].used)
            *slot_of(m, old[i].key, old[i].hash) = old[i];
    }
    free(old); /* a run memo lives long: no table left behind per growth */
}

static void memo_free(void *state)
{
    struct an_memo *m = state;
    nfy_arena_release(&m->arena);
    free(m->slots);
    free(m);
}

static struct an_memo *memo_new(const nfy_apidb_version *v)
{
    struct an_memo *m = calloc(1, sizeof *m);
    if (m == NULL)
        abort(); /* out of memory, as the arena does */
    nfy_arena_init(&m->arena);
    m->v = v;
    return m;
}

/* The memo of c: the thread's run memo for c's version, else the file's. */
static struct an_memo *memo_of(an_ctx *c)
{
    if (c->memo != NULL)
        return c->memo;
    nfy_migrate_keep *k = c->keep;
    if (k != NULL && k->state == NULL && k->free_fn == NULL) {
        k->state = memo_new(c->judge_v);
        k->free_fn = memo_free;
    }
    if (k != NULL && k->free_fn == memo_free &&
        ((struct an_memo *)k->state)->v == c->judge_v)
        return c->memo = k->state;
    c->memo = memo_new(c->judge_v);
    c->memo_owned = true;
    return c->memo;
}

void an_memo_release(an_ctx *c)
{
    if (c->memo_owned)
        memo_free(c->memo);
    c->memo = NULL;
    c->memo_owned = false;
}

const an_judgement *an_judge(an_ctx *c, nfy_str qual)
{
    struct an_memo *m = memo_of(c);
    if (m->len >= MEMO_MAX_NAMES) {
        uint64_t h = nfy_str_hash(qual);
        memo_slot *s = slot_of(m, qual, h);
        if (s->used)
            return &s->j;
        an_judgement *j = nfy_arena_alloc(c->arena, sizeof *j);
        nfy__analyse_judge_in(c->judge_v, qual, j);
        return j;
    }
    if (2 * (m->len + 1) > m->cap)
        grow(m);
    uint64_t h = nfy_str_hash(qual);
    memo_slot *s = slot_of(m, qual, h);
    if (!s->used) {
        s->used = true;
        s->key = nfy_arena_str(&m->arena, qual);
        s->hash = h;
        nfy__analyse_judge_in(c->judge_v, s->key, &s->j);
        m->len++;
    }
    return &s->j;
}
