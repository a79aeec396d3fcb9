/*
 * What a local surely holds, for the torch-API judge: an object of a torch
 * class (`m = nn.MaxPool2d(2)`) or a tensor (`x = torch.randn(3)`, a
 * parameter annotated torch.Tensor). Sure means every binding of the name
 * in its scope says the same; anything else is "" (never guessed).
 */
#include <string.h>

#include "analyse/an_internal.h"

/* torch functions whose result is always a tensor. */
static const char *const factories[] = {
    "torch.arange",     "torch.as_tensor",  "torch.cat",
    "torch.empty",      "torch.empty_like", "torch.eye",
    "torch.from_numpy", "torch.full",       "torch.full_like",
    "torch.linspace",   "torch.ones",       "torch.ones_like",
    "torch.rand",       "torch.rand_like",  "torch.randint",
    "torch.randn",      "torch.randn_like", "torch.randperm",
    "torch.stack",      "torch.tensor",     "torch.zeros",
    "torch.zeros_like",
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
    if (!nfy_str_starts_with(q, NFY_STR_LIT("torch.")))
        return false; /* every factory is one */
    for (size_t i = 0; i < sizeof factories / sizeof factories[0]; i++)
        if (str_is(q, factories[i]))
            return true;
    return false;
}

/* A torch class: the last component starts with an upper-case letter. */
static bool is_torch_class(nfy_str q)
{
    if (!nfy_str_starts_with(q, NFY_STR_LIT("torch.")))
        return false;
    size_t i = q.len;
    while (i > 0 && q.ptr[i - 1] != '.')
        i--;
    return i < q.len && q.ptr[i] >= 'A' && q.ptr[i] <= 'Z' &&
           !nfy_str_eq_cstr(q, "torch.Tensor");
}

nfy_str an_value_call(const an_ctx *c, uint32_t first, uint32_t end)
{
    nfy_str none = {NULL, 0};
    uint32_t u = nfy_pysyn_use_at(c->m, first);
    if (u == NFY_NONE || first >= end)
        return none;
    uint32_t lpar = c->m->uses[u].chain_end + 1;
    uint32_t k = lpar < c->m->ntoks ? nfy_pysyn_call_at(c->m, lpar) : NFY_NONE;
    if (k == NFY_NONE || c->m->calls[k].rpar == NFY_NONE ||
        c->m->calls[k].rpar + 1 != end)
        return none;
    const nfy_res *res = nfy_resolve_use(c->r, u);
    if (res->kind != NFY_RES_IMPORT && res->kind != NFY_RES_ALIAS)
        return none;
    return res->qual;
}

static bool next_tok_is(const nfy_pysyn *m, uint32_t t, const char *text)
{
    return t + 1 < m->ntoks && nfy_pysyn_tok_is(m, t + 1, text);
}

/* A parameter annotated exactly `torch.Tensor` (`x: torch.Tensor`). */
static bool tensor_param(const an_ctx *c, const nfy_binding *b)
{
    uint32_t t = b->tok;
    if (!next_tok_is(c->m, t, ":"))
        return false;
    uint32_t u = nfy_pysyn_use_at(c->m, t + 2);
    if (u == NFY_NONE)
        return false;
    const nfy_res *res = nfy_resolve_use(c->r, u);
    uint32_t after = c->m->uses[u].chain_end + 1;
    return nfy_str_eq_cstr(res->qual, "torch.Tensor") && after < c->m->ntoks &&
           (nfy_pysyn_tok_is(c->m, after, ",") ||
            nfy_pysyn_tok_is(c->m, after, ")") ||
            nfy_pysyn_tok_is(c->m, after, "="));
}

/* The type one binding gives its name ("" when none is sure). */
static const char *own_type_of(const an_ctx *c, const nfy_binding *b)
{
    if (b->kind == NFY_BIND_PARAM)
        return tensor_param(c, b) ? "torch.Tensor" : "";
    if (b->kind != NFY_BIND_ASSIGN || b->value_first == NFY_NONE)
        return "";
    nfy_str q = an_value_call(c, b->value_first, b->value_end);
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

/* Per binding, the bindings of its name in its scope as a list in index
 * order: next[i] after i (NFY_NONE: the last), next[n + 1 + i] the first
 * of i's list. Built on first use, with one hash table pass. */
static const uint32_t *same_name_lists(an_ctx *c)
{
    if (c->bsame != NULL)
        return c->bsame;
    uint32_t n = c->m->nbindings, cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    uint32_t *next = nfy_arena_alloc(c->arena, (2 * n + 2) * sizeof *next);
    uint32_t *head = next + n + 1;
    uint32_t *last = nfy_arena_alloc(c->arena, cap * sizeof *last);
    for (uint32_t i = 0; i < cap; i++)
        last[i] = NFY_NONE;
    for (uint32_t i = 0; i < n; i++) {
        const nfy_binding *b = &c->m->bindings[i];
        nfy_str name = nfy_pysyn_tok_text(c->m, b->tok);
        uint32_t h = (uint32_t)(nfy_str_hash(name) ^ b->scope * 0x9E3779B1u);
        uint32_t k = h & (cap - 1);
        for (; last[k] != NFY_NONE; k = (k + 1) & (cap - 1)) {
            const nfy_binding *o = &c->m->bindings[last[k]];
            if (o->scope == b->scope &&
                nfy_str_eq(nfy_pysyn_tok_text(c->m, o->tok), name))
                break;
        }
        next[i] = NFY_NONE;
        head[i] = last[k] != NFY_NONE ? head[last[k]] : i;
        if (last[k] != NFY_NONE)
            next[last[k]] = i;
        last[k] = i;
    }
    c->bsame = next;
    return next;
}

const char *an_binding_type(an_ctx *c, uint32_t bi)
{
    if (bi >= c->m->nbindings)
        return "";
    if (c->btype[bi] != NULL)
        return c->btype[bi];
    const char *t = own_type(c, bi);
    if (t[0] != '\0') { /* every binding of the name in its scope agrees */
        const uint32_t *next = same_name_lists(c);
        const uint32_t *head = next + c->m->nbindings + 1;
        for (uint32_t i = head[bi]; t[0] != '\0' && i != NFY_NONE;
             i = next[i]) {
            if (i != bi && strcmp(own_type(c, i), t) != 0)
                t = "";
        }
    }
    c->btype[bi] = t;
    return t;
}
