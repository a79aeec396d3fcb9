/*
 * NPU504 / NPU711: Python call sites of operators the project's own
 * C++/CUDA sources define (nfy_analyse_exts), NPU504 when the registering
 * file has CUDA code, NPU711 for plain C++ (it builds without CUDA, but its
 * inputs must be CPU tensors). A call is matched when
 *  - it is torch.ops.NS.NAME(...) and some TORCH_LIBRARY(NS, m) defines
 *    NAME ("NS::NAME");
 *  - it is R.NAME(...) with R an import whose last component is the
 *    PYBIND11_MODULE name that defines NAME (or any import when the
 *    module is named by the TORCH_EXTENSION_NAME macro);
 *  - it is R.NAME(...) with R a local bound to
 *    torch.utils.cpp_extension.load/load_inline(...) and some module of the
 *    project defines NAME.
 */
#include <string.h>

#include "analyse/an_internal.h"

static nfy_str last_part(nfy_str q)
{
    size_t i = q.len;
    while (i > 0 && q.ptr[i - 1] != '.')
        i--;
    return (nfy_str){q.ptr + i, q.len - i};
}

static const char *lookup(an_ctx *c, nfy_str mod, nfy_str name, bool *cuda)
{
    char *key = nfy_arena_fmt(c->arena, "%.*s.%.*s", (int)mod.len, mod.ptr,
                              (int)name.len, name.ptr);
    return nfy_analyse_exts_find(c->o->exts, nfy_str_from_cstr(key), cuda);
}

/* Where the operator called through use u is defined, or NULL. */
static const char *defined_at(an_ctx *c, const nfy_name_use *u,
                              const nfy_res *res, bool *cuda)
{
    if (u->nparts < 2)
        return NULL;
    nfy_str name = nfy_pysyn_tok_text(c->m, u->chain_end);
    if (res->kind == NFY_RES_IMPORT || res->kind == NFY_RES_ALIAS) {
        nfy_str q = res->qual;
        if (nfy_str_starts_with(q, NFY_STR_LIT("torch.ops.")) &&
            nfy_resolve_dotted_count(q) == 4) {
            nfy_str ns = last_part(nfy_resolve_dotted_head(q, 3));
            char *key = nfy_arena_fmt(c->arena, "%.*s::%.*s", (int)ns.len,
                                      ns.ptr, (int)name.len, name.ptr);
            return nfy_analyse_exts_find(c->o->exts, nfy_str_from_cstr(key),
                                         cuda);
        }
        if (nfy_str_starts_with(q, NFY_STR_LIT("torch.")))
            return NULL;
        nfy_str recv = last_part(
            nfy_resolve_dotted_head(q, nfy_resolve_dotted_count(q) - 1));
        const char *w = lookup(c, recv, name, cuda);
        return w ? w
                 : lookup(c, NFY_STR_LIT("TORCH_EXTENSION_NAME"), name, cuda);
    }
    if (res->kind != NFY_RES_LOCAL || res->binding == NFY_NONE ||
        u->nparts != 2)
        return NULL;
    const nfy_binding *b = &c->m->bindings[res->binding];
    if (b->kind != NFY_BIND_ASSIGN || b->value_first == NFY_NONE)
        return NULL;
    nfy_str q = nfy__analyse_value_call(c, b->value_first, b->value_end);
    if (!nfy_str_eq_cstr(q, "torch.utils.cpp_extension.load") &&
        !nfy_str_eq_cstr(q, "torch.utils.cpp_extension.load_inline"))
        return NULL;
    return lookup(c, NFY_STR_LIT("?"), name, cuda);
}

/* Whether the import behind res sits in a try statement. */
static bool guarded(const an_ctx *c, const nfy_res *res)
{
    if (res->import_name == NFY_NONE)
        return false;
    uint32_t imp = c->m->import_names[res->import_name].import;
    return imp < c->m->nimports && c->m->imports[imp].try_stmt != NFY_NONE;
}

/* The condition of if/elif header st when it is a plain flag: names and
 * attributes joined by not/and/or, in brackets or not, no call and no
 * comparison (`if args.use_cuda_kernel:`, `if self.fused and x.is_cuda:`);
 * else empty. */
static nfy_str flag_of(const an_ctx *c, const nfy_stmt *st)
{
    const nfy_pysyn *m = c->m;
    uint32_t b = st->first + 1, e = st->end;
    if (e > b && e <= m->ntoks && m->toks[e - 1].op == NFY_OP_COLON)
        e--;
    if (b >= e || e > m->ntoks)
        return (nfy_str){"", 0};
    for (uint32_t t = b; t < e; t++) {
        const nfy_token *k = &m->toks[t];
        bool word = k->kind == NFY_TOK_NAME;
        bool call = k->op == NFY_OP_LPAR && t > b &&
                    m->toks[t - 1].kind == NFY_TOK_NAME &&
                    !AN_TOK_IS(m, t - 1, "not") &&
                    !AN_TOK_IS(m, t - 1, "and") && !AN_TOK_IS(m, t - 1, "or");
        bool punct = k->kind == NFY_TOK_OP &&
                     (k->op == NFY_OP_DOT || k->op == NFY_OP_LPAR ||
                      k->op == NFY_OP_RPAR);
        if (call || !(word || punct) ||
            (word && k->op != 0 && !AN_TOK_IS(m, t, "not") &&
             !AN_TOK_IS(m, t, "and") && !AN_TOK_IS(m, t, "or")))
            return (nfy_str){"", 0};
    }
    return nfy_pysyn_span_text(m, nfy_pysyn_range_span(m, b, e));
}

/* The flag that gates statement s: the condition of the nearest enclosing
 * if/elif (or of the if an else continues) that is a plain flag, or empty.
 * A CUDA operator called only there runs only when the flag is on: with it
 * off (on NPU) the project's portable path runs. */
static nfy_str gate_of(const an_ctx *c, uint32_t s)
{
    for (uint32_t p = c->m->stmts[s].parent; p != NFY_NONE;
         p = c->m->stmts[p].parent) {
        uint32_t h = p;
        if (c->m->stmts[p].kind == NFY_STMT_ELSE)
            h = c->m->stmts[p].clause_of;
        if (h == NFY_NONE || (c->m->stmts[h].kind != NFY_STMT_IF &&
                              c->m->stmts[h].kind != NFY_STMT_ELIF))
            continue;
        nfy_str f = flag_of(c, &c->m->stmts[h]);
        if (f.len > 0)
            return f;
    }
    return (nfy_str){"", 0};
}

void nfy__analyse_custom_ops(an_ctx *c)
{
    if (c->o->exts == NULL || c->o->exts->len == 0)
        return;
    for (uint32_t i = 0; i < c->m->ncalls; i++) {
        const nfy_call *k = &c->m->calls[i];
        if (k->use == NFY_NONE)
            continue;
        const nfy_name_use *u = &c->m->uses[k->use];
        const nfy_res *res = nfy_resolve_use(c->r, k->use);
        bool cuda = false;
        const char *where = defined_at(c, u, res, &cuda);
        if (where == NULL)
            continue;
        nfy_str callee = nfy_pysyn_dotted(c->m, c->arena, u, 0);
        char *api = nfy_arena_strndup(c->arena, callee.ptr, callee.len);
        bool tried = guarded(c, res);
        nfy_str flag = gate_of(c, k->stmt);
        /* a CUDA operator behind a try or a flag is an optional path: the
           fallback runs on NPU (NPU713, not a kernel to port first) */
        const char *why =
            tried ? "; imported inside try: the project may have a fallback"
            : flag.len > 0
                ? nfy_arena_fmt(c->arena,
                                "; called only when %.*s holds: the "
                                "project's other path runs when it is off",
                                NFY_STR_FMT(flag))
                : "";
        nfy__analyse_emit(
            c, cuda ? tried || flag.len > 0 ? "NPU713" : "NPU504" : "NPU711",
            nfy_pysyn_range_span(c->m, u->tok, u->chain_end + 1), api,
            nfy_arena_fmt(c->arena, "defined at %s%s", where, why), NULL);
    }
}
