/*
 * NPU710 (advice): code that gives the NPU graph compiler a new shape per
 * step, the patterns Huawei's guide fixes by hand:
 *  - ops whose output size depends on the data: torch.nonzero, unique,
 *    unique_consecutive, masked_select, argwhere (resolved names, and the
 *    same methods on a local that is surely a tensor);
 *  - boolean-mask indexing: a subscript whose index is a comparison at its
 *    top level (x[x > 0], x[mask == 1]);
 *  - torch.utils.data.DataLoader without drop_last=True (the last batch is
 *    smaller).
 */
#include <string.h>

#include "analyse/an_internal.h"

static const char *const data_sized[] = {
    "nonzero", "unique", "unique_consecutive", "masked_select", "argwhere"};

static bool is_data_sized(nfy_str name)
{
    if (name.len == 0 || (name.ptr[0] != 'n' && name.ptr[0] != 'u' &&
                          name.ptr[0] != 'm' && name.ptr[0] != 'a'))
        return false; /* no such first letter: most names end here */
    for (size_t i = 0; i < sizeof data_sized / sizeof data_sized[0]; i++)
        if (nfy_str_eq_cstr(name, data_sized[i]))
            return true;
    return false;
}

static nfy_str last_part(nfy_str q)
{
    size_t i = q.len;
    while (i > 0 && q.ptr[i - 1] != '.')
        i--;
    return (nfy_str){q.ptr + i, q.len - i};
}

static void data_sized_call(an_ctx *c, const nfy_call *k)
{
    const nfy_name_use *u = &c->m->uses[k->use];
    const nfy_res *res = nfy_resolve_use(c->r, k->use);
    nfy_str q = res->qual;
    bool torch_fn =
        (res->kind == NFY_RES_IMPORT || res->kind == NFY_RES_ALIAS) &&
        AN_STARTS(q, "torch.") && is_data_sized(last_part(q)) &&
        (nfy_resolve_dotted_count(q) == 2 || AN_STARTS(q, "torch.Tensor."));
    bool tensor_method =
        res->kind == NFY_RES_LOCAL && res->binding != NFY_NONE &&
        u->nparts == 2 &&
        is_data_sized(nfy_pysyn_tok_text(c->m, u->chain_end)) &&
        strcmp(nfy__analyse_binding_type(c, res->binding), "torch.Tensor") == 0;
    if (!torch_fn && !tensor_method)
        return;
    nfy_str name = nfy_pysyn_tok_text(c->m, u->chain_end);
    nfy__analyse_emit(
        c, "NPU710", nfy_pysyn_range_span(c->m, u->tok, u->chain_end + 1),
        nfy_arena_fmt(c->arena, "%s%.*s", torch_fn ? "" : "torch.Tensor.",
                      (int)(torch_fn ? q.len : name.len),
                      torch_fn ? q.ptr : name.ptr),
        "output size depends on the data", NULL);
}

static void loader_call(an_ctx *c, uint32_t ki, const nfy_call *k)
{
    const nfy_res *res = nfy_resolve_use(c->r, k->use);
    if (!AN_STR_IS(res->qual, "torch.utils.data.DataLoader") &&
        !AN_STR_IS(res->qual, "torch.utils.data.dataloader.DataLoader"))
        return;
    uint32_t a = nfy_pysyn_kwarg(c->m, ki, "drop_last");
    if (a != NFY_NONE) {
        const nfy_arg *arg = &c->m->args[a];
        if (arg->value_end == arg->value_first + 1 &&
            nfy_pysyn_tok_is(c->m, arg->value_first, "True"))
            return;
        if (!(arg->value_end == arg->value_first + 1 &&
              nfy_pysyn_tok_is(c->m, arg->value_first, "False")))
            return; /* a variable: the caller decides */
    }
    for (uint32_t i = 0; i < k->nargs; i++) /* **kwargs may hold it */
        if (c->m->args[k->args_first + i].kind == NFY_ARG_DSTAR)
            return;
    const nfy_name_use *u = &c->m->uses[k->use];
    nfy__analyse_emit(
        c, "NPU710", nfy_pysyn_range_span(c->m, u->tok, u->chain_end + 1),
        "torch.utils.data.DataLoader",
        "without drop_last=True the last batch has another size", NULL);
}

static bool is_compare(const an_ctx *c, uint32_t t)
{
    const nfy_token *k = &c->m->toks[t];
    const char *p = c->m->src->data + k->start;
    uint32_t n = k->end - k->start;
    if (n == 1)
        return p[0] == '>' || p[0] == '<';
    return n == 2 && p[1] == '=' &&
           (p[0] == '>' || p[0] == '<' || p[0] == '=' || p[0] == '!');
}

/* x[... cmp ...] with the comparison outside any inner bracket. */
static void mask_index(an_ctx *c, const nfy_subscript *s)
{
    if (s->rsqb == NFY_NONE)
        return;
    for (uint32_t t = s->lsqb + 1; t < s->rsqb; t++) {
        uint32_t partner = c->m->match[t];
        if (partner != NFY_NONE && partner > t) {
            t = partner; /* skip an inner bracket */
            continue;
        }
        if (AN_TOK_IS(c->m, t, ",") || AN_TOK_IS(c->m, t, ":") ||
            AN_TOK_IS(c->m, t, "lambda") || AN_TOK_IS(c->m, t, "for"))
            return; /* a tuple, a slice, a lambda, a comprehension */
        if (is_compare(c, t)) {
            nfy_span sp =
                nfy_pysyn_range_span(c->m, s->base_first, s->rsqb + 1);
            nfy__analyse_emit(c, "NPU710", sp, "boolean-mask indexing",
                              "the result size depends on the mask", NULL);
            return;
        }
    }
}

void nfy__analyse_dynamic_shapes(an_ctx *c)
{
    if (!nfy_resolve_imports_module(c->r, "torch"))
        return;
    for (uint32_t i = 0; i < c->m->ncalls; i++) {
        const nfy_call *k = &c->m->calls[i];
        if (k->use == NFY_NONE)
            continue;
        data_sized_call(c, k);
        loader_call(c, i, k);
    }
    for (uint32_t i = 0; i < c->m->nsubscripts; i++)
        mask_index(c, &c->m->subscripts[i]);
}
