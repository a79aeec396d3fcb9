/*
 * Judgements of torch API names, and the findings they make, worked out
 * once per distinct name: a file names the same few APIs many times
 * (torch.tensor, nn.Module), and a tree names the same few thousand, while
 * each judgement is several table searches and each finding's texts
 * several formats. Core's table (core/htab.h) on the name's hash. The memo is
 * the run's when the migrate driver keeps one for this thread
 * (nfy_migrate_keep), else the file's (in its arena, released with it). A
 * judgement depends on the version and the name only, a finding's texts on the
 * options too (the memo is kept for one version and options), so where they
 * were made changes no answer.
 */
#include <stdlib.h>
#include <string.h>

#include "analyse/an_internal.h"
#include "core/htab.h"

struct an_memo {
    nfy_arena arena;                 /* keys and the entries' texts */
    const nfy_apidb_version *v;      /* the judged version */
    const nfy_apidb_version *target; /* the target (an_ctx's v) */
    nfy_apidb_api_lists lists;       /* v's, indexed once much is asked */
    size_t judged;                   /* judgements made */
    const nfy_analyse_opts *o; /* the rules and version the texts are for */
    NFY_VEC(an_named *)
    named; /* rows of by_name (n->j.api is a head of
              n->key) */
    nfy_htab by_name;
};

/* A run memo stops growing here: memory stays bounded on any tree, and
 * names past it are judged each time (the same answers). */
#define MEMO_MAX_NAMES (1u << 14)

/* After this many judgements the lists are hashed (their index costs about
 * as much as a few hundred searches). */
#define MEMO_INDEX_AFTER 256

typedef struct {
    const struct an_memo *m;
    nfy_str key;
} memo_probe;

static bool named_is(const void *ctx, uint32_t row)
{
    const memo_probe *p = ctx;
    return nfy_str_eq(p->m->named.items[row]->key, p->key);
}

/* The memo's entry of key (hash: its hash), or NULL. */
static an_named *memo_get(const struct an_memo *m, nfy_str key, uint32_t hash)
{
    memo_probe p = {m, key};
    uint32_t row = nfy_htab_get(&m->by_name, hash, named_is, &p);
    return row == NFY_HTAB_NONE ? NULL : m->named.items[row];
}

static void memo_free(void *state)
{
    struct an_memo *m = state;
    nfy_apidb_api_lists_release(&m->lists);
    nfy_arena_release(&m->arena);
    nfy_vec_free(&m->named);
    nfy_htab_release(&m->by_name);
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

bool nfy__analyse_memo_versions(const an_ctx *c, const nfy_apidb_version **v,
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

void nfy__analyse_memo_release(an_ctx *c)
{
    if (c->memo_owned)
        memo_free(c->memo);
    c->memo = NULL;
    c->memo_owned = false;
}

an_named *nfy__analyse_name(an_ctx *c, nfy_str qual)
{
    struct an_memo *m = memo_of(c);
    uint32_t h = (uint32_t)nfy_str_hash_words(qual);
    an_named *n = memo_get(m, qual, h);
    if (n != NULL)
        return n;
    if (m->named.len >= MEMO_MAX_NAMES) {
        n = nfy_arena_calloc(c->arena, 1, sizeof *n);
        n->key = qual;
        n->arena = c->arena;
        return n;
    }
    n = nfy_arena_calloc(&m->arena, 1, sizeof *n);
    n->key = nfy_arena_str(&m->arena, qual);
    n->arena = &m->arena;
    nfy_htab_put(&m->by_name, h, (uint32_t)m->named.len);
    nfy_vec_push(&m->named, n);
    return n;
}

const an_judgement *nfy__analyse_named_judgement(an_ctx *c, an_named *n)
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
