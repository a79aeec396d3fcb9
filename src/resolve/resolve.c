/*
 * Name resolution over the pysyn structure: per-scope binding tables sorted
 * by (scope, name, token), a scope walk with Python's visibility rules, and
 * a memoised qualified name per binding (imports and dotted aliases).
 * See src/resolve/resolve.h for the rules; this file only implements
 * them. What the result keeps is in the caller's arena; the sort's
 * scratch is malloc'd and freed before nfy_resolve returns.
 */
#include "resolve/resolve.h"

#include <stdlib.h>
#include <string.h>

#include "resolve/resolve_internal.h"

/* Aliases of aliases are followed this deep; deeper chains stay unknown. */
#define ALIAS_DEPTH_MAX 16

enum bind_state { BS_TODO, BS_BUSY, BS_DONE };

/* One run of order[] with the same (scope, name), found by hash. */
typedef struct {
    uint32_t lo, hi; /* range in order[] */
    uint32_t scope;
    uint32_t hash; /* name_hash of the name */
    bool global, nonlocal, any_import;
} name_group;

typedef struct {
    uint32_t *order;    /* binding indices sorted by (scope, name, tok) */
    name_group *groups; /* the runs of order[], in order */
    uint32_t *slots;    /* open addressing: group index + 1, 0 when empty */
    uint32_t mask;      /* slots has mask + 1 entries (a power of two) */
    uint8_t *state;     /* per binding: enum bind_state */
    uint32_t *tok_attr; /* per token: attr index whose name it is, or NONE */
    uint32_t *globals;  /* value bindings made under a `global` declaration */
    uint32_t nglobals;
    nfy_arena *arena;
} res_index;

const char *nfy_res_kind_name(nfy_res_kind k)
{
    static const char *const names[] = {"unbound", "local", "import", "alias"};
    return (unsigned)k < 4 ? names[k] : "?";
}

uint32_t nfy_dotted_count(nfy_str s)
{
    if (s.len == 0)
        return 0;
    uint32_t n = 1;
    for (size_t i = 0; i < s.len; i++)
        n += s.ptr[i] == '.';
    return n;
}

nfy_str nfy_dotted_head(nfy_str s, uint32_t n)
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

static inline bool text_eq(nfy_str a, nfy_str b)
{
    return a.len == b.len && (a.len == 0 || !memcmp(a.ptr, b.ptr, a.len));
}

static inline int text_cmp(nfy_str a, nfy_str b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c)
        return c;
    return (a.len > b.len) - (a.len < b.len);
}

/* Hash of a name from its length and its first and last 8 bytes (names
 * are short; equal names always hash equal, and a collision only costs
 * a comparison). */
static uint32_t name_hash(nfy_str s)
{
    uint64_t a = 0, b = 0;
    if (s.len >= 8) {
        memcpy(&a, s.ptr, sizeof a);
        memcpy(&b, s.ptr + s.len - 8, sizeof b);
    } else {
        for (size_t i = 0; i < s.len; i++)
            a = a << 8 | (unsigned char)s.ptr[i];
    }
    uint64_t h = (a ^ (b << 29 | b >> 35) ^ s.len) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32);
}

static inline uint32_t slot_of(uint32_t hash, uint32_t scope, uint32_t mask)
{
    return (hash ^ (scope * 0x9E3779B1u)) & mask;
}

/* ---- Sorting bindings ---------------------------------------------------- */

/*
 * Order of bindings: by (scope, name hash), then name, token and index.
 * Only the runs of one (scope, name) and their order inside matter (the
 * runs are found by hash), so the hash comes before the text: most
 * comparisons end on the precomputed key without reading the names.
 */
static int bind_cmp(const nfy_pysyn *m, const uint64_t *key, uint32_t a,
                    uint32_t b)
{
    if (key[a] != key[b])
        return key[a] < key[b] ? -1 : 1;
    const nfy_binding *x = &m->bindings[a], *y = &m->bindings[b];
    int c = text_cmp(tok_text(m, x->tok), tok_text(m, y->tok));
    if (c != 0)
        return c;
    if (x->tok != y->tok)
        return x->tok < y->tok ? -1 : 1;
    return a < b ? -1 : (a > b);
}

/* Bottom-up merge sort (no recursion, stable); tmp has n entries, key
 * the (scope, name hash) of each binding. */
static void sort_bindings(const nfy_pysyn *m, const uint64_t *key, uint32_t *v,
                          uint32_t *tmp, uint32_t n)
{
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = bind_cmp(m, key, v[i], v[j]) <= 0 ? v[i++] : v[j++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* The sort's keys and merge buffer are scratch, freed here. */
static void sort_by_scope_and_name(const nfy_pysyn *m, uint32_t *order,
                                   uint32_t nb)
{
    size_t n = nb ? nb : 1;
    uint64_t *key = malloc(n * (sizeof *key + sizeof *order));
    if (!key)
        abort();
    uint32_t *tmp = (uint32_t *)(key + n);
    for (uint32_t i = 0; i < nb; i++)
        key[i] = (uint64_t)m->bindings[i].scope << 32 |
                 name_hash(tok_text(m, m->bindings[i].tok));
    sort_bindings(m, key, order, tmp, nb);
    free(key);
}

/* ---- Choosing a binding inside one scope --------------------------------- */

static bool is_value_binding(const nfy_binding *b)
{
    return b->kind != NFY_BIND_GLOBAL && b->kind != NFY_BIND_NONLOCAL &&
           b->kind != NFY_BIND_DEL;
}

/* `x = None`: a placeholder that must not hide an import of x. */
static bool is_none_assign(const nfy_pysyn *m, const nfy_binding *b)
{
    return b->kind == NFY_BIND_ASSIGN && b->value_first != NFY_NONE &&
           b->value_end == b->value_first + 1 &&
           nfy_pysyn_tok_is(m, b->value_first, "None");
}

typedef name_group scope_hits;

/* The bindings of name (hash: name_hash(name)) in scope: an empty range
 * when there are none. */
static scope_hits scope_find(const nfy_pysyn *m, const res_index *ix,
                             uint32_t scope, nfy_str name, uint32_t hash)
{
    for (uint32_t i = slot_of(hash, scope, ix->mask);; i = (i + 1) & ix->mask) {
        uint32_t g = ix->slots[i];
        if (g == 0)
            break;
        const name_group *h = &ix->groups[g - 1];
        if (h->hash == hash && h->scope == scope &&
            text_eq(tok_text(m, m->bindings[ix->order[h->lo]].tok), name))
            return *h;
    }
    return (scope_hits){0, 0, scope, hash, false, false, false};
}

/* Cut the sorted order[] into (scope, name) runs and hash them. */
static void build_groups(const nfy_pysyn *m, res_index *ix)
{
    uint32_t nb = m->nbindings, ng = 0, cap = 1;
    /* room for one group a binding, trimmed to the groups found */
    name_group *groups = nfy_arena_grow(NULL, (nb ? nb : 1) * sizeof *groups);
    for (uint32_t i = 0; i < nb;) {
        const nfy_binding *b = &m->bindings[ix->order[i]];
        nfy_str name = tok_text(m, b->tok);
        name_group g = {i, i, b->scope, name_hash(name), false, false, false};
        for (; g.hi < nb; g.hi++) {
            const nfy_binding *x = &m->bindings[ix->order[g.hi]];
            if (x->scope != g.scope || !text_eq(tok_text(m, x->tok), name))
                break;
            g.global |= x->kind == NFY_BIND_GLOBAL;
            g.nonlocal |= x->kind == NFY_BIND_NONLOCAL;
            g.any_import |= x->kind == NFY_BIND_IMPORT;
        }
        groups[ng++] = g;
        i = g.hi;
    }
    ix->groups = nfy_arena_adopt(ix->arena, groups, ng * sizeof *groups);
    while (cap < 2 * ng + 2)
        cap *= 2;
    ix->mask = cap - 1;
    ix->slots = nfy_arena_calloc(ix->arena, cap, sizeof *ix->slots);
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t i = slot_of(ix->groups[g].hash, ix->groups[g].scope, ix->mask);
        while (ix->slots[i] != 0)
            i = (i + 1) & ix->mask;
        ix->slots[i] = g + 1;
    }
}

static uint32_t scope_pick(const nfy_pysyn *m, const uint32_t *order,
                           const scope_hits *h, uint32_t tok)
{
    uint32_t before = NFY_NONE, after = NFY_NONE, imp = NFY_NONE;
    for (uint32_t i = h->lo; i < h->hi; i++) {
        uint32_t bi = order[i];
        const nfy_binding *b = &m->bindings[bi];
        if (!is_value_binding(b))
            continue;
        if (b->kind == NFY_BIND_IMPORT && (imp == NFY_NONE || b->tok < tok))
            imp = bi;
        if (h->any_import && is_none_assign(m, b))
            continue;
        if (b->tok < tok)
            before = bi;
        else if (after == NFY_NONE)
            after = bi;
    }
    if (before != NFY_NONE)
        return before;
    return after != NFY_NONE ? after : imp;
}

/* ---- Scope walk -----------------------------------------------------------
 */

static uint32_t enclosing_function(const nfy_pysyn *m, uint32_t s)
{
    for (s = m->scopes[s].parent; s != NFY_NONE; s = m->scopes[s].parent) {
        if (m->scopes[s].kind != NFY_SCOPE_CLASS)
            return s;
    }
    return NFY_NONE;
}

static uint32_t lookup_global_decl(const nfy_pysyn *m, const res_index *ix,
                                   uint32_t tok, nfy_str name);

static uint32_t lookup(const nfy_pysyn *m, const res_index *ix, uint32_t scope,
                       uint32_t tok, nfy_str name, uint32_t hash)
{
    bool first = true;
    for (uint32_t s = scope; s != NFY_NONE && s < m->nscopes;) {
        if (!first && m->scopes[s].kind == NFY_SCOPE_CLASS) {
            s = m->scopes[s].parent;
            continue;
        }
        scope_hits h = scope_find(m, ix, s, name, hash);
        if (h.global && s != 0) {
            uint32_t b = lookup(m, ix, 0, tok, name, hash);
            return b != NFY_NONE ? b : lookup_global_decl(m, ix, tok, name);
        }
        if (h.nonlocal) {
            s = enclosing_function(m, s);
            first = false;
            continue;
        }
        uint32_t b = scope_pick(m, ix->order, &h, tok);
        if (b != NFY_NONE)
            return b;
        s = m->scopes[s].parent;
        first = false;
    }
    return ix->nglobals ? lookup_global_decl(m, ix, tok, name) : NFY_NONE;
}

/* A module name bound inside a function that declared it global. */
static uint32_t lookup_global_decl(const nfy_pysyn *m, const res_index *ix,
                                   uint32_t tok, nfy_str name)
{
    uint32_t best = NFY_NONE;
    for (uint32_t i = 0; i < ix->nglobals; i++) {
        const nfy_binding *b = &m->bindings[ix->globals[i]];
        if (!text_eq(tok_text(m, b->tok), name))
            continue;
        if (best == NFY_NONE ||
            (b->tok < tok && b->tok > m->bindings[best].tok))
            best = ix->globals[i];
    }
    return best;
}

static void collect_globals(const nfy_pysyn *m, res_index *ix)
{
    uint32_t n = 0;
    ix->globals = nfy_arena_alloc(ix->arena, (m->nbindings ? m->nbindings : 1) *
                                                 sizeof(uint32_t));
    for (uint32_t g = 0; g < m->nbindings; g++) {
        const nfy_binding *gb = &m->bindings[g];
        if (gb->kind != NFY_BIND_GLOBAL || gb->scope == 0)
            continue;
        nfy_str name = tok_text(m, gb->tok);
        scope_hits h = scope_find(m, ix, gb->scope, name, name_hash(name));
        for (uint32_t i = h.lo; i < h.hi; i++) {
            if (is_value_binding(&m->bindings[ix->order[i]]))
                ix->globals[n++] = ix->order[i];
        }
    }
    ix->nglobals = n;
}

uint32_t nfy_resolve_lookup(const nfy_resolution *r, uint32_t scope,
                            uint32_t tok, nfy_str name)
{
    return lookup(r->syn, r->index, scope, tok, name, name_hash(name));
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
        q = nfy_dotted_head(in->name, 1);
    if (q.len == 0)
        q = in->target;
    *head = nfy_dotted_count(q);
    return q;
}

static void resolve_use_at(nfy_resolution *r, uint32_t u, unsigned depth);

/* The single name use that makes up a binding's whole value, or NONE. */
static uint32_t value_chain_use(const nfy_pysyn *m, const nfy_binding *b)
{
    if (b->value_first == NFY_NONE || b->value_end <= b->value_first)
        return NFY_NONE;
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
                head = nfy_dotted_count(r->uses[u].qual);
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

/* Sentinel for "being resolved" on uses: head_parts is never this high. */
#define USE_BUSY UINT16_MAX

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
    if (res->binding != NFY_NONE || res->kind != NFY_RES_UNBOUND ||
        res->head_parts == USE_BUSY)
        return;
    const nfy_name_use *use = &m->uses[u];
    res->head_parts = USE_BUSY;
    uint32_t b = use->binding;
    if (use->ctx == NFY_CTX_LOAD || b == NFY_NONE) {
        nfy_str name = tok_text(m, use->tok);
        b = lookup(m, ix, use->scope, use->tok, name, name_hash(name));
    }
    res->head_parts = 0;
    if (b == NFY_NONE) {
        star_torch(r, ix, u);
        return;
    }
    res->binding = b;
    res->kind = NFY_RES_LOCAL;
    if (depth < ALIAS_DEPTH_MAX)
        bind_compute(r, b, depth);
    if (r->bind_qual[b].len == 0)
        return;
    res->kind =
        m->bindings[b].kind == NFY_BIND_IMPORT ? NFY_RES_IMPORT : NFY_RES_ALIAS;
    res->head_parts = r->bind_head[b];
    res->import_name = r->bind_import[b];
    res->relative = r->bind_qual[b].ptr[0] == '.';
    nfy_str chain = nfy_pysyn_dotted(m, ix->arena, use, 0);
    res->qual = join_rest(ix->arena, r->bind_qual[b], chain);
}

static void build_attr_index(const nfy_pysyn *m, res_index *ix)
{
    ix->tok_attr = nfy_arena_alloc(ix->arena, (m->ntoks ? m->ntoks : 1) *
                                                  sizeof(uint32_t));
    for (uint32_t t = 0; t < m->ntoks; t++)
        ix->tok_attr[t] = NFY_NONE;
    for (uint32_t i = 0; i < m->nattrs; i++) {
        if (m->attrs[i].name_tok < m->ntoks)
            ix->tok_attr[m->attrs[i].name_tok] = i;
    }
}

nfy_status nfy_resolve(const nfy_pysyn *syn, nfy_arena *arena,
                       nfy_resolution **out)
{
    nfy_resolution *r = nfy_arena_calloc(arena, 1, sizeof *r);
    res_index *ix = nfy_arena_calloc(arena, 1, sizeof *ix);
    uint32_t nb = syn->nbindings;
    r->syn = syn;
    r->index = ix;
    ix->arena = arena;
    r->uses =
        nfy_arena_calloc(arena, syn->nuses ? syn->nuses : 1, sizeof *r->uses);
    r->bind_qual = nfy_arena_calloc(arena, nb ? nb : 1, sizeof(nfy_str));
    r->bind_head = nfy_arena_calloc(arena, nb ? nb : 1, sizeof(uint16_t));
    r->bind_import = nfy_arena_calloc(arena, nb ? nb : 1, sizeof(uint32_t));
    ix->state = nfy_arena_calloc(arena, nb ? nb : 1, 1);
    ix->order = nfy_arena_calloc(arena, nb ? nb : 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < nb; i++) {
        ix->order[i] = i;
        r->bind_import[i] = NFY_NONE;
        r->bind_qual[i] = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    }
    sort_by_scope_and_name(syn, ix->order, nb);
    build_groups(syn, ix);
    build_attr_index(syn, ix);
    collect_globals(syn, ix);
    for (uint32_t u = 0; u < syn->nuses; u++) {
        r->uses[u].binding = NFY_NONE;
        r->uses[u].import_name = NFY_NONE;
        r->uses[u].qual = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    }
    for (uint32_t u = 0; u < syn->nuses; u++)
        resolve_use_at(r, u, 0);
    for (uint32_t b = 0; b < nb; b++) /* also bindings no use reached */
        bind_compute(r, b, 0);
    nfy__resolve_self_attrs(r, arena);
    *out = r;
    return NFY_OK;
}

const nfy_res *nfy_resolve_use(const nfy_resolution *r, uint32_t u)
{
    return &r->uses[u];
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
    return nfy_dotted_head(res->qual, res->head_parts + nparts - 1);
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
    if (attr_tok >= m->ntoks || ix->tok_attr[attr_tok] == NFY_NONE)
        return none;
    uint32_t u = m->attrs[ix->tok_attr[attr_tok]].use;
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
