/*
 * Module-valued instance attributes. Code that keeps a module on the
 * instance (`import torch; self.torch = torch`, as transformers'
 * TrainerMemoryTracker does) and later calls `self.torch.cuda.X()` would
 * otherwise hide the CUDA call behind a parameter. For every class, the
 * attributes set through the first parameter of its methods are collected;
 * an attribute whose assignments all store the same resolved dotted name
 * (None aside) becomes an alias of it, and every chain self.attr.rest in
 * the class's methods (also in functions nested in them) resolves through
 * it. Anything else assigned to the attribute, or a tuple target, makes
 * it unknown again. See resolve_internal.h for the encoding.
 */
#include <string.h>

#include "resolve/resolve_internal.h"

typedef struct {
    uint32_t scope; /* the class scope */
    nfy_str name;   /* attribute name */
    nfy_str qual;   /* what it holds; empty once in conflict */
    uint32_t import_name;
    bool conflict;
} self_attr;

typedef NFY_VEC(self_attr) self_attr_vec;

static bool is_staticmethod(const nfy_pysyn *m, uint32_t def)
{
    const nfy_stmt *st = &m->stmts[def];
    for (uint32_t d = 0; d < st->ndecos && st->deco_first != NFY_NONE; d++) {
        const nfy_stmt *deco = &m->stmts[st->deco_first + d];
        if (nfy_pysyn_tok_is(m, deco->first + 1, "staticmethod"))
            return true;
    }
    return false;
}

/* Per scope: its first PARAM binding, or NONE (one pass, in order). */
static uint32_t *first_params(const nfy_pysyn *m, nfy_arena *arena)
{
    uint32_t *fp =
        nfy_arena_alloc(arena, (m->nscopes ? m->nscopes : 1) * sizeof *fp);
    for (uint32_t s = 0; s < m->nscopes; s++)
        fp[s] = NFY_NONE;
    for (uint32_t b = 0; b < m->nbindings; b++) {
        const nfy_binding *bd = &m->bindings[b];
        if (bd->kind == NFY_BIND_PARAM && bd->scope < m->nscopes &&
            fp[bd->scope] == NFY_NONE)
            fp[bd->scope] = b;
    }
    return fp;
}

/* The class scope whose method binds b as its first parameter, or NONE. */
static uint32_t method_class(const nfy_pysyn *m, const uint32_t *fp, uint32_t b)
{
    if (b == NFY_NONE || b >= m->nbindings)
        return NFY_NONE;
    const nfy_binding *bd = &m->bindings[b];
    if (bd->kind != NFY_BIND_PARAM || bd->scope >= m->nscopes ||
        fp[bd->scope] != b)
        return NFY_NONE;
    const nfy_scope *fn = &m->scopes[bd->scope];
    if (fn->kind != NFY_SCOPE_FUNCTION || fn->parent == NFY_NONE ||
        m->scopes[fn->parent].kind != NFY_SCOPE_CLASS)
        return NFY_NONE;
    if (fn->stmt != NFY_NONE && fn->stmt < m->nstmts &&
        is_staticmethod(m, fn->stmt))
        return NFY_NONE;
    return fn->parent;
}

static self_attr *find_attr(self_attr_vec *v, uint32_t scope, nfy_str name)
{
    for (size_t i = 0; i < v->len; i++) {
        self_attr *a = &v->items[i];
        if (a->scope == scope && a->name.len == name.len &&
            memcmp(a->name.ptr, name.ptr, name.len) == 0)
            return a;
    }
    return NULL;
}

/* The second NAME of use u's chain (its first attribute). */
static uint32_t attr_tok_of(const nfy_pysyn *m, const nfy_name_use *use)
{
    for (uint32_t t = use->tok + 1; t <= use->chain_end && t < m->ntoks; t++) {
        if (m->toks[t].kind == NFY_TOK_NAME)
            return t;
    }
    return NFY_NONE;
}

/* What `self.attr = value` stores: the resolved name of a whole-value
 * chain; empty for None (*none set) and for anything else. */
static nfy_str stored_qual(const nfy_resolution *r, const nfy_stmt *st,
                           bool *none, uint32_t *import_name)
{
    const nfy_pysyn *m = r->syn;
    nfy_str empty = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    *none = false;
    if (st->value_first == NFY_NONE || st->value_end <= st->value_first)
        return empty;
    if (st->value_end == st->value_first + 1 &&
        nfy_pysyn_tok_is(m, st->value_first, "None")) {
        *none = true;
        return empty;
    }
    uint32_t u = nfy_pysyn_use_at(m, st->value_first);
    if (u == NFY_NONE || m->uses[u].ctx != NFY_CTX_LOAD ||
        m->uses[u].chain_end + 1 != st->value_end)
        return empty;
    const nfy_res *res = &r->uses[u];
    if ((res->kind != NFY_RES_IMPORT && res->kind != NFY_RES_ALIAS) ||
        res->relative)
        return empty;
    *import_name = res->import_name;
    return res->qual;
}

/*
 * If use u (a self.attr chain of class cls) is an assignment target,
 * record it: with module_only, only stores of a resolved name (adding or
 * confirming an entry); else only stores of anything else, which put an
 * existing entry in conflict.
 */
static void note_store(const nfy_resolution *r, uint32_t u, uint32_t cls,
                       bool module_only, self_attr_vec *v)
{
    const nfy_pysyn *m = r->syn;
    const nfy_name_use *use = &m->uses[u];
    uint32_t next = use->chain_end + 1;
    if (use->nparts != 2 || next >= m->ntoks ||
        m->toks[next].kind != NFY_TOK_OP || use->stmt >= m->nstmts)
        return;
    uint32_t op = m->toks[next].op;
    const nfy_stmt *st = &m->stmts[use->stmt];
    bool target = op == NFY_OP_EQUAL || op == NFY_OP_COMMA ||
                  (op == NFY_OP_COLON && st->kind == NFY_STMT_ANNASSIGN);
    if (!target)
        return;
    nfy_str name = nfy_pysyn_tok_text(m, attr_tok_of(m, use));
    bool none = false;
    uint32_t imp = NFY_NONE;
    nfy_str q = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    if ((st->kind == NFY_STMT_ASSIGN || st->kind == NFY_STMT_ANNASSIGN) &&
        st->first == use->tok && op != NFY_OP_COMMA)
        q = stored_qual(r, st, &none, &imp);
    if (none || (q.len > 0) != module_only)
        return;
    self_attr *a = find_attr(v, cls, name);
    if (a == NULL) {
        if (module_only) {
            self_attr fresh = {cls, name, q, imp, false};
            nfy_vec_push(v, fresh);
        }
        return;
    }
    if (!module_only || a->qual.len != q.len ||
        memcmp(a->qual.ptr, q.ptr, q.len) != 0)
        a->conflict = true;
}

/* qual + the chain of use after its first two names. */
static nfy_str join_tail(nfy_arena *a, const nfy_pysyn *m,
                         const nfy_name_use *use, nfy_str qual)
{
    nfy_str chain = nfy_pysyn_dotted(m, a, use, 0);
    size_t dots = 0, at = chain.len;
    for (size_t i = 0; i < chain.len; i++) {
        if (chain.ptr[i] == '.' && ++dots == 2) {
            at = i;
            break;
        }
    }
    size_t rest = chain.len - at;
    char *p = nfy_arena_alloc(a, qual.len + rest + 1);
    memcpy(p, qual.ptr, qual.len);
    memcpy(p + qual.len, chain.ptr + at, rest);
    p[qual.len + rest] = '\0';
    return (nfy_str){p, qual.len + rest};
}

void nfy__resolve_self_attrs(nfy_resolution *r, nfy_arena *arena)
{
    const nfy_pysyn *m = r->syn;
    self_attr_vec v = {0};
    uint32_t *fp = first_params(m, arena);
    uint32_t *cls =
        nfy_arena_alloc(arena, (m->nuses ? m->nuses : 1) * sizeof *cls);
    for (uint32_t u = 0; u < m->nuses; u++) {
        const nfy_res *res = &r->uses[u];
        cls[u] = m->uses[u].nparts >= 2 && res->kind == NFY_RES_LOCAL
                     ? method_class(m, fp, res->binding)
                     : NFY_NONE;
        if (cls[u] != NFY_NONE)
            note_store(r, u, cls[u], true, &v);
    }
    for (uint32_t u = 0; u < m->nuses && v.len > 0; u++) {
        if (cls[u] != NFY_NONE)
            note_store(r, u, cls[u], false, &v);
    }
    for (uint32_t u = 0; u < m->nuses && v.len > 0; u++) {
        if (cls[u] == NFY_NONE)
            continue;
        const nfy_name_use *use = &m->uses[u];
        self_attr *a =
            find_attr(&v, cls[u], nfy_pysyn_tok_text(m, attr_tok_of(m, use)));
        if (a == NULL || a->conflict)
            continue;
        nfy_res *res = &r->uses[u];
        uint32_t n = nfy_resolve_dotted_count(a->qual);
        res->kind = NFY_RES_ALIAS;
        res->head_parts = (uint16_t)(n > UINT16_MAX ? UINT16_MAX : n - 1);
        res->import_name = a->import_name;
        res->relative = false;
        res->qual = join_tail(arena, m, use, a->qual);
    }
    nfy_vec_free(&v);
}
