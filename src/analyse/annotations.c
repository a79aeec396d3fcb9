/*
 * The tokens of type annotations (parameter and return annotations of a
 * def, the annotation of `x: T = v`): a torch class there names a type, it
 * does not run (with `from __future__ import annotations` it is not even
 * evaluated), so the torch-API judge gives it no verdict.
 */
#include "analyse/an_internal.h"

#define tok_is(c, t, lit) AN_TOK_IS((c)->m, (t), lit)

/* The partner of an opening bracket at t, or NFY_NONE. */
static uint32_t closer(const an_ctx *c, uint32_t t)
{
    uint32_t p = c->m->match[t];
    return p != NFY_NONE && p > t ? p : NFY_NONE;
}

/* Mark [t, end) up to the first stop token outside brackets; returns it. */
static uint32_t mark_until(const an_ctx *c, uint8_t *ann, uint32_t t,
                           uint32_t end, char stop1, char stop2)
{
    for (; t < end; t++) {
        const nfy_token *tk = &c->m->toks[t];
        char ch = c->m->src->data[tk->start];
        if (tk->end - tk->start == 1 && (ch == stop1 || (stop2 && ch == stop2)))
            return t;
        uint32_t p = closer(c, t);
        uint32_t last = p != NFY_NONE && p < end ? p : t;
        for (uint32_t k = t; k <= last; k++)
            ann[k] = 1;
        t = last;
    }
    return end;
}

static void def_header(const an_ctx *c, const nfy_stmt *s, uint8_t *ann)
{
    uint32_t t = s->name_tok + 1;
    if (tok_is(c, t, "[") && closer(c, t) != NFY_NONE) /* PEP 695 params */
        t = closer(c, t) + 1;
    uint32_t rpar = tok_is(c, t, "(") ? closer(c, t) : NFY_NONE;
    if (rpar == NFY_NONE || rpar >= s->end)
        return;
    for (uint32_t k = t + 1; k < rpar; k++) {
        if (tok_is(c, k, ":")) {
            k = mark_until(c, ann, k + 1, rpar, ',', '=');
            continue;
        }
        uint32_t p = closer(c, k); /* a default's brackets: skip them */
        if (p != NFY_NONE && p < rpar)
            k = p;
    }
    if (tok_is(c, rpar + 1, "->"))
        (void)mark_until(c, ann, rpar + 2, s->end, ':', 0);
}

uint8_t *nfy__analyse_annotation_tokens(an_ctx *c)
{
    const nfy_pysyn *m = c->m;
    uint8_t *ann = nfy_arena_calloc(c->arena, m->ntoks + 1, 1);
    for (uint32_t i = 0; i < m->nstmts; i++) {
        const nfy_stmt *s = &m->stmts[i];
        if (s->kind == NFY_STMT_DEF && s->name_tok != NFY_NONE)
            def_header(c, s, ann);
        else if (s->kind == NFY_STMT_ANNASSIGN) {
            uint32_t t = s->first;
            while (t < s->end && !tok_is(c, t, ":")) {
                uint32_t p = closer(c, t);
                t = (p != NFY_NONE && p < s->end ? p : t) + 1;
            }
            if (t < s->end)
                (void)mark_until(c, ann, t + 1, s->end, '=', 0);
        }
    }
    return ann;
}
