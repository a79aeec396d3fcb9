/*
 * Name resolution over the pysyn structure: every use bound through the
 * binding tables of src/resolve/index.c, and a memoised qualified name per
 * binding (imports and dotted aliases). See src/resolve/resolve.h for the
 * rules. Everything is allocated in the caller's arena.
 */
#include "resolve/resolve.h"

#include <string.h>

#include "resolve/resolve_internal.h"

/* Aliases of aliases are followed this deep; deeper chains stay unknown. */
#define ALIAS_DEPTH_MAX 16

enum bind_state { BS_TODO, BS_BUSY, BS_DONE };

typedef nfy__res_index res_index;

const char *nfy_resolve_kind_name(nfy_res_kind k)
{
    static const char *const names[] = {"unbound", "local", "import", "alias"};
    return (unsigned)k < 4 ? names[k] : "?";
}

uint32_t nfy_resolve_dotted_count(nfy_str s)
{
    if (s.len == 0)
        return 0;
    uint32_t n = 1;
    for (const char *p = s.ptr, *e = s.ptr + s.len;
         (p = memchr(p, '.', (size_t)(e - p))) != NULL; p++)
        n++;
    return n;
}

nfy_str nfy_resolve_dotted_head(nfy_str s, uint32_t n)
{
    if (n == 0)
        return nfy_str_slice(s, 0, 0);
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] == '.' && --n == 0)
            return nfy_str_slice(s, 0, i);
    }
    return s;
}

/* Token text without the call into pysyn (t is always in range here;
 * out of range gives "" like nfy_pysyn_tok_text). */
static inline nfy_str tok_text(const nfy_pysyn *m, uint32_t t)
{
    if (t >= m->ntoks)
        return (nfy_str){"", 0};
    const nfy_token *k = &m->toks[t];
    return (nfy_str){m->src->data + k->start, k->end - k->start};
}

uint32_t nfy_resolve_lookup(const nfy_resolution *r, uint32_t scope,
                            uint32_t tok, nfy_str name)
{
    return nfy__resolve_lookup(r->syn, r->index, scope, tok, name,
                               nfy__resolve_name_hash(name));
}

/* ---- Qualified names of bindings ----------------------------------------- */

static nfy_str import_qual(const nfy_pysyn *m, const nfy_import_name *in,
                           uint32_t *head)
{
    const nfy_import *imp = &m->imports[in->import];
    nfy_str q;
    if (imp->flags & NFY_IMPF_FROM)
        q = in->target;
    else if (in->asname.len > 0)
        q = in->name;
    else
        q = nfy_resolve_dotted_head(in->name, 1);
    if (q.len == 0)
        q = in->target;
    *head = nfy_resolve_dotted_count(q);
    return q;
}

static void resolve_use_at(nfy_resolution *r, uint32_t u, unsigned depth);

/* The single name use that makes up a binding's whole value, or NONE. */
static uint32_t value_chain_use(const nfy_pysyn *m, const nfy_binding *b)
{
    if (b->value_first == NFY_NONE || b->value_end <= b->value_first ||
        b->value_end > m->ntoks)
        return NFY_NONE;
    if (m->toks[b->value_first].kind != NFY_TOK_NAME ||
        m->toks[b->value_end - 1].kind != NFY_TOK_NAME)
        return NFY_NONE; /* a chain starts and ends with a NAME */
    uint32_t u = nfy_pysyn_use_at(m, b->value_first);
    if (u == NFY_NONE || m->uses[u].ctx != NFY_CTX_LOAD)
        return NFY_NONE;
    return m->uses[u].chain_end + 1 == b->value_end ? u : NFY_NONE;
}

static void bind_compute(nfy_resolution *r, uint32_t bi, unsigned depth)
{
    res_index *ix = r->index;
    const nfy_pysyn *m = r->syn;
    if (ix->state[bi] != BS_TODO)
        return;
    ix->state[bi] = BS_BUSY;
    const nfy_binding *b = &m->bindings[bi];
    uint32_t head = 0;
    if (b->kind == NFY_BIND_IMPORT && b->import_name != NFY_NONE &&
        b->import_name < m->nimport_names) {
        r->bind_qual[bi] =
            import_qual(m, &m->import_names[b->import_name], &head);
        r->bind_import[bi] = b->import_name;
    } else if (b->kind == NFY_BIND_ASSIGN && depth < ALIAS_DEPTH_MAX) {
        uint32_t u = value_chain_use(m, b);
        if (u != NFY_NONE) {
            resolve_use_at(r, u, depth + 1);
            if (r->uses[u].qual.len > 0) {
                r->bind_qual[bi] = r->uses[u].qual;
                r->bind_import[bi] = r->uses[u].import_name;
                head = nfy_resolve_dotted_count(r->uses[u].qual);
            }
        }
    }
    r->bind_head[bi] = (uint16_t)(head > UINT16_MAX ? UINT16_MAX : head);
    ix->state[bi] = BS_DONE;
}

/* ---- Name uses ------------------------------------------------------------
 */

static nfy_str join_rest(nfy_arena *a, nfy_str base, nfy_str chain)
{
    ptrdiff_t dot = nfy_str_find_char(chain, '.');
    if (dot < 0)
        return base;
    nfy_str rest = nfy_str_slice(chain, (size_t)dot, chain.len);
    char *p = nfy_arena_alloc(a, base.len + rest.len + 1);
    memcpy(p, base.ptr, base.len);
    memcpy(p + base.len, rest.ptr, rest.len);
    p[base.len + rest.len] = '\0';
    return (nfy_str){p, base.len + rest.len};
}

/*
 * `from nerf.utils import *` then `torch.cuda.amp.autocast()`: an unbound
 * `torch` in a file with a star import is the torch module the star import
 * brings (project modules re-export their imports that way).
 */
static void star_torch(nfy_resolution *r, res_index *ix, uint32_t u)
{
    const nfy_pysyn *m = r->syn;
    const nfy_name_use *use = &m->uses[u];
    if (use->ctx != NFY_CTX_LOAD ||
        !nfy_str_eq(tok_text(m, use->tok), NFY_STR_LIT("torch")))
        return;
    for (uint32_t i = 0; i < m->nimports; i++) {
        if (m->imports[i].flags & NFY_IMPF_STAR) {
            nfy_res *res = &r->uses[u];
            res->kind = NFY_RES_IMPORT;
            res->head_parts = 1;
            res->qual = nfy_pysyn_dotted(m, ix->arena, use, 0);
            return;
        }
    }
}

static void resolve_use_at(nfy_resolution *r, uint32_t u, unsigned depth)
{
    const nfy_pysyn *m = r->syn;
    res_index *ix = r->index;
    nfy_res *res = &r->uses[u];
    if (res->binding != NFY_NONE || res->kind != NFY_RES_UNBOUND)
        return;
    const nfy_name_use *use = &m->uses[u];
    uint32_t b = ix->use_binding[u];
    if (b == NFY_NONE) {
        star_torch(r, ix, u);
        return;
    }
    res->binding = b;
    res->kind = NFY_RES_LOCAL;
    if (depth < ALIAS_DEPTH_MAX && ix->state[b] == BS_TODO)
        bind_compute(r, b, depth);
    if (r->bind_qual[b].len == 0)
        return;
    res->kind =
        m->bindings[b].kind == NFY_BIND_IMPORT ? NFY_RES_IMPORT : NFY_RES_ALIAS;
    res->head_parts = r->bind_head[b];
    res->import_name = r->bind_import[b];
    res->relative = r->bind_qual[b].ptr[0] == '.';
    if (use->chain_end == use->tok) { /* one name: the binding's own */
        res->qual = r->bind_qual[b];
        return;
    }
    nfy_str chain = nfy_pysyn_dotted(m, ix->arena, use, 0);
    res->qual = join_rest(ix->arena, r->bind_qual[b], chain);
}

nfy_status nfy_resolve_resolve(const nfy_pysyn *syn, nfy_arena *arena,
                               nfy_resolution **out)
{
    nfy_resolution *r = nfy_arena_calloc(arena, 1, sizeof *r);
    res_index *ix = nfy_arena_calloc(arena, 1, sizeof *ix);
    uint32_t nb = syn->nbindings, nu = syn->nuses;
    nfy_str empty = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    r->syn = syn;
    r->index = ix;
    ix->arena = arena;
    r->uses = nfy_arena_alloc(arena, (nu ? nu : 1) * sizeof *r->uses);
    r->bind_qual = nfy_arena_alloc(arena, (nb ? nb : 1) * sizeof(nfy_str));
    r->bind_head = nfy_arena_calloc(arena, nb ? nb : 1, sizeof(uint16_t));
    r->bind_import = nfy_arena_alloc(arena, (nb ? nb : 1) * sizeof(uint32_t));
    ix->state = nfy_arena_calloc(arena, nb ? nb : 1, 1);
    for (uint32_t i = 0; i < nb; i++) {
        r->bind_import[i] = NFY_NONE;
        r->bind_qual[i] = empty;
    }
    nfy__resolve_index_build(syn, ix);
    ix->use_binding = nfy_arena_alloc(arena, (nu ? nu : 1) * sizeof(uint32_t));
    nfy__resolve_bind_uses(syn, ix, ix->use_binding);
    for (uint32_t u = 0; u < nu; u++)
        r->uses[u] =
            (nfy_res){NFY_RES_UNBOUND, 0, NFY_NONE, NFY_NONE, false, empty};
    for (uint32_t u = 0; u < nu; u++) {
        nfy_res *res = &r->uses[u];
        uint32_t b = ix->use_binding[u];
        if (b != NFY_NONE && ix->state[b] == BS_DONE &&
            r->bind_qual[b].len == 0 && res->binding == NFY_NONE &&
            res->kind == NFY_RES_UNBOUND) { /* a local seen before */
            res->binding = b;
            res->kind = NFY_RES_LOCAL;
            continue;
        }
        resolve_use_at(r, u, 0);
    }
    for (uint32_t b = 0; b < nb; b++) /* also bindings no use reached */
        if (ix->state[b] == BS_TODO)
            bind_compute(r, b, 0);
    nfy__resolve_self_attrs(r, arena);
    *out = r;
    return NFY_OK;
}

const uint32_t *nfy_resolve_same_name(const nfy_resolution *r, uint32_t b,
                                      uint32_t *n)
{
    const res_index *ix = r->index;
    const nfy__res_group *g = &ix->groups[ix->group_of[b]];
    *n = g->hi - g->lo;
    return ix->order + g->lo;
}

nfy_str nfy_resolve_prefix(const nfy_resolution *r, uint32_t u, uint32_t nparts)
{
    const nfy_res *res = &r->uses[u];
    if (res->qual.len == 0 || nparts == 0)
        return nfy_str_slice(res->qual, 0, 0);
    /* `self` of a self.attr alias stands for no qualified name itself */
    if (nparts == 1 && res->kind == NFY_RES_ALIAS &&
        res->binding < r->syn->nbindings &&
        r->syn->bindings[res->binding].kind == NFY_BIND_PARAM)
        return nfy_str_slice(res->qual, 0, 0);
    return nfy_resolve_dotted_head(res->qual, res->head_parts + nparts - 1);
}

/* Number of chain names of use u before token t. */
static uint32_t names_before(const nfy_pysyn *m, uint32_t u, uint32_t t)
{
    uint32_t n = 0;
    for (uint32_t i = m->uses[u].tok; i < t && i < m->ntoks; i++)
        n += m->toks[i].kind == NFY_TOK_NAME;
    return n;
}

nfy_str nfy_resolve_attr_receiver(const nfy_resolution *r, uint32_t attr_tok)
{
    const nfy_pysyn *m = r->syn;
    const res_index *ix = r->index;
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    uint32_t at = nfy__resolve_attr_at(m, ix, attr_tok);
    if (at == NFY_NONE)
        return none;
    uint32_t u = m->attrs[at].use;
    if (u == NFY_NONE || u >= m->nuses)
        return none;
    const nfy_res *res = &r->uses[u];
    if (res->kind != NFY_RES_IMPORT && res->kind != NFY_RES_ALIAS)
        return none;
    uint32_t n = names_before(m, u, attr_tok);
    return n >= 1 ? nfy_resolve_prefix(r, u, n) : none;
}

bool nfy_resolve_attr_on_import(const nfy_resolution *r, uint32_t attr_tok)
{
    return nfy_resolve_attr_receiver(r, attr_tok).len > 0;
}

static bool module_fits(nfy_str name, const char *module)
{
    nfy_str mod = nfy_str_from_cstr(module);
    if (!nfy_str_starts_with(name, mod))
        return false;
    return name.len == mod.len || name.ptr[mod.len] == '.';
}

bool nfy_resolve_imports_module(const nfy_resolution *r, const char *module)
{
    const nfy_pysyn *m = r->syn;
    for (uint32_t i = 0; i < m->nimport_names; i++) {
        const nfy_import_name *in = &m->import_names[i];
        const nfy_import *imp = &m->imports[in->import];
        if (!(imp->flags & NFY_IMPF_FROM)) {
            if (module_fits(in->name, module))
                return true;
            continue;
        }
        if (imp->level != 0)
            continue;
        if (module_fits(imp->module, module) || module_fits(in->target, module))
            return true;
    }
    for (uint32_t i = 0; i < m->nimports; i++) {
        const nfy_import *imp = &m->imports[i];
        if ((imp->flags & NFY_IMPF_STAR) && imp->level == 0 &&
            module_fits(imp->module, module))
            return true;
    }
    return false;
}
