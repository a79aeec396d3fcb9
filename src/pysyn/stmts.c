/*
 * Pass 2: logical lines into statements, blocks by INDENT/DEDENT.
 *
 * Each logical line (up to NEWLINE, or a recovery break from pass 1) holds
 * simple statements split on ';' and compound headers; a header whose ':'
 * ends the line waits ("pending") for the INDENT that opens its block.
 * Statements are numbered in source order, and a block's end fixes its
 * owner's body_end, so a body is always the contiguous range after its
 * statement. The block stack and scope stack are heap vectors.
 */
#include <string.h>

#include "pysyn/syn_internal.h"

static block *top_block(syn *s)
{
    return nfy_vec_last(&s->blocks);
}

static uint32_t cur_scope(const syn *s)
{
    return s->scope_stack.items[s->scope_stack.len - 1];
}

uint32_t nfy__pysyn_scope_push(syn *s, nfy_scope_kind kind, uint32_t parent,
                               uint32_t first)
{
    nfy_scope sc = {(uint16_t)kind, 0,     parent,  s->cur_stmt,
                    NFY_NONE,       first, NFY_NONE};
    RES_PUSH(s, &s->scopes, sc);
    return (uint32_t)s->scopes.len - 1;
}

uint32_t nfy__pysyn_bind(syn *s, nfy_bind_kind kind, uint32_t pos,
                         uint32_t scope)
{
    nfy_binding *b = RES_SLOT(&s->bindings);
    b->kind = (uint16_t)kind;
    b->pad = 0;
    b->tok = s->pos[pos].tok;
    b->scope = scope;
    b->stmt = s->cur_stmt;
    b->import_name = b->value_first = b->value_end = NFY_NONE;
    return (uint32_t)s->bindings.len - 1;
}

/* Statement flags from pass 1 errors and error tokens in [p, e). */
static uint16_t error_flags(syn *s, uint32_t p, uint32_t e)
{
    uint16_t fl = 0;
    for (uint32_t i = p; i < e && s->any_bad; i++) {
        if (s->pflags[i] & PF_ERROR)
            fl = NFY_STMTF_ERROR;
        if (syn_kind(s, i) == NFY_TOK_ERRORTOKEN && !fl) {
            nfy__pysyn_error(s, i, "syn-bad-token",
                             "statement has an invalid token");
            fl = NFY_STMTF_ERROR;
        }
    }
    return fl;
}

static uint32_t new_stmt(syn *s, nfy_stmt_kind kind, uint32_t p, uint32_t e,
                         uint32_t parent)
{
    uint32_t idx = (uint32_t)s->stmts.len;
    const nfy_token *t = syn_tok(s, p);
    uint16_t flags = error_flags(s, p, e); /* may touch the last stmt */
    if (s->stmts.len == s->stmts.cap)
        nfy__pysyn_res_grow((void **)&s->stmts.items, &s->stmts.cap,
                            sizeof *s->stmts.items);
    nfy_stmt *st = &s->stmts.items[s->stmts.len++]; /* built in place */
    st->kind = (uint16_t)kind;
    st->flags = flags;
    st->first = s->pos[p].tok;
    st->end = s->pos[e - 1].tok + 1;
    st->span = syn_span(s, p, e);
    st->line = t->line;
    st->col = t->col;
    st->parent = parent;
    st->body_end = idx + 1;
    st->depth = parent == NFY_NONE ? 0 : s->stmts.items[parent].depth + 1;
    st->scope = cur_scope(s);
    st->body_scope = st->name_tok = st->deco_first = st->clause_of = NFY_NONE;
    st->ndecos = 0;
    st->value_first = st->value_end = NFY_NONE;
    block *b = top_block(s);
    if (parent == b->stmt)
        b->last_child = idx;
    s->cur_stmt = idx;
    s->st_first = p;
    s->st_end = e;
    return idx;
}

/* First ':' at bracket depth 0 of [p, q) not taken by a lambda. */
static uint32_t header_colon(const syn *s, uint32_t p, uint32_t q)
{
    uint32_t lambdas = 0;
    for (uint32_t i = p; i < q; i++) {
        if (syn_kind(s, i) == NFY_TOK_OP) {
            if (s->pmatch[i] != NFY_NONE && s->pmatch[i] > i)
                i = s->pmatch[i];
            else if (syn_op(s, i) == NFY_OP_COLON) {
                if (!lambdas)
                    return i;
                lambdas--;
            }
        } else if (s->pos[i].kw == KW_LAMBDA) {
            lambdas++;
        }
    }
    return NFY_NONE;
}

/* End of the simple statement at p: the first depth-0 ';' or q. semis:
   the line may hold a ';' (pass 1 saw one). */
static uint32_t simple_end(const syn *s, uint32_t p, uint32_t q, bool semis)
{
    if (!semis)
        return q;
    for (uint32_t i = p; i < q; i++) {
        if (s->pmatch[i] != NFY_NONE && s->pmatch[i] > i)
            i = s->pmatch[i];
        else if (syn_is_op(s, i, NFY_OP_SEMI))
            return i;
    }
    return q;
}

static bool line_ends_with_colon(const syn *s, uint32_t p, uint32_t q)
{
    uint32_t c = header_colon(s, p, q);
    return c != NFY_NONE && c == q - 1;
}

/* match/case are soft keywords: statements only when they look like one. */
static bool soft_header(const syn *s, uint32_t p, uint32_t q)
{
    /* match needs its block; a case may have an inline body */
    if (p + 2 > q ||
        (s->pos[p].kw == KW_MATCH ? !line_ends_with_colon(s, p, q)
                                  : header_colon(s, p, q) == NFY_NONE))
        return false;
    if (syn_kind(s, p + 1) == NFY_TOK_OP)
        switch (syn_op(s, p + 1)) {
        case NFY_OP_LPAR:
        case NFY_OP_LSQB:
        case NFY_OP_LBRACE:
        case NFY_OP_MINUS:
        case NFY_OP_STAR:
        case NFY_OP_TILDE:
            break;
        default:
            return false;
        }
    if (s->pos[p].kw == KW_MATCH)
        return true;
    uint32_t parent = s->blocks.items[s->blocks.len - 1].stmt;
    return parent != NFY_NONE && s->stmts.items[parent].kind == NFY_STMT_MATCH;
}

/* Statement kinds by keyword id, from tables rather than switches (a
   jump table's one indirect branch per statement predicts badly). */
#define KIND_TABLE_SIZE 64
_Static_assert(NFY_KW_TYPE < KIND_TABLE_SIZE, "keyword ids fit the tables");

/* Compound header kinds plus one (0: none); async, match and case
   (COMPOUND_LOOK) are decided by what follows them. */
#define COMPOUND_LOOK 0xFF
static const uint8_t compound_of[KIND_TABLE_SIZE] = {
    [KW_ASYNC] = COMPOUND_LOOK,        [KW_MATCH] = COMPOUND_LOOK,
    [KW_CASE] = COMPOUND_LOOK,         [KW_IF] = NFY_STMT_IF + 1,
    [KW_ELIF] = NFY_STMT_ELIF + 1,     [KW_ELSE] = NFY_STMT_ELSE + 1,
    [KW_FOR] = NFY_STMT_FOR + 1,       [KW_WHILE] = NFY_STMT_WHILE + 1,
    [KW_WITH] = NFY_STMT_WITH + 1,     [KW_TRY] = NFY_STMT_TRY + 1,
    [KW_EXCEPT] = NFY_STMT_EXCEPT + 1, [KW_FINALLY] = NFY_STMT_FINALLY + 1,
    [KW_DEF] = NFY_STMT_DEF + 1,       [KW_CLASS] = NFY_STMT_CLASS + 1};

static int compound_kind(const syn *s, uint32_t p, uint32_t q)
{
    unsigned kw = s->pos[p].kw, k = compound_of[kw % KIND_TABLE_SIZE];
    if (k != COMPOUND_LOOK)
        return (int)k - 1;
    if (kw == KW_ASYNC) {
        if (p + 1 < q &&
            (s->pos[p + 1].kw == KW_DEF || s->pos[p + 1].kw == KW_FOR ||
             s->pos[p + 1].kw == KW_WITH))
            return compound_kind(s, p + 1, q);
        return -1;
    }
    if (!soft_header(s, p, q))
        return -1;
    return kw == KW_MATCH ? NFY_STMT_MATCH : NFY_STMT_CASE;
}

static void set_clause_of(syn *s, uint32_t idx, uint32_t parent)
{
    /* the statement before idx is the previous sibling or inside it */
    uint32_t prev = idx ? idx - 1 : NFY_NONE;
    while (prev != NFY_NONE && s->stmts.items[prev].parent != parent)
        prev = s->stmts.items[prev].parent;
    if (prev == NFY_NONE ||
        !(s->stmts.items[prev].flags & NFY_STMTF_COMPOUND)) {
        nfy__pysyn_error(s, s->st_first, "syn-orphan-clause",
                         "clause without the statement it continues");
        s->stmts.items[idx].flags |= NFY_STMTF_ERROR;
        return;
    }
    const nfy_stmt *ps = &s->stmts.items[prev];
    s->stmts.items[idx].clause_of =
        ps->clause_of != NFY_NONE ? ps->clause_of : prev;
}

static void check_main_guard(syn *s, uint32_t idx, uint32_t p, uint32_t c)
{
    if (c != p + 3 || !syn_is_op(s, p + 1, NFY_OP_EQEQUAL))
        return;
    uint32_t name = p, str = p + 2;
    if (syn_kind(s, name) == NFY_TOK_STRING) {
        name = p + 2;
        str = p;
    }
    nfy_str n = {s->src->data + syn_tok(s, name)->start,
                 syn_tok(s, name)->end - syn_tok(s, name)->start};
    nfy_str v = {s->src->data + syn_tok(s, str)->start,
                 syn_tok(s, str)->end - syn_tok(s, str)->start};
    if (syn_kind(s, name) != NFY_TOK_NAME ||
        syn_kind(s, str) != NFY_TOK_STRING || !nfy_str_eq_cstr(n, "__name__") ||
        !(nfy_str_eq_cstr(v, "\"__main__\"") ||
          nfy_str_eq_cstr(v, "'__main__'")))
        return;
    s->stmts.items[idx].flags |= NFY_STMTF_MAIN_GUARD;
    if (s->stmts.items[idx].parent == NFY_NONE && s->main_guard == NFY_NONE)
        s->main_guard = idx;
}

static void attach_decorators(syn *s, uint32_t idx, uint32_t parent)
{
    if (s->deco_first == NFY_NONE || s->deco_first + s->deco_n != idx ||
        s->stmts.items[s->deco_first].parent != parent)
        return;
    s->stmts.items[idx].deco_first = s->deco_first;
    s->stmts.items[idx].ndecos = s->deco_n;
    s->deco_first = NFY_NONE;
}

/* def NAME ( params ) [-> ann] : */
static void def_header(syn *s, uint32_t idx, uint32_t kwp, uint32_t c)
{
    uint32_t outer = cur_scope(s);
    uint32_t np = kwp + 1, lp = kwp + 2;
    uint32_t first = lp < c ? s->pos[lp].tok : s->pos[kwp].tok;
    uint32_t fs = nfy__pysyn_scope_push(s, NFY_SCOPE_FUNCTION, outer, first);
    nfy_stmt *st = &s->stmts.items[idx];
    st->body_scope = fs;
    if (np < c && syn_is_ident(s, np)) {
        st->name_tok = s->pos[np].tok;
        s->scopes.items[fs].name_tok = s->pos[np].tok;
        nfy__pysyn_bind(s, NFY_BIND_DEF, np, outer);
    } else {
        nfy__pysyn_error(s, kwp, "syn-def", "expected a function name");
        st->flags |= NFY_STMTF_ERROR;
    }
    nfy__pysyn_scan_begin(s, outer);
    if (lp < c && syn_is_op(s, lp, NFY_OP_LPAR)) {
        nfy__pysyn_scan_params(s, lp, fs);
        nfy__pysyn_scan(s, lp + 1, c);
    } else if (np + 1 < c) {
        nfy__pysyn_scan(s, np + 1, c);
    }
    nfy__pysyn_scan_end(s, c);
    SYN_PUSH(&s->scope_stack, fs);
}

static void class_header(syn *s, uint32_t idx, uint32_t kwp, uint32_t c)
{
    uint32_t outer = cur_scope(s);
    uint32_t np = kwp + 1;
    nfy_stmt *st = &s->stmts.items[idx];
    nfy__pysyn_scan_begin(s, outer);
    if (np < c && syn_is_ident(s, np)) {
        st->name_tok = s->pos[np].tok;
        nfy__pysyn_bind(s, NFY_BIND_CLASS, np, outer);
        if (np + 1 < c && syn_is_op(s, np + 1, NFY_OP_LPAR)) {
            nfy__pysyn_scan_bases(s, np + 1, np);
            nfy__pysyn_scan(s, np + 2, c);
        }
    } else {
        nfy__pysyn_error(s, kwp, "syn-class", "expected a class name");
        st->flags |= NFY_STMTF_ERROR;
    }
    nfy__pysyn_scan_end(s, c);
    uint32_t cs =
        nfy__pysyn_scope_push(s, NFY_SCOPE_CLASS, outer,
                              c < s->nsig ? s->pos[c].tok : s->pos[kwp].tok);
    s->scopes.items[cs].name_tok = st->name_tok;
    s->stmts.items[idx].body_scope = cs;
    SYN_PUSH(&s->scope_stack, cs);
}

static void plain_header(syn *s, uint32_t idx, uint32_t kwp, uint32_t c)
{
    nfy__pysyn_scan_begin(s, cur_scope(s));
    nfy__pysyn_scan(s, kwp + 1, c);
    nfy__pysyn_scan_end(s, c);
    nfy__pysyn_targets(s, idx);
}

/* A compound header at p; returns the position after its ':' (or q). */
static uint32_t parse_compound(syn *s, int kind, uint32_t p, uint32_t q,
                               uint32_t parent, uint32_t *idx_out)
{
    uint32_t kwp = s->pos[p].kw == KW_ASYNC ? p + 1 : p;
    uint32_t c = header_colon(s, kwp, q);
    uint32_t e = c == NFY_NONE ? q : c + 1;
    uint32_t idx = new_stmt(s, (nfy_stmt_kind)kind, p, e, parent);
    nfy_stmt *st = &s->stmts.items[idx];
    st->flags |= NFY_STMTF_COMPOUND | (kwp != p ? NFY_STMTF_ASYNC : 0);
    if (c == NFY_NONE) {
        nfy__pysyn_error(s, p, "syn-expected-colon",
                         "compound statement without ':'");
        st->flags |= NFY_STMTF_ERROR;
        c = q;
    }
    if (kind == NFY_STMT_ELIF || kind == NFY_STMT_ELSE ||
        kind == NFY_STMT_EXCEPT || kind == NFY_STMT_FINALLY)
        set_clause_of(s, idx, parent);
    if (kind == NFY_STMT_DEF) {
        attach_decorators(s, idx, parent);
        def_header(s, idx, kwp, c);
    } else if (kind == NFY_STMT_CLASS) {
        attach_decorators(s, idx, parent);
        class_header(s, idx, kwp, c);
    } else if (kind != NFY_STMT_ELSE && kind != NFY_STMT_TRY &&
               kind != NFY_STMT_FINALLY) {
        plain_header(s, idx, kwp, c);
        if (kind == NFY_STMT_IF)
            check_main_guard(s, idx, kwp + 1, c);
    }
    *idx_out = idx;
    return e;
}

/* Simple statement kinds (0, NFY_STMT_EXPR, for the other keywords and
   for names); type aliases are decided by what follows. */
static const uint8_t simple_of[KIND_TABLE_SIZE] = {
    [KW_IMPORT] = NFY_STMT_IMPORT, [KW_FROM] = NFY_STMT_FROM_IMPORT,
    [KW_RETURN] = NFY_STMT_RETURN, [KW_PASS] = NFY_STMT_PASS,
    [KW_BREAK] = NFY_STMT_BREAK,   [KW_CONTINUE] = NFY_STMT_CONTINUE,
    [KW_RAISE] = NFY_STMT_RAISE,   [KW_DEL] = NFY_STMT_DEL,
    [KW_GLOBAL] = NFY_STMT_GLOBAL, [KW_NONLOCAL] = NFY_STMT_NONLOCAL,
    [KW_ASSERT] = NFY_STMT_ASSERT};
_Static_assert(NFY_STMT_EXPR == 0, "simple_of's default is EXPR");

static int simple_kind(const syn *s, uint32_t p, uint32_t e)
{
    unsigned kw = s->pos[p].kw;
    if (kw == KW_TYPE)
        return p + 2 < e && syn_is_ident(s, p + 1) &&
                       (syn_is_op(s, p + 2, NFY_OP_EQUAL) ||
                        syn_is_op(s, p + 2, NFY_OP_LSQB))
                   ? NFY_STMT_TYPE_ALIAS
                   : NFY_STMT_EXPR;
    if (syn_is_op(s, p, NFY_OP_AT))
        return NFY_STMT_DECORATOR;
    return simple_of[kw % KIND_TABLE_SIZE];
}

static void global_names(syn *s, uint32_t p, uint32_t e, nfy_bind_kind k)
{
    for (uint32_t i = p + 1; i < e; i++)
        if (syn_is_ident(s, i))
            nfy__pysyn_bind(s, k, i, cur_scope(s));
}

static void decorator(syn *s, uint32_t idx, uint32_t p, uint32_t e)
{
    uint32_t mark = (uint32_t)s->calls.len;
    nfy__pysyn_scan_begin(s, cur_scope(s));
    nfy__pysyn_scan(s, p + 1, e);
    nfy__pysyn_scan_end(s, e);
    for (uint32_t i = mark; i < s->calls.len; i++)
        if (p + 1 < e && s->calls.items[i].callee_first == s->pos[p + 1].tok)
            s->calls.items[i].flags |= NFY_CALLF_DECORATOR;
    if (s->deco_first != NFY_NONE && s->deco_first + s->deco_n == idx)
        s->deco_n++;
    else {
        s->deco_first = idx;
        s->deco_n = 1;
    }
}

static void parse_simple(syn *s, uint32_t p, uint32_t e, uint32_t parent)
{
    int kind = simple_kind(s, p, e);
    uint32_t idx = new_stmt(s, (nfy_stmt_kind)kind, p, e, parent);
    switch (kind) {
    case NFY_STMT_IMPORT:
    case NFY_STMT_FROM_IMPORT:
        nfy__pysyn_import(s, idx, p, e);
        return;
    case NFY_STMT_GLOBAL:
        global_names(s, p, e, NFY_BIND_GLOBAL);
        return;
    case NFY_STMT_NONLOCAL:
        global_names(s, p, e, NFY_BIND_NONLOCAL);
        return;
    case NFY_STMT_DECORATOR:
        decorator(s, idx, p, e);
        return;
    default:
        break;
    }
    uint32_t from = kind == NFY_STMT_EXPR ? p : p + 1;
    nfy__pysyn_scan_begin(s, cur_scope(s));
    nfy__pysyn_scan(s, from, e);
    nfy__pysyn_scan_end(s, e);
    nfy__pysyn_targets(s, idx);
}

/* Close the body of an inline compound (if x: y) at the end of its line. */
static void close_inline(syn *s, uint32_t q)
{
    while (s->inline_heads.len) {
        uint32_t h = s->inline_heads.items[--s->inline_heads.len];
        nfy_stmt *st = &s->stmts.items[h];
        st->body_end = (uint32_t)s->stmts.len;
        if (st->body_scope != NFY_NONE && s->scope_stack.len > 1 &&
            cur_scope(s) == st->body_scope) {
            s->scopes.items[st->body_scope].end = s->pos[q - 1].tok + 1;
            s->scope_stack.len--;
        }
    }
}

static void parse_line(syn *s, uint32_t p, uint32_t q)
{
    uint32_t parent = top_block(s)->stmt;
    bool semis = q >= s->nsig || (s->pflags[q] & PF_SEMI);
    while (p < q) {
        if (syn_is_op(s, p, NFY_OP_SEMI)) {
            p++;
            continue;
        }
        int kind = compound_kind(s, p, q);
        if (kind < 0) {
            uint32_t e = simple_end(s, p, q, semis);
            parse_simple(s, p, e, parent);
            p = e;
            continue;
        }
        uint32_t idx;
        uint32_t e = parse_compound(s, kind, p, q, parent, &idx);
        bool has_colon = syn_is_op(s, e - 1, NFY_OP_COLON);
        if (has_colon && e < q) {
            s->stmts.items[idx].flags |= NFY_STMTF_INLINE_BODY;
            SYN_PUSH(&s->inline_heads, idx);
            parent = idx;
        } else if (has_colon) {
            s->pending = idx;
        } else if (s->stmts.items[idx].body_scope != NFY_NONE) {
            SYN_PUSH(&s->inline_heads, idx); /* pops its scope */
        }
        p = e;
    }
    close_inline(s, q);
}

static void fix_ancestors(syn *s, uint32_t st)
{
    uint32_t n = (uint32_t)s->stmts.len;
    for (uint32_t a = st; a != NFY_NONE; a = s->stmts.items[a].parent)
        if (s->stmts.items[a].body_end < n)
            s->stmts.items[a].body_end = n;
}

static void open_block(syn *s, uint32_t p)
{
    block b = {top_block(s)->stmt, NFY_NONE, NFY_NONE, false};
    if (s->pending != NFY_NONE) {
        b.stmt = s->pending;
        b.scope = s->stmts.items[s->pending].body_scope;
        s->pending = NFY_NONE;
    } else {
        nfy__pysyn_error(s, p, "syn-unexpected-indent", "unexpected indent");
        b.dummy = true;
        b.last_child = top_block(s)->last_child;
    }
    SYN_PUSH(&s->blocks, b);
}

static void close_block(syn *s, uint32_t tok_end)
{
    if (s->blocks.len <= 1)
        return;
    block b = s->blocks.items[--s->blocks.len];
    if (b.dummy)
        return;
    fix_ancestors(s, b.stmt);
    if (b.scope != NFY_NONE && s->scope_stack.len > 1) {
        s->scopes.items[b.scope].end = tok_end;
        s->scope_stack.len--;
    }
}

/* A header ended its line but no INDENT follows: an empty body. */
static void missing_body(syn *s)
{
    uint32_t idx = s->pending;
    s->pending = NFY_NONE;
    nfy_stmt *st = &s->stmts.items[idx];
    nfy__pysyn_error_tok(s, st->first, "syn-expected-indent",
                         "expected an indented block");
    st->flags |= NFY_STMTF_ERROR;
    if (st->body_scope != NFY_NONE && s->scope_stack.len > 1 &&
        cur_scope(s) == st->body_scope) {
        s->scopes.items[st->body_scope].end = st->end;
        s->scope_stack.len--;
    }
}

/* The end of the logical line at p: the next line end after it (calls
   come with p increasing, so the cursor only moves forward). */
static uint32_t line_end(syn *s, uint32_t p)
{
    const u32_vec *b = &s->breaks;
    while (s->next_break < b->len && b->items[s->next_break] <= p)
        s->next_break++;
    return s->next_break < b->len ? b->items[s->next_break] : s->nsig;
}

/*
 * After a bracket recovery the tokenizer gives no INDENT/DEDENT; blocks
 * follow the columns of the recovered lines instead (virtual blocks).
 */
static void virtual_indent(syn *s, uint32_t p)
{
    uint32_t col = syn_tok(s, p)->col;
    if (!s->vcols.len)
        SYN_PUSH(&s->vcols, s->line_col);
    while (s->vcols.len > 1 && col < *nfy_vec_last(&s->vcols)) {
        close_block(s, s->pos[p].tok);
        s->vcols.len--;
    }
    if (col > *nfy_vec_last(&s->vcols)) {
        open_block(s, p);
        SYN_PUSH(&s->vcols, col);
    }
}

static void end_virtual(syn *s, uint32_t tok_end)
{
    while (s->vcols.len > 1) {
        close_block(s, tok_end);
        s->vcols.len--;
    }
    s->vcols.len = 0;
}

/* Does the line at p open the pending block (INDENT, or deeper virtual)? */
static bool opens_block(const syn *s, uint32_t p)
{
    if (p >= s->nsig)
        return false;
    if (syn_kind(s, p) == NFY_TOK_INDENT)
        return true;
    uint32_t top =
        s->vcols.len ? s->vcols.items[s->vcols.len - 1] : s->line_col;
    return (s->pflags[p] & PF_BREAK) && syn_tok(s, p)->col > top;
}

void nfy__pysyn_pass2(syn *s)
{
    s->cur_stmt = NFY_NONE;
    uint32_t mod = nfy__pysyn_scope_push(s, NFY_SCOPE_MODULE, NFY_NONE, 0);
    s->scopes.items[mod].end = s->ntoks;
    SYN_PUSH(&s->scope_stack, mod);
    block root = {NFY_NONE, NFY_NONE, NFY_NONE, false};
    SYN_PUSH(&s->blocks, root);
    uint32_t p = 0;
    while (p < s->nsig) {
        uint16_t k = syn_kind(s, p);
        if (s->vcols.len && k != NFY_TOK_NAME && k != NFY_TOK_OP &&
            k != NFY_TOK_STRING && k != NFY_TOK_NUMBER &&
            k != NFY_TOK_ERRORTOKEN)
            end_virtual(s, s->pos[p].tok);
        if (k == NFY_TOK_ENDMARKER)
            break;
        if (k == NFY_TOK_INDENT) {
            open_block(s, p++);
            continue;
        }
        if (k == NFY_TOK_DEDENT) {
            close_block(s, s->pos[p++].tok);
            continue;
        }
        if (k != NFY_TOK_NEWLINE) {
            if (s->pflags[p] & PF_BREAK)
                virtual_indent(s, p);
            else
                s->line_col = syn_tok(s, p)->col;
            uint32_t q = line_end(s, p);
            parse_line(s, p, q);
            p = q;
        }
        if (p < s->nsig && syn_kind(s, p) == NFY_TOK_NEWLINE)
            p++;
        if (s->pending != NFY_NONE && !opens_block(s, p))
            missing_body(s);
    }
    if (s->pending != NFY_NONE)
        missing_body(s);
    end_virtual(s, s->ntoks);
    while (s->blocks.len > 1)
        close_block(s, s->ntoks);
}
