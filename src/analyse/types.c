/*
 * What a local surely holds, for the torch-API judge: an object of a torch
 * class (`m = nn.MaxPool2d(2)`) or a tensor (`x = torch.randn(3)`, a
 * parameter annotated torch.Tensor). Sure means every binding of the name
 * in its scope says the same; anything else is "" (never guessed).
 */
#include <string.h>

#include "analyse/an_internal.h"

/* torch functions whose result is always a tensor (after "torch."). */
static const char *const factories[] = {
    "arange", "as_tensor",  "cat",      "empty",     "empty_like",
    "eye",    "from_numpy", "full",     "full_like", "linspace",
    "ones",   "ones_like",  "rand",     "rand_like", "randint",
    "randn",  "randn_like", "randperm", "stack",     "tensor",
    "zeros",  "zeros_like",
};

/* s equal to the C string w, without its strlen (most differ early). */
static bool str_is(nfy_str s, const char *w)
{
    for (size_t i = 0; i < s.len; i++)
        if (w[i] == '\0' || w[i] != s.ptr[i])
            return false;
    return w[s.len] == '\0';
}

static bool is_factory(nfy_str q)
{
    if (!AN_STARTS(q, "torch.") || q.len == 6)
        return false; /* every factory is one */
    nfy_str tail = {q.ptr + 6, q.len - 6};
    for (size_t i = 0; i < sizeof factories / sizeof factories[0]; i++)
        if (factories[i][0] == tail.ptr[0] && str_is(tail, factories[i]))
            return true;
    return false;
}

/* A torch class: the last component starts with an upper-case letter. */
static bool is_torch_class(nfy_str q)
{
    if (!AN_STARTS(q, "torch."))
        return false;
    size_t i = q.len;
    while (i > 0 && q.ptr[i - 1] != '.')
        i--;
    return i < q.len && q.ptr[i] >= 'A' && q.ptr[i] <= 'Z' &&
           !AN_STR_IS(q, "torch.Tensor");
}

nfy_str nfy__analyse_value_call(const an_ctx *c, uint32_t first, uint32_t end)
{
    const nfy_pysyn *m = c->m;
    nfy_str none = {NULL, 0};
    if (first >= end || end > m->ntoks || !AN_TOK_IS(m, end - 1, ")"))
        return none; /* a call ends the value: most values are not one */
    uint32_t lpar = m->match[end - 1]; /* the call's '(' when it is one */
    if (lpar == NFY_NONE || lpar <= first ||
        m->toks[first].kind != NFY_TOK_NAME ||
        m->toks[lpar - 1].kind != NFY_TOK_NAME)
        return none; /* not NAME ... NAME ( ... ) */
    uint32_t u = nfy_pysyn_use_at(m, first);
    if (u == NFY_NONE || m->uses[u].chain_end + 1 != lpar)
        return none;
    uint32_t k = nfy_pysyn_call_at(m, lpar);
    if (k == NFY_NONE || m->calls[k].rpar == NFY_NONE ||
        m->calls[k].rpar + 1 != end)
        return none;
    const nfy_res *res = nfy_resolve_use(c->r, u);
    if (res->kind != NFY_RES_IMPORT && res->kind != NFY_RES_ALIAS)
        return none;
    return res->qual;
}

/* A parameter annotated exactly `torch.Tensor` (`x: torch.Tensor`). */
static bool tensor_param(const an_ctx *c, const nfy_binding *b)
{
    const nfy_pysyn *m = c->m;
    uint32_t t = b->tok;
    if (t + 1 >= m->ntoks || !AN_TOK_IS(m, t + 1, ":"))
        return false;
    uint32_t u = nfy_pysyn_use_at(m, t + 2);
    if (u == NFY_NONE)
        return false;
    const nfy_res *res = nfy_resolve_use(c->r, u);
    uint32_t after = m->uses[u].chain_end + 1;
    return AN_STR_IS(res->qual, "torch.Tensor") && after < m->ntoks &&
           (AN_TOK_IS(m, after, ",") || AN_TOK_IS(m, after, ")") ||
            AN_TOK_IS(m, after, "="));
}

/* The type one binding gives its name ("" when none is sure). */
static const char *own_type_of(const an_ctx *c, const nfy_binding *b)
{
    if (b->kind == NFY_BIND_PARAM)
        return tensor_param(c, b) ? "torch.Tensor" : "";
    if (b->kind != NFY_BIND_ASSIGN || b->value_first == NFY_NONE)
        return "";
    nfy_str q = nfy__analyse_value_call(c, b->value_first, b->value_end);
    if (is_factory(q))
        return "torch.Tensor";
    if (is_torch_class(q))
        return nfy_arena_strndup(c->arena, q.ptr, q.len);
    return "";
}

/* own_type_of binding i, each found once a file (a name bound many times
 * in one scope asks for every binding's). */
static const char *own_type(an_ctx *c, uint32_t i)
{
    if (c->bown == NULL)
        c->bown =
            nfy_arena_calloc(c->arena, c->m->nbindings + 1, sizeof *c->bown);
    if (c->bown[i] == NULL)
        c->bown[i] = own_type_of(c, &c->m->bindings[i]);
    return c->bown[i];
}

const char *nfy__analyse_binding_type(an_ctx *c, uint32_t bi)
{
    if (bi >= c->m->nbindings)
        return "";
    if (c->btype[bi] != NULL)
        return c->btype[bi];
    const char *t = own_type(c, bi);
    if (t[0] != '\0') { /* every binding of the name in its scope agrees */
        uint32_t n;
        const uint32_t *same = nfy_resolve_same_name(c->r, bi, &n);
        for (uint32_t k = 0; k < n && t[0] != '\0'; k++) {
            if (same[k] != bi && strcmp(own_type(c, same[k]), t) != 0)
                t = "";
        }
    }
    c->btype[bi] = t;
    return t;
}
