/*
 * Import statements in every form:
 *   import a.b.c [as d], e
 *   from [.]*a.b import x [as y], z
 *   from . import (x as y, z,)
 *   from m import *
 * Each imported name becomes an nfy_import_name and an IMPORT binding in
 * the current scope; the text of paths is normalised (no whitespace or
 * comments) so the resolver can compare strings. Malformed statements keep
 * what was readable and are flagged.
 */
#include <string.h>

#include "pysyn/syn_internal.h"

typedef struct {
    syn *s;
    uint32_t stmt, imp, e;
    uint32_t p;
} cursor;

/* Read NAME ('.' NAME)* at c->p; returns false if there is no NAME. */
static bool dotted(cursor *c, uint32_t *first, uint32_t *end)
{
    syn *s = c->s;
    if (c->p >= c->e || syn_kind(s, c->p) != NFY_TOK_NAME)
        return false;
    *first = c->p++;
    while (c->p + 1 < c->e && syn_is_op(s, c->p, NFY_OP_DOT) &&
           syn_kind(s, c->p + 1) == NFY_TOK_NAME)
        c->p += 2;
    *end = c->p;
    return true;
}

static nfy_str tok_str(const syn *s, uint32_t pos)
{
    const nfy_token *t = syn_tok(s, pos);
    return (nfy_str){s->src->data + t->start, t->end - t->start};
}

/* dots + a + "." + b in the arena (the "." only when a is not empty). */
static nfy_str qualify(syn *s, uint32_t dots, nfy_str a, nfy_str b)
{
    if (!dots && !a.len)
        return b;
    size_t n = dots + a.len + (a.len ? 1 : 0) + b.len;
    char *txt = nfy_arena_alloc(s->arena, n + 1);
    memset(txt, '.', dots);
    size_t at = dots;
    if (a.len) {
        memcpy(txt + at, a.ptr, a.len);
        at += a.len;
        txt[at++] = '.';
    }
    memcpy(txt + at, b.ptr, b.len);
    txt[n] = '\0';
    return (nfy_str){txt, n};
}

static void add_name(cursor *c, uint32_t first, uint32_t end, bool from)
{
    syn *s = c->s;
    nfy_import *imp = &s->imports.items[c->imp];
    nfy_import_name n;
    memset(&n, 0, sizeof n);
    n.import = c->imp;
    n.name_first = s->pos[first].tok;
    n.name_end = s->pos[end - 1].tok + 1;
    n.name = nfy__pysyn_join_dotted(s, first, end);
    n.asname_tok = NFY_NONE;
    uint32_t last = end;
    uint32_t bound = first;
    if (c->p + 1 < c->e && s->pos[c->p].kw == KW_AS &&
        syn_is_ident(s, c->p + 1)) {
        n.asname_tok = s->pos[c->p + 1].tok;
        n.asname = tok_str(s, c->p + 1);
        bound = c->p + 1;
        c->p += 2;
        last = c->p;
    }
    n.bound_tok = s->pos[bound].tok;
    n.bound = tok_str(s, bound);
    if (from) {
        n.target = qualify(s, imp->level, imp->module, n.name);
    } else {
        n.target = n.asname_tok != NFY_NONE ? n.name : n.bound;
    }
    n.span = syn_span(s, first, last);
    n.binding = nfy__pysyn_bind(s, NFY_BIND_IMPORT, bound, imp->scope);
    s->bindings.items[n.binding].import_name = (uint32_t)s->inames.len;
    RES_PUSH(s, &s->inames, n);
    imp->nnames++;
}

static void bad(cursor *c, const char *msg)
{
    syn *s = c->s;
    uint32_t at = c->p < c->e ? c->p : c->e - 1;
    nfy__pysyn_error(s, at, "syn-import", msg);
    s->imports.items[c->imp].flags |= NFY_IMPF_ERROR;
    s->stmts.items[c->stmt].flags |= NFY_STMTF_ERROR;
}

static void plain_import(cursor *c)
{
    for (;;) {
        uint32_t first, end;
        if (!dotted(c, &first, &end)) {
            bad(c, "expected a module name");
            return;
        }
        add_name(c, first, end, false);
        if (c->p == c->e)
            return;
        if (!syn_is_op(c->s, c->p, NFY_OP_COMMA)) {
            bad(c, "expected ',' or the end of the import");
            return;
        }
        c->p++;
    }
}

static uint32_t count_dots(cursor *c)
{
    uint32_t level = 0;
    for (; c->p < c->e; c->p++) {
        if (syn_is_op(c->s, c->p, NFY_OP_DOT))
            level++;
        else if (syn_is_op(c->s, c->p, NFY_OP_ELLIPSIS))
            level += 3;
        else
            break;
    }
    return level;
}

static void from_names(cursor *c)
{
    syn *s = c->s;
    uint32_t e = c->e;
    bool paren = c->p < e && syn_is_op(s, c->p, NFY_OP_LPAR);
    if (paren) {
        if (s->pmatch[c->p] != NFY_NONE)
            e = s->pmatch[c->p];
        c->p++;
    }
    uint32_t saved_e = c->e;
    c->e = e;
    while (c->p < c->e) {
        if (!syn_is_ident(s, c->p)) {
            bad(c, "expected a name to import");
            break;
        }
        c->p++;
        add_name(c, c->p - 1, c->p, true);
        if (c->p == c->e)
            break;
        if (!syn_is_op(s, c->p, NFY_OP_COMMA)) {
            bad(c, "expected ',' between imported names");
            break;
        }
        c->p++;
        if (c->p == c->e && !paren)
            bad(c, "trailing ',' needs parentheses");
    }
    c->e = saved_e;
    if (!s->imports.items[c->imp].nnames &&
        !(s->imports.items[c->imp].flags & NFY_IMPF_ERROR))
        bad(c, "nothing imported");
}

static void from_import(cursor *c)
{
    syn *s = c->s;
    nfy_import *imp = &s->imports.items[c->imp];
    uint32_t mfirst = c->p;
    imp->level = count_dots(c);
    uint32_t first, end;
    if (c->p < c->e && s->pos[c->p].kw != KW_IMPORT && dotted(c, &first, &end))
        imp->module = nfy__pysyn_join_dotted(s, first, end);
    if (imp->level == 0 && !imp->module.len) {
        bad(c, "expected a module name");
        return;
    }
    if (c->p > mfirst) {
        imp->module_first = s->pos[mfirst].tok;
        imp->module_end = s->pos[c->p - 1].tok + 1;
    }
    if (c->p >= c->e || s->pos[c->p].kw != KW_IMPORT) {
        bad(c, "expected 'import'");
        return;
    }
    c->p++;
    if (c->p < c->e && syn_is_op(s, c->p, NFY_OP_STAR)) {
        imp->flags |= NFY_IMPF_STAR;
        if (++c->p != c->e)
            bad(c, "unexpected tokens after '*'");
        return;
    }
    from_names(c);
}

static bool in_function(const syn *s, uint32_t sc)
{
    for (; sc != NFY_NONE; sc = s->scopes.items[sc].parent)
        if (s->scopes.items[sc].kind == NFY_SCOPE_FUNCTION ||
            s->scopes.items[sc].kind == NFY_SCOPE_LAMBDA)
            return true;
    return false;
}

void nfy__pysyn_import(syn *s, uint32_t stmt_idx, uint32_t p, uint32_t e)
{
    nfy_import imp;
    memset(&imp, 0, sizeof imp);
    imp.stmt = stmt_idx;
    imp.flags = s->pos[p].kw == KW_FROM ? NFY_IMPF_FROM : 0;
    imp.module_first = imp.module_end = NFY_NONE;
    imp.names_first = (uint32_t)s->inames.len;
    imp.scope = s->stmts.items[stmt_idx].scope;
    imp.try_stmt = NFY_NONE;
    if (in_function(s, imp.scope))
        imp.flags |= NFY_IMPF_IN_FUNCTION;
    RES_PUSH(s, &s->imports, imp);
    cursor c = {s, stmt_idx, (uint32_t)s->imports.len - 1, e, p + 1};
    if (imp.flags & NFY_IMPF_FROM)
        from_import(&c);
    else
        plain_import(&c);
}
