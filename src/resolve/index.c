/*
 * The binding tables of name resolution: the bindings of each (scope,
 * name) as one run of order[] in token order, found by hash, and the scope
 * walk over them with Python's visibility rules (resolve.h). Grouping is
 * one hash pass and a counting placement, not a sort: bindings come in
 * token order nearly always, so a run needs sorting only rarely.
 */
#include <string.h>

#include "core/htab.h"
#include "core/swar.h"
#include "resolve/resolve_internal.h"

/* Token text without the call into pysyn (out of range gives ""). */
static inline nfy_str tok_text(const nfy_pysyn *m, uint32_t t)
{
    if (t >= m->ntoks)
        return (nfy_str){"", 0};
    const nfy_token *k = &m->toks[t];
    return (nfy_str){m->src->data + k->start, k->end - k->start};
}

static inline uint32_t load4(const char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Equal texts, compared in word loads (names are short). */
static inline bool name_eq(nfy_str a, nfy_str b)
{
    size_t n = a.len;
    if (n != b.len)
        return false;
    const char *p = a.ptr, *q = b.ptr;
    if (n >= 8) {
        for (size_t i = 0; i + 8 <= n; i += 8)
            if (nfy__swar_load(p + i) != nfy__swar_load(q + i))
                return false;
        return nfy__swar_load(p + n - 8) == nfy__swar_load(q + n - 8);
    }
    if (n >= 4)
        return load4(p) == load4(q) && load4(p + n - 4) == load4(q + n - 4);
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return false;
    return true;
}

/* From the length and the first and last bytes, in overlapping loads
 * (inline: every binding and every use is hashed). */
static inline uint32_t name_hash(nfy_str s)
{
    const char *p = s.ptr;
    size_t n = s.len;
    uint64_t a = 0, b = 0;
    if (n >= 8) {
        a = nfy__swar_load(p);
        b = nfy__swar_load(p + n - 8);
    } else if (n >= 4) {
        a = load4(p);
        b = load4(p + n - 4);
    } else if (n > 0) {
        a = (unsigned char)p[0] | (unsigned)(unsigned char)p[n / 2] << 8 |
            (unsigned)(unsigned char)p[n - 1] << 16;
    }
    uint64_t h = (a ^ (b << 29 | b >> 35) ^ n) * NFY_HASH_GOLDEN;
    return (uint32_t)(h >> 32);
}

uint32_t nfy__resolve_name_hash(nfy_str s)
{
    return name_hash(s);
}

static inline uint32_t slot_of(uint32_t hash, uint32_t scope, uint32_t mask)
{
    return (hash ^ (scope * 0x9E3779B1u)) & mask;
}

/* The group of name in scope, or NULL. */
static inline const nfy__res_group *group_find(const nfy__res_index *ix,
                                               uint32_t scope, nfy_str name,
                                               uint32_t hash)
{
    for (uint32_t i = slot_of(hash, scope, ix->mask);; i = (i + 1) & ix->mask) {
        uint32_t g = ix->slots[i];
        if (g == 0)
            return NULL;
        const nfy__res_group *h = &ix->groups[g - 1];
        if (h->hash == hash && h->scope == scope && name_eq(h->name, name))
            return h;
    }
}

/* ---- Building ------------------------------------------------------------ */

static bool is_value_binding(const nfy_binding *b)
{
    return b->kind != NFY_BIND_GLOBAL && b->kind != NFY_BIND_NONLOCAL &&
           b->kind != NFY_BIND_DEL;
}

/* Binding a before binding b in a run: by token, then index. */
static bool bind_before(const nfy_pysyn *m, uint32_t a, uint32_t b)
{
    uint32_t ta = m->bindings[a].tok, tb = m->bindings[b].tok;
    return ta != tb ? ta < tb : a < b;
}

/* Insertion sort of one run: linear when (as nearly always) in order. */
static void sort_run(const nfy_pysyn *m, uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = v[i], j = i;
        for (; j > 0 && bind_before(m, x, v[j - 1]); j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Assign every binding its group (gof[i]), counting each group's size in
 * hi; groups get their name, scope and flags. */
static void group_bindings(const nfy_pysyn *m, nfy__res_index *ix,
                           uint32_t *gof)
{
    uint32_t nb = m->nbindings, cap = 16;
    while (cap < 2 * nb + 2)
        cap *= 2;
    ix->mask = cap - 1;
    ix->slots = nfy_arena_calloc(ix->arena, cap, sizeof *ix->slots);
    ix->groups = nfy_arena_alloc(ix->arena, (nb ? nb : 1) * sizeof *ix->groups);
    uint32_t ng = 0;
    for (uint32_t i = 0; i < nb; i++) {
        const nfy_binding *b = &m->bindings[i];
        nfy_str name = tok_text(m, b->tok);
        uint32_t hash = name_hash(name);
        uint32_t s = slot_of(hash, b->scope, ix->mask);
        nfy__res_group *g = NULL;
        for (;; s = (s + 1) & ix->mask) {
            if (ix->slots[s] == 0)
                break;
            g = &ix->groups[ix->slots[s] - 1];
            if (g->hash == hash && g->scope == b->scope &&
                name_eq(g->name, name))
                break;
            g = NULL;
        }
        if (g == NULL) {
            g = &ix->groups[ng];
            *g = (nfy__res_group){0,    0,     b->scope, hash,
                                  name, false, false,    false};
            ix->slots[s] = ++ng;
        }
        gof[i] = (uint32_t)(g - ix->groups);
        g->hi++;
        g->global |= b->kind == NFY_BIND_GLOBAL;
        g->nonlocal |= b->kind == NFY_BIND_NONLOCAL;
        g->any_import |= b->kind == NFY_BIND_IMPORT;
    }
    ix->ngroups = ng;
}

/* Place the bindings of each group as one run of order[], in token order. */
static void place_runs(const nfy_pysyn *m, nfy__res_index *ix,
                       const uint32_t *gof)
{
    uint32_t at = 0;
    for (uint32_t g = 0; g < ix->ngroups; g++) {
        uint32_t n = ix->groups[g].hi;
        ix->groups[g].lo = ix->groups[g].hi = at;
        at += n;
    }
    for (uint32_t i = 0; i < m->nbindings; i++)
        ix->order[ix->groups[gof[i]].hi++] = i;
    for (uint32_t g = 0; g < ix->ngroups; g++) {
        const nfy__res_group *h = &ix->groups[g];
        uint32_t *v = ix->order + h->lo;
        for (uint32_t i = 1; i < h->hi - h->lo; i++)
            if (bind_before(m, v[i], v[i - 1])) {
                sort_run(m, v, h->hi - h->lo);
                break;
            }
    }
}

/* Each group is listed once, however many `global` declarations name it
 * (so the list never holds more than every binding once). */
static void collect_globals(const nfy_pysyn *m, nfy__res_index *ix)
{
    uint32_t n = 0;
    uint8_t *listed = NULL; /* per group */
    ix->globals = NULL;
    for (uint32_t g = 0; g < m->nbindings; g++) {
        const nfy_binding *gb = &m->bindings[g];
        if (gb->kind != NFY_BIND_GLOBAL || gb->scope == 0)
            continue;
        if (ix->globals == NULL) {
            ix->globals =
                nfy_arena_alloc(ix->arena, m->nbindings * sizeof(uint32_t));
            listed =
                nfy_arena_calloc(ix->arena, ix->ngroups ? ix->ngroups : 1, 1);
        }
        nfy_str name = tok_text(m, gb->tok);
        const nfy__res_group *h =
            group_find(ix, gb->scope, name, name_hash(name));
        if (h == NULL || listed[h - ix->groups])
            continue;
        listed[h - ix->groups] = 1;
        for (uint32_t i = h->lo; i < h->hi; i++) {
            if (is_value_binding(&m->bindings[ix->order[i]]))
                ix->globals[n++] = ix->order[i];
        }
    }
    ix->nglobals = n;
}

/* attrs in name_tok order are searched; others get a per-token table. */
static void build_attr_index(const nfy_pysyn *m, nfy__res_index *ix)
{
    ix->tok_attr = NULL;
    bool sorted = true;
    for (uint32_t i = 1; i < m->nattrs && sorted; i++)
        sorted = m->attrs[i - 1].name_tok < m->attrs[i].name_tok;
    if (sorted)
        return;
    ix->tok_attr = nfy_arena_alloc(ix->arena, (m->ntoks ? m->ntoks : 1) *
                                                  sizeof(uint32_t));
    memset(ix->tok_attr, 0xff, (m->ntoks ? m->ntoks : 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < m->nattrs; i++) {
        if (m->attrs[i].name_tok < m->ntoks)
            ix->tok_attr[m->attrs[i].name_tok] = i;
    }
}

uint32_t nfy__resolve_attr_at(const nfy_pysyn *m, const nfy__res_index *ix,
                              uint32_t t)
{
    if (t >= m->ntoks)
        return NFY_NONE;
    if (ix->tok_attr != NULL)
        return ix->tok_attr[t];
    uint32_t lo = 0, hi = m->nattrs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->attrs[mid].name_tok < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->nattrs && m->attrs[lo].name_tok == t ? lo : NFY_NONE;
}

void nfy__resolve_index_build(const nfy_pysyn *m, nfy__res_index *ix)
{
    uint32_t nb = m->nbindings;
    ix->order = nfy_arena_alloc(ix->arena, (nb ? nb : 1) * sizeof *ix->order);
    uint32_t *gof = nfy_arena_alloc(ix->arena, (nb ? nb : 1) * sizeof *gof);
    ix->group_of = gof;
    group_bindings(m, ix, gof);
    place_runs(m, ix, gof);
    build_attr_index(m, ix);
    collect_globals(m, ix);
}

/* ---- Choosing a binding inside one scope --------------------------------- */

/* `x = None`: a placeholder that must not hide an import of x. */
static bool is_none_assign(const nfy_pysyn *m, const nfy_binding *b)
{
    return b->kind == NFY_BIND_ASSIGN && b->value_first != NFY_NONE &&
           b->value_end == b->value_first + 1 &&
           nfy_pysyn_tok_is(m, b->value_first, "None");
}

/* The last value binding before tok, else the first after it; an import
 * stands when only `x = None` placeholders are left. */
static uint32_t scope_pick(const nfy_pysyn *m, const uint32_t *order,
                           const nfy__res_group *h, uint32_t tok)
{
    if (h->hi - h->lo == 1) { /* most names: bound once in their scope */
        uint32_t bi = order[h->lo];
        return is_value_binding(&m->bindings[bi]) ? bi : NFY_NONE;
    }
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

/* ---- Scope walk ---------------------------------------------------------- */

static uint32_t enclosing_function(const nfy_pysyn *m, uint32_t s)
{
    for (s = m->scopes[s].parent; s != NFY_NONE; s = m->scopes[s].parent) {
        if (m->scopes[s].kind != NFY_SCOPE_CLASS)
            return s;
    }
    return NFY_NONE;
}

/* A module name bound inside a function that declared it global. */
static uint32_t lookup_global_decl(const nfy_pysyn *m, const nfy__res_index *ix,
                                   uint32_t tok, nfy_str name)
{
    uint32_t best = NFY_NONE;
    for (uint32_t i = 0; i < ix->nglobals; i++) {
        const nfy_binding *b = &m->bindings[ix->globals[i]];
        if (!name_eq(tok_text(m, b->tok), name))
            continue;
        if (best == NFY_NONE ||
            (b->tok < tok && b->tok > m->bindings[best].tok))
            best = ix->globals[i];
    }
    return best;
}

/* The scope walk. A `global` declaration restarts it at the module (which
 * no `global` sends further); a name bound nowhere may still be a module
 * name bound inside a function under `global`. */
static inline uint32_t lookup_in(const nfy_pysyn *m, const nfy__res_index *ix,
                                 uint32_t scope, uint32_t tok, nfy_str name,
                                 uint32_t hash)
{
    bool first = true;
    for (uint32_t s = scope; s != NFY_NONE && s < m->nscopes;) {
        if (!first && m->scopes[s].kind == NFY_SCOPE_CLASS) {
            s = m->scopes[s].parent;
            continue;
        }
        first = false;
        const nfy__res_group *h = group_find(ix, s, name, hash);
        if (h == NULL) {
            s = m->scopes[s].parent;
            continue;
        }
        if (h->global && s != 0) {
            s = 0;
            continue;
        }
        if (h->nonlocal) {
            s = enclosing_function(m, s);
            continue;
        }
        uint32_t b = scope_pick(m, ix->order, h, tok);
        if (b != NFY_NONE)
            return b;
        s = m->scopes[s].parent;
    }
    return ix->nglobals ? lookup_global_decl(m, ix, tok, name) : NFY_NONE;
}

uint32_t nfy__resolve_lookup(const nfy_pysyn *m, const nfy__res_index *ix,
                             uint32_t scope, uint32_t tok, nfy_str name,
                             uint32_t hash)
{
    return lookup_in(m, ix, scope, tok, name, hash);
}

void nfy__resolve_bind_uses(const nfy_pysyn *m, const nfy__res_index *ix,
                            uint32_t *out)
{
    for (uint32_t u = 0; u < m->nuses; u++) {
        const nfy_name_use *use = &m->uses[u];
        if (use->ctx != NFY_CTX_LOAD && use->binding != NFY_NONE) {
            out[u] = use->binding;
            continue;
        }
        nfy_str name = tok_text(m, use->tok);
        out[u] = lookup_in(m, ix, use->scope, use->tok, name, name_hash(name));
    }
}
