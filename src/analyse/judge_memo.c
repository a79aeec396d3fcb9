/*
 * Judgements of torch API names, and the findings they make, worked out
 * once per distinct name: a file names the same few APIs many times
 * (torch.tensor, nn.Module), and a tree names the same few thousand, while
 * each judgement is several table searches and each finding's texts
 * several formats. Open addressing on the name's hash. The memo is the run's
 * when the migrate driver keeps one for this thread (nfy_migrate_keep), else
 * the file's (in its arena, released with it). A judgement depends on the
 * version and the name only, a finding's texts on the options too (the
 * memo is kept for one version and options), so where they were made
 * changes no answer.
 */
#include <stdlib.h>
#include <string.h>

#include "analyse/an_internal.h"

typedef struct {
    uint64_t hash;
    an_named *n; /* in the memo's arena (n->j.api is a head of n->key);
                    NULL: a free slot */
} memo_slot;

struct an_memo {
    nfy_arena arena;                 /* keys and the entries' texts */
    const nfy_apidb_version *v;      /* the judged version */
    const nfy_apidb_version *target; /* the target (an_ctx's v) */
    nfy_apidb_api_lists lists;       /* v's, indexed once much is asked */
    size_t judged;                   /* judgements made */
    const nfy_analyse_opts *o; /* the rules and version the texts are for */
    memo_slot *slots;
    size_t cap, len; /* cap: a power of two */
};

/* A run memo stops growing here: memory stays bounded on any tree, and
 * names past it are judged each time (the same answers). */
#define MEMO_MAX_NAMES (1u << 14)

/* After this many judgements the lists are hashed (their index costs about
 * as much as a few hundred searches). */
#define MEMO_INDEX_AFTER 256

static inline uint64_t load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Word-at-a-time hash of a name (the memo's own: names are long dotted
 * paths, and any hash gives the same answers). */
static uint64_t name_hash(nfy_str s)
{
    const uint64_t k = 0x9E3779B97F4A7C15ull;
    uint64_t h = s.len * k, w = 0;
    if (s.len >= 8) { /* whole words, the last one overlapping */
        for (size_t i = 0; i + 8 < s.len; i += 8)
            h = (h ^ load8(s.ptr + i)) * k, h ^= h >> 29;
        w = load8(s.ptr + s.len - 8);
    } else {
        for (size_t j = 0; j < s.len; j++)
            w |= (uint64_t)(unsigned char)s.ptr[j] << (8 * j);
    }
    h = (h ^ w) * k;
    return h ^ (h >> 32);
}

static bool key_eq(nfy_str a, nfy_str b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

static memo_slot *slot_of(struct an_memo *m, nfy_str key, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    while (m->slots[i].n != NULL &&
           !(m->slots[i].hash == h && key_eq(m->slots[i].n->key, key)))
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
        if (old[i].n != NULL)
            *slot_of(m, old[i].n->key, old[i].hash) = old[i];
    }
    free(old); /* a run memo lives long: no table left behind per growth */
}

static void memo_free(void *state)
{
    struct an_memo *m = state;
    nfy_apidb_api_lists_release(&m->lists);
    nfy_arena_release(&m->arena);
    free(m->slots);
    free(m);
}

static struct an_memo *memo_new(const an_ctx *c)
{
    struct an_memo *m = calloc(1, sizeof *m);
    if (m == NULL)
        abort(); /* out of memory, as the arena does */
    nfy_arena_init(&m->arena);
    m->v = c->judge_v;
    m->target = c->v;
    nfy_apidb_api_lists_init(&m->lists, m->v);
    m->o = c->o;
    return m;
}

/* The memo of c: the thread's run memo for c's version and options, else
 * the file's. */
static struct an_memo *memo_of(an_ctx *c)
{
    if (c->memo != NULL)
        return c->memo;
    nfy_migrate_keep *k = c->keep;
    if (k != NULL && k->state == NULL && k->free_fn == NULL) {
        k->state = memo_new(c);
        k->free_fn = memo_free;
    }
    if (k != NULL && k->free_fn == memo_free &&
        ((struct an_memo *)k->state)->v == c->judge_v &&
        ((struct an_memo *)k->state)->o == c->o)
        return c->memo = k->state;
    c->memo = memo_new(c);
    c->memo_owned = true;
    return c->memo;
}

bool an_memo_versions(const an_ctx *c, const nfy_apidb_version **v,
                      const nfy_apidb_version **judge_v)
{
    const nfy_migrate_keep *k = c->keep;
    if (k == NULL || k->free_fn != memo_free ||
        ((const struct an_memo *)k->state)->o != c->o)
        return false;
    const struct an_memo *m = k->state;
    *v = m->target;
    *judge_v = m->v;
    return true;
}

void an_memo_release(an_ctx *c)
{
    if (c->memo_owned)
        memo_free(c->memo);
    c->memo = NULL;
    c->memo_owned = false;
}

an_named *an_name(an_ctx *c, nfy_str qual)
{
    struct an_memo *m = memo_of(c);
    uint64_t h = name_hash(qual);
    if (m->len >= MEMO_MAX_NAMES) {
        memo_slot *s = slot_of(m, qual, h);
        if (s->n != NULL)
            return s->n;
        an_named *n = nfy_arena_calloc(c->arena, 1, sizeof *n);
        n->key = qual;
        n->arena = c->arena;
        return n;
    }
    if (2 * (m->len + 1) > m->cap)
        grow(m);
    memo_slot *s = slot_of(m, qual, h);
    if (s->n == NULL) {
        s->hash = h;
        s->n = nfy_arena_calloc(&m->arena, 1, sizeof *s->n);
        s->n->key = nfy_arena_str(&m->arena, qual);
        s->n->arena = &m->arena;
        m->len++;
    }
    return s->n;
}

const an_judgement *an_named_judgement(an_ctx *c, an_named *n)
{
    if (!n->judged) {
        struct an_memo *m = memo_of(c);
        if (++m->judged == MEMO_INDEX_AFTER)
            nfy_apidb_api_lists_index(&m->lists);
        nfy__analyse_judge_in(&m->lists, n->key, &n->j);
        n->judged = true;
    }
    return &n->j;
}
