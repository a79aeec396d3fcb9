/*
 * Read-only queries over a built nfy_pysyn: token text, spans, dotted
 * names, and binary searches over the arrays (all ordered by token).
 */
#include <stddef.h>
#include <string.h>

#include "pysyn/syn_internal.h"

nfy_span nfy_pysyn_range_span(const nfy_pysyn *m, uint32_t first, uint32_t end)
{
    if (first >= m->ntoks || end <= first || end > m->ntoks)
        return (nfy_span){0, 0};
    return (nfy_span){m->toks[first].start, m->toks[end - 1].end};
}

nfy_str nfy_pysyn_span_text(const nfy_pysyn *m, nfy_span sp)
{
    if (sp.end > m->src->len || sp.start > sp.end)
        return (nfy_str){"", 0};
    return (nfy_str){m->src->data + sp.start, sp.end - sp.start};
}

static bool skipped(const nfy_token *t)
{
    return t->kind == NFY_TOK_COMMENT || t->kind == NFY_TOK_NL;
}

nfy_str nfy_pysyn_dotted(const nfy_pysyn *m, nfy_arena *arena,
                         const nfy_name_use *use, uint32_t nparts)
{
    uint32_t end = use->chain_end;
    if (nparts) { /* cut after the nparts-th NAME */
        uint32_t seen = 0;
        for (uint32_t t = use->tok; t <= use->chain_end; t++)
            if (m->toks[t].kind == NFY_TOK_NAME && ++seen == nparts) {
                end = t;
                break;
            }
    }
    bool contiguous = true;
    for (uint32_t t = use->tok + 1; t <= end && contiguous; t++)
        contiguous = !skipped(&m->toks[t]) &&
                     m->toks[t].trivia_start == m->toks[t].start;
    const char *base = m->src->data;
    if (contiguous)
        return (nfy_str){base + m->toks[use->tok].start,
                         m->toks[end].end - m->toks[use->tok].start};
    size_t len = 0;
    for (uint32_t t = use->tok; t <= end; t++)
        if (!skipped(&m->toks[t]))
            len += m->toks[t].end - m->toks[t].start;
    char *buf = nfy_arena_alloc(arena, len + 1);
    size_t at = 0;
    for (uint32_t t = use->tok; t <= end; t++)
        if (!skipped(&m->toks[t])) {
            size_t n = m->toks[t].end - m->toks[t].start;
            memcpy(buf + at, base + m->toks[t].start, n);
            at += n;
        }
    buf[at] = '\0';
    return (nfy_str){buf, at};
}

/* The uint32_t key at key_off inside the element at e. */
static inline uint32_t key_at(const unsigned char *e, size_t key_off)
{
    uint32_t k;
    memcpy(&k, e + key_off, sizeof k);
    return k;
}

/*
 * Index of the element of a token-ordered array whose uint32_t key (at
 * key_off inside each stride-byte element) equals key, or NFY_NONE. A
 * lower bound without branches in its loop (the halving step is a
 * conditional move: lookups come in no order a predictor could follow);
 * inline, so that each caller's stride and offset are constants.
 */
static inline uint32_t find_by_key(const void *base, uint32_t n, size_t stride,
                                   size_t key_off, uint32_t key)
{
    if (!n)
        return NFY_NONE;
    const unsigned char *b = base;
    for (uint32_t len = n; len > 1;) {
        uint32_t half = len / 2;
        const unsigned char *mid = b + (size_t)half * stride;
        b = key_at(mid, key_off) < key ? mid : b;
        len -= half;
    }
    uint32_t i = (uint32_t)((size_t)(b - (const unsigned char *)base) / stride);
    if (key_at(b, key_off) < key)
        i++;
    return i < n && key_at((const unsigned char *)base + (size_t)i * stride,
                           key_off) == key
               ? i
               : NFY_NONE;
}

uint32_t nfy_pysyn_use_at(const nfy_pysyn *m, uint32_t t)
{
    return find_by_key(m->uses, m->nuses, sizeof *m->uses,
                       offsetof(nfy_name_use, tok), t);
}

uint32_t nfy_pysyn_call_at(const nfy_pysyn *m, uint32_t lpar)
{
    /* calls are in '(' order */
    return find_by_key(m->calls, m->ncalls, sizeof *m->calls,
                       offsetof(nfy_call, lpar), lpar);
}

uint32_t nfy_pysyn_string_at(const nfy_pysyn *m, uint32_t t)
{
    return find_by_key(m->strings, m->nstrings, sizeof *m->strings,
                       offsetof(nfy_strlit, first), t);
}

bool nfy_pysyn_tok_is(const nfy_pysyn *m, uint32_t t, const char *kw)
{
    return t < m->ntoks && nfy_str_eq_cstr(nfy_pysyn_tok_text(m, t), kw);
}

uint32_t nfy_pysyn_kwarg(const nfy_pysyn *m, uint32_t call, const char *kw)
{
    if (call >= m->ncalls)
        return NFY_NONE;
    const nfy_call *c = &m->calls[call];
    for (uint32_t i = c->args_first; i < c->args_first + c->nargs; i++)
        if (m->args[i].kind == NFY_ARG_KEYWORD &&
            nfy_pysyn_tok_is(m, m->args[i].name_tok, kw))
            return i;
    return NFY_NONE;
}

uint32_t nfy_pysyn_posarg(const nfy_pysyn *m, uint32_t call, uint32_t pos)
{
    if (call >= m->ncalls)
        return NFY_NONE;
    const nfy_call *c = &m->calls[call];
    for (uint32_t i = c->args_first; i < c->args_first + c->nargs; i++)
        if (m->args[i].pos == pos)
            return i;
    return NFY_NONE;
}
