/*
 * NPU705: Triton kernels (a def decorated @triton.jit, or
 * @triton.autotune / @triton.heuristics over one) and the kernel[grid](...)
 * launches of them in the same file.
 */
#include <string.h>

#include "analyse/an_internal.h"

static bool triton_decorated(const an_ctx *c, const nfy_stmt *s)
{
    for (uint32_t d = 0; d < s->ndecos; d++) {
        const nfy_stmt *ds = &c->m->stmts[s->deco_first + d];
        uint32_t u = nfy_pysyn_use_at(c->m, ds->first + 1);
        if (u == NFY_NONE)
            continue;
        nfy_str q = nfy_resolve_use(c->r, u)->qual;
        if (nfy_str_eq_cstr(q, "triton.jit") ||
            nfy_str_eq_cstr(q, "triton.autotune") ||
            nfy_str_eq_cstr(q, "triton.heuristics"))
            return true;
    }
    return false;
}

static uint32_t def_binding(const an_ctx *c, uint32_t name_tok)
{
    for (uint32_t i = 0; i < c->m->nbindings; i++)
        if (c->m->bindings[i].tok == name_tok &&
            c->m->bindings[i].kind == NFY_BIND_DEF)
            return i;
    return NFY_NONE;
}

static void launches(an_ctx *c, uint32_t binding, const char *name)
{
    for (uint32_t i = 0; i < c->m->nsubscripts; i++) {
        const nfy_subscript *s = &c->m->subscripts[i];
        if (s->use == NFY_NONE || s->rsqb == NFY_NONE ||
            s->rsqb + 1 >= c->m->ntoks ||
            !nfy_pysyn_tok_is(c->m, s->rsqb + 1, "("))
            continue;
        const nfy_name_use *u = &c->m->uses[s->use];
        const nfy_res *res = nfy_resolve_use(c->r, s->use);
        if (u->nparts != 1 || res->binding != binding)
            continue;
        nfy__analyse_emit(c, "NPU705",
                          nfy_pysyn_range_span(c->m, u->tok, s->rsqb + 1), name,
                          "launch of the kernel", NULL);
    }
}

void nfy__analyse_triton(an_ctx *c)
{
    for (uint32_t i = 0; i < c->m->nstmts; i++) {
        const nfy_stmt *s = &c->m->stmts[i];
        if (s->name_tok == NFY_NONE || s->ndecos == 0 ||
            s->deco_first == NFY_NONE || !triton_decorated(c, s))
            continue;
        nfy_str name = nfy_pysyn_tok_text(c->m, s->name_tok);
        char *api = nfy_arena_strndup(c->arena, name.ptr, name.len);
        nfy__analyse_emit(
            c, "NPU705",
            nfy_pysyn_range_span(c->m, s->name_tok, s->name_tok + 1), api,
            "kernel definition", NULL);
        uint32_t b = def_binding(c, s->name_tok);
        if (b != NFY_NONE)
            launches(c, b, api);
    }
}
