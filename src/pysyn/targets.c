/*
 * Statement-level bindings: after the scanner has walked a statement, its
 * facts (depth-0 '=' positions, augmented operator, annotation colon, the
 * for `in`, and the candidate target names) decide which names it binds:
 * assignment, for, with, except, del and case-pattern targets. Also the
 * with-items and docstrings.
 */
#include "pysyn/syn_internal.h"

/* Find the first depth-0 keyword kw in [p, e). */
static uint32_t find_kw(const syn *s, uint32_t p, uint32_t e, uint8_t kw)
{
    for (uint32_t i = p; i < e; i++) {
        if (s->pmatch[i] != NFY_NONE && s->pmatch[i] > i)
            i = s->pmatch[i];
        else if (s->pos[i].kw == kw)
            return i;
    }
    return NFY_NONE;
}

/* Bind every statement-level candidate in [from, to). Candidates are in
   position order: binary search for the first (many with-items must not
   rescan them all). */
static void bind_range(syn *s, nfy_bind_kind kind, uint32_t from, uint32_t to)
{
    size_t lo = 0, hi = s->cands.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->cands.items[mid].pos < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < s->cands.len && s->cands.items[i].pos < to; i++) {
        const target_cand *c = &s->cands.items[i];
        if (c->base != 0)
            continue;
        nfy_name_use *u = &s->uses.items[c->use];
        u->ctx = kind == NFY_BIND_DEL ? NFY_CTX_DEL : NFY_CTX_STORE;
        u->binding = nfy__pysyn_bind(s, kind, c->pos, u->scope);
    }
}

/* Does a target start at pos (statement start or right after a depth-0
   '=')? Candidates sit at depth 0, so an '=' just before one is too. */
static bool is_segment_start(const syn *s, uint32_t pos)
{
    return pos == s->st_first || syn_is_op(s, pos - 1, NFY_OP_EQUAL);
}

/* x = value: give single-name targets their value range. */
static void assign_values(syn *s, uint32_t idx, uint32_t mark, uint32_t vfrom)
{
    nfy_stmt *st = &s->stmts.items[idx];
    if (vfrom >= s->st_end)
        return;
    st->value_first = s->pos[vfrom].tok;
    st->value_end = s->pos[s->st_end - 1].tok + 1;
    for (size_t i = 0; i < s->cands.len; i++) {
        uint32_t pos = s->cands.items[i].pos;
        uint32_t b = s->uses.items[s->cands.items[i].use].binding;
        if (b == NFY_NONE || b < mark || !is_segment_start(s, pos))
            continue;
        if (!syn_is_op(s, pos + 1, NFY_OP_EQUAL) && pos + 1 != s->augop &&
            pos + 1 != s->anncolon)
            continue;
        s->bindings.items[b].value_first = st->value_first;
        s->bindings.items[b].value_end = st->value_end;
        if (s->assign_str != NFY_NONE)
            s->strings.items[s->assign_str].binding = b;
    }
}

static void expr_targets(syn *s, uint32_t idx)
{
    nfy_stmt *st = &s->stmts.items[idx];
    uint32_t mark = (uint32_t)s->bindings.len;
    if (s->augop != NFY_NONE) {
        st->kind = NFY_STMT_AUGASSIGN;
        bind_range(s, NFY_BIND_AUGASSIGN, s->st_first, s->augop);
        assign_values(s, idx, mark, s->augop + 1);
    } else if (s->anncolon != NFY_NONE) {
        st->kind = NFY_STMT_ANNASSIGN;
        bind_range(s, NFY_BIND_ANNASSIGN, s->st_first, s->anncolon);
        if (s->eqs.len)
            assign_values(s, idx, mark, s->eqs.items[0] + 1);
    } else if (s->eqs.len) {
        uint32_t last = s->eqs.items[s->eqs.len - 1];
        st->kind = NFY_STMT_ASSIGN;
        bind_range(s, NFY_BIND_ASSIGN, s->st_first, last);
        assign_values(s, idx, mark, last + 1);
    }
}

static void docstring(syn *s, uint32_t idx)
{
    nfy_stmt *st = &s->stmts.items[idx];
    if (s->strings.len != s->m_strings + 1)
        return;
    nfy_strlit *str = nfy_vec_last(&s->strings);
    if (str->first != st->first || str->end != st->end)
        return;
    bool first = idx == 0;
    if (st->parent != NFY_NONE && st->parent + 1 == idx) {
        uint16_t pk = s->stmts.items[st->parent].kind;
        first = pk == NFY_STMT_DEF || pk == NFY_STMT_CLASS;
    }
    if (first) {
        str->ctx = NFY_STR_DOCSTRING;
        st->flags |= NFY_STMTF_DOCSTRING;
    }
}

/* case patterns: plain names not followed by '(' capture (except _). */
static void case_captures(syn *s, uint32_t kwp, uint32_t c)
{
    uint32_t guard = find_kw(s, kwp + 1, c, KW_IF);
    uint32_t end =
        guard != NFY_NONE ? s->pos[guard].tok : s->pos[c - 1].tok + 1;
    for (size_t i = s->m_uses; i < s->uses.len; i++) {
        nfy_name_use *u = &s->uses.items[i];
        if (u->tok >= end || u->nparts != 1 || u->ctx != NFY_CTX_LOAD)
            continue;
        const nfy_token *t = &s->toks[u->tok];
        if (t->end - t->start == 1 && s->src->data[t->start] == '_')
            continue;
        uint32_t n = u->tok + 1;
        while (n < s->ntoks && (s->toks[n].kind == NFY_TOK_NL ||
                                s->toks[n].kind == NFY_TOK_COMMENT))
            n++;
        if (n < s->ntoks && s->toks[n].kind == NFY_TOK_OP &&
            (s->toks[n].op == NFY_OP_LPAR || s->toks[n].op == NFY_OP_EQUAL))
            continue;
        nfy_binding b = {NFY_BIND_MATCH, 0,        u->tok,   u->scope,
                         s->cur_stmt,    NFY_NONE, NFY_NONE, NFY_NONE};
        RES_PUSH(s, &s->bindings, b);
        u->ctx = NFY_CTX_STORE;
        u->binding = (uint32_t)s->bindings.len - 1;
    }
}

void nfy__pysyn_targets(syn *s, uint32_t idx)
{
    nfy_stmt *st = &s->stmts.items[idx];
    uint32_t kwp =
        s->pos[s->st_first].kw == KW_ASYNC ? s->st_first + 1 : s->st_first;
    uint32_t c = s->st_end; /* the header ':' is at c - 1 */
    if (st->flags & NFY_STMTF_COMPOUND && syn_is_op(s, c - 1, NFY_OP_COLON))
        c--;
    if (st->kind == NFY_STMT_EXPR) { /* most statements: no jump table */
        expr_targets(s, idx);
        if (st->kind == NFY_STMT_EXPR)
            docstring(s, idx);
        return;
    }
    switch (st->kind) {
    case NFY_STMT_RETURN:
        if (kwp + 1 < s->st_end) {
            st->value_first = s->pos[kwp + 1].tok;
            st->value_end = s->pos[s->st_end - 1].tok + 1;
        }
        break;
    case NFY_STMT_DEL:
        bind_range(s, NFY_BIND_DEL, kwp + 1, s->st_end);
        break;
    case NFY_STMT_TYPE_ALIAS:
        bind_range(s, NFY_BIND_ASSIGN, kwp + 1, kwp + 2);
        break;
    case NFY_STMT_FOR:
        if (s->first_in != NFY_NONE)
            bind_range(s, NFY_BIND_FOR, kwp + 1, s->first_in);
        break;
    case NFY_STMT_WITH:
        nfy__pysyn_with_items(s, idx, kwp + 1, c);
        break;
    case NFY_STMT_EXCEPT: {
        uint32_t as = find_kw(s, kwp + 1, c, KW_AS);
        if (as != NFY_NONE)
            bind_range(s, NFY_BIND_EXCEPT, as + 1, c);
        break;
    }
    case NFY_STMT_CASE:
        case_captures(s, kwp, c);
        break;
    default:
        break;
    }
}

static void with_item(syn *s, uint32_t idx, uint32_t p, uint32_t e)
{
    if (p >= e)
        return;
    nfy_with_item w;
    w.stmt = idx;
    uint32_t as = find_kw(s, p, e, KW_AS);
    uint32_t ce = as != NFY_NONE ? as : e;
    w.ctx_first = s->pos[p].tok;
    w.ctx_end = ce > p ? s->pos[ce - 1].tok + 1 : w.ctx_first;
    w.ctx_span = syn_span(s, p, ce > p ? ce : p + 1);
    w.target_first = w.target_end = NFY_NONE;
    w.target_span = (nfy_span){0, 0};
    if (as != NFY_NONE && as + 1 < e) {
        w.target_first = s->pos[as + 1].tok;
        w.target_end = s->pos[e - 1].tok + 1;
        w.target_span = syn_span(s, as + 1, e);
        bind_range(s, NFY_BIND_WITH, as + 1, e);
    }
    RES_PUSH(s, &s->withs, w);
}

void nfy__pysyn_with_items(syn *s, uint32_t idx, uint32_t p, uint32_t e)
{
    /* with (a as b, c as d): the items are inside the parentheses */
    if (p < e && syn_is_op(s, p, NFY_OP_LPAR) && s->pmatch[p] == e - 1 &&
        find_kw(s, p + 1, e - 1, KW_AS) != NFY_NONE) {
        p++;
        e--;
    }
    uint32_t start = p;
    for (uint32_t i = p; i < e; i++) {
        if (s->pmatch[i] != NFY_NONE && s->pmatch[i] > i)
            i = s->pmatch[i];
        else if (syn_is_op(s, i, NFY_OP_COMMA)) {
            with_item(s, idx, start, i);
            start = i + 1;
        }
    }
    with_item(s, idx, start, e);
}
