/*
 * The expression scanner: one left-to-right walk over a statement's
 * positions with an explicit frame stack (brackets, def parameters,
 * lambdas), recording name uses with their dotted chains, attribute
 * accesses, calls and arguments, subscripts, lambda and comprehension
 * scopes, and string literal groups.
 *
 * "The primary" (pstart, puse, pcall) is the atom-plus-trailers expression
 * being read: it decides whether '(' is a call and '[' a subscript, and
 * what a call's callee is. A comprehension is only recognised at its first
 * `for`, so the names already seen in its element move into its scope then
 * (they are the most recent entries of the result vectors).
 */
#include <string.h>

#include "pysyn/syn_internal.h"

static frame *top(syn *s)
{
    return s->ftop;
}

static void reset_primary(syn *s)
{
    s->pstart = s->puse = s->pcall = NFY_NONE;
}

static bool is_bracket_frame(const frame *f)
{
    return f->kind == FR_PAREN || f->kind == FR_LIST || f->kind == FR_DICT ||
           f->kind == FR_CALL;
}

/* Can the token at p end a primary (so '(' after it is a call)? */
static bool primary_end(const syn *s, uint32_t p)
{
    unsigned op = syn_op(s, p);
    switch (syn_kind(s, p)) {
    case NFY_TOK_NAME:
        return s->pos[p].kw == KW_NOTKW || s->pos[p].kw >= KW_SOFT_FIRST ||
               s->pos[p].kw == KW_NONE || s->pos[p].kw == KW_TRUE ||
               s->pos[p].kw == KW_FALSE;
    case NFY_TOK_NUMBER:
    case NFY_TOK_STRING:
        return true;
    case NFY_TOK_OP:
        return (op == NFY_OP_RPAR || op == NFY_OP_RSQB ||
                op == NFY_OP_RBRACE) &&
               s->pmatch[p] != NFY_NONE;
    default:
        return false;
    }
}

void nfy__pysyn_scan_begin(syn *s, uint32_t scope)
{
    s->cands.len = 0;
    s->eqs.len = 0;
    s->augop = s->anncolon = s->first_in = NFY_NONE;
    s->assign_str = NFY_NONE;
    s->m_uses = (uint32_t)s->uses.len;
    s->m_calls = (uint32_t)s->calls.len;
    s->m_strings = (uint32_t)s->strings.len;
    if (!s->frames.cap)
        nfy_vec_reserve(&s->frames, 16);
    s->frames.len = 1;
    frame *f = s->ftop = s->frames.items; /* built in place */
    f->kind = FR_STMT;
    f->pstate = PS_START;
    f->cstate = CS_NONE;
    f->nfor = 0;
    f->open = f->call = f->arg = f->param = f->callf = f->in_pos = NFY_NONE;
    f->scope = f->inner = f->outer = scope;
    f->npos = f->ubase = 0;
    f->m_uses = f->m_scopes = f->m_calls = f->m_strings = f->m_bindings = 0;
    f->s_pstart = f->s_puse = f->s_pcall = 0;
    reset_primary(s);
}

static frame *push_frame(syn *s, uint8_t kind, uint32_t open)
{
    uint32_t idx = (uint32_t)s->frames.len;
    if (idx == s->frames.cap) {
        nfy_vec_reserve(&s->frames, 1);
        s->ftop = &s->frames.items[idx - 1];
    }
    const frame *o = s->ftop;
    frame *f = &s->frames.items[idx]; /* built in place */
    s->frames.len++;
    s->ftop = f;
    f->kind = kind;
    f->pstate = PS_START;
    f->cstate = CS_NONE;
    f->nfor = 0;
    f->open = open;
    f->scope = f->outer = f->inner = o->scope;
    f->call = f->arg = f->param = f->in_pos = NFY_NONE;
    f->npos = 0;
    f->callf = o->callf;
    f->ubase = kind != FR_PAREN && kind != FR_LIST ? idx : o->ubase;
    f->m_uses = (uint32_t)s->uses.len;
    f->m_scopes = (uint32_t)s->scopes.len;
    f->m_calls = (uint32_t)s->calls.len;
    f->m_strings = (uint32_t)s->strings.len;
    f->m_bindings = (uint32_t)s->bindings.len;
    f->s_pstart = s->pstart;
    f->s_puse = s->puse;
    f->s_pcall = s->pcall;
    reset_primary(s);
    return f;
}

/* ---- Calls and arguments --------------------------------------------------
 */

static void new_call(syn *s, frame *f, uint32_t p, uint32_t callee_pos,
                     uint32_t flags)
{
    const frame *outer = &s->frames.items[s->frames.len - 2];
    nfy_call *c = RES_SLOT(&s->calls);
    memset(c, 0, sizeof *c);
    c->callee_first = s->pos[callee_pos].tok;
    c->lpar = s->pos[p].tok;
    c->rpar = s->pmatch[p] != NFY_NONE ? s->pos[s->pmatch[p]].tok : NFY_NONE;
    c->use = c->attr_tok = c->recv_call = NFY_NONE;
    c->parent_call = c->parent_arg = NFY_NONE;
    if (outer->callf != NFY_NONE) {
        c->parent_call = s->frames.items[outer->callf].call;
        c->parent_arg = s->frames.items[outer->callf].arg;
    }
    c->stmt = s->cur_stmt;
    c->scope = outer->scope;
    c->flags = flags | (c->rpar == NFY_NONE ? NFY_CALLF_UNCLOSED : 0);
    uint32_t endp = s->pmatch[p] != NFY_NONE ? s->pmatch[p] : p;
    c->span = syn_span(s, callee_pos, endp + 1);
    f->call = (uint32_t)s->calls.len - 1;
    f->callf = (uint32_t)s->frames.len - 1;
}

/* The callee of the call just opened at p, from the primary before it. */
static void describe_callee(syn *s, nfy_call *c, uint32_t p, uint32_t puse)
{
    if (puse != NFY_NONE && s->uses.items[puse].chain_end == s->pos[p - 1].tok)
        c->use = puse;
    if (p >= s->st_first + 2 && syn_is_ident(s, p - 1) &&
        syn_is_op(s, p - 2, NFY_OP_DOT)) {
        c->attr_tok = s->pos[p - 1].tok;
        if (s->attrs.len && nfy_vec_last(&s->attrs)->name_tok == c->attr_tok)
            c->recv_call = nfy_vec_last(&s->attrs)->base_call;
    }
}

static void finish_arg(syn *s, frame *f, uint32_t p)
{
    if (f->arg == NFY_NONE)
        return;
    nfy_arg *a = &s->args.items[f->arg];
    uint32_t first_pos = a->pos; /* holds the position until finished */
    uint32_t vpos = a->value_end;
    uint32_t last = p > first_pos ? p - 1 : first_pos;
    a->first = s->pos[first_pos].tok;
    a->end = s->pos[last].tok + 1;
    a->span = syn_span(s, first_pos, last + 1);
    if (vpos > last) {
        a->value_first = a->value_end = a->end;
        a->value_span = (nfy_span){a->span.end, a->span.end};
    } else {
        a->value_first = s->pos[vpos].tok;
        a->value_end = a->end;
        a->value_span = syn_span(s, vpos, last + 1);
    }
    a->pos = a->kind == NFY_ARG_POS ? f->npos++ : NFY_NONE;
    f->arg = NFY_NONE;
}

/* Bookkeeping for token p directly inside call frame f; returns how many
   tokens it consumed (2 for `name=`). */
static uint32_t arg_step(syn *s, frame *f, uint32_t p, uint32_t e)
{
    if (syn_is_op(s, p, NFY_OP_COMMA)) {
        finish_arg(s, f, p);
        return 0;
    }
    if (f->arg != NFY_NONE || p == s->pmatch[f->open])
        return 0;
    nfy_arg *a = RES_SLOT(&s->args);
    memset(a, 0, sizeof *a);
    a->kind = NFY_ARG_POS;
    a->call = f->call;
    a->pos = p;       /* first position, until finish_arg */
    a->value_end = p; /* value position, until finish_arg */
    a->name_tok = NFY_NONE;
    uint32_t used = 0;
    if (syn_is_op(s, p, NFY_OP_STAR) || syn_is_op(s, p, NFY_OP_DOUBLESTAR)) {
        a->kind = syn_is_op(s, p, NFY_OP_STAR) ? NFY_ARG_STAR : NFY_ARG_DSTAR;
        a->value_end = p + 1;
    } else if (p + 1 < e && syn_is_ident(s, p) &&
               syn_is_op(s, p + 1, NFY_OP_EQUAL)) {
        a->kind = NFY_ARG_KEYWORD;
        a->name_tok = s->pos[p].tok;
        a->value_end = p + 2;
        used = 2;
    }
    f->arg = (uint32_t)s->args.len - 1;
    return used;
}

/* ---- Parameters (def and lambda) ------------------------------------------
 */

/* Token p directly inside a PARAMS or LAMBDA (params part) frame; returns
   true when it was consumed as parameter syntax. */
static bool param_step(syn *s, frame *f, uint32_t p)
{
    bool lambda = f->kind == FR_LAMBDA;
    uint32_t op = syn_kind(s, p) == NFY_TOK_OP ? syn_op(s, p) : NFY_OP_NONE;
    if (op == NFY_OP_COMMA) {
        f->pstate = PS_START;
        f->scope = f->inner;
        return true;
    }
    if (lambda && op == NFY_OP_COLON) {
        f->pstate = PS_BODY;
        f->scope = f->inner;
        return true;
    }
    switch (f->pstate) {
    case PS_START:
        if (op == NFY_OP_STAR || op == NFY_OP_DOUBLESTAR || op == NFY_OP_SLASH)
            return true;
        if (syn_is_ident(s, p)) {
            nfy__pysyn_bind(s, NFY_BIND_PARAM, p, f->inner);
            f->param = p;
            f->pstate = PS_NAME;
            return true;
        }
        return false;
    case PS_NAME:
    case PS_ANNOT:
        if (op == NFY_OP_EQUAL ||
            (op == NFY_OP_COLON && !lambda && f->pstate == PS_NAME)) {
            f->pstate = op == NFY_OP_EQUAL ? PS_DEFAULT : PS_ANNOT;
            f->scope = f->outer;
            return true;
        }
        return false;
    default:
        return false;
    }
}

void nfy__pysyn_scan_params(syn *s, uint32_t p, uint32_t fscope)
{
    frame *f = push_frame(s, FR_PARAMS, p);
    f->inner = fscope;
}

void nfy__pysyn_scan_bases(syn *s, uint32_t p, uint32_t name_pos)
{
    frame *f = push_frame(s, FR_CALL, p);
    new_call(s, f, p, name_pos, NFY_CALLF_CLASS_BASES);
}

static void open_lambda(syn *s, uint32_t p)
{
    uint32_t outer = top(s)->scope;
    uint32_t ls =
        nfy__pysyn_scope_push(s, NFY_SCOPE_LAMBDA, outer, s->pos[p].tok);
    frame *f = push_frame(s, FR_LAMBDA, NFY_NONE);
    f->inner = ls;
    f->scope = ls;
}

static bool ends_lambda(const syn *s, uint32_t p)
{
    if (syn_kind(s, p) == NFY_TOK_NAME)
        return s->pos[p].kw == KW_FOR || s->pos[p].kw == KW_ASYNC;
    if (syn_kind(s, p) != NFY_TOK_OP)
        return false;
    switch (syn_op(s, p)) {
    case NFY_OP_COMMA:
    case NFY_OP_RPAR:
    case NFY_OP_RSQB:
    case NFY_OP_RBRACE:
    case NFY_OP_COLON:
    case NFY_OP_SEMI:
    case NFY_OP_EQUAL:
        return true;
    default:
        return false;
    }
}

static void pop_frame(syn *s, uint32_t end_tok)
{
    frame *f = top(s);
    if (f->kind == FR_LAMBDA)
        s->scopes.items[f->inner].end = end_tok;
    else if (f->cstate != CS_NONE && f->inner != NFY_NONE &&
             s->scopes.items[f->inner].end == NFY_NONE)
        s->scopes.items[f->inner].end = end_tok;
    s->frames.len--;
    s->ftop--;
}

static void end_lambdas(syn *s, uint32_t p)
{
    while (top(s)->kind == FR_LAMBDA && top(s)->pstate == PS_BODY &&
           ends_lambda(s, p)) {
        pop_frame(s, s->pos[p - 1].tok + 1);
        reset_primary(s);
    }
}

/* ---- Comprehensions --------------------------------------------------------
 */

/* Move what the element expression recorded into the new scope. */
static void adopt_into(syn *s, const frame *f, uint32_t from, uint32_t to)
{
    for (size_t i = f->m_uses; i < s->uses.len; i++)
        if (s->uses.items[i].scope == from)
            s->uses.items[i].scope = to;
    for (size_t i = f->m_scopes; i < to; i++)
        if (s->scopes.items[i].parent == from)
            s->scopes.items[i].parent = to;
    for (size_t i = f->m_calls; i < s->calls.len; i++)
        if (s->calls.items[i].scope == from)
            s->calls.items[i].scope = to;
    for (size_t i = f->m_strings; i < s->strings.len; i++)
        if (s->strings.items[i].scope == from)
            s->strings.items[i].scope = to;
    for (size_t i = f->m_bindings; i < s->bindings.len; i++)
        if (s->bindings.items[i].scope == from &&
            s->bindings.items[i].kind != NFY_BIND_WALRUS)
            s->bindings.items[i].scope = to;
}

static void comp_for(syn *s, frame *f)
{
    if (f->cstate == CS_NONE) {
        uint32_t from = f->scope;
        uint32_t cs = nfy__pysyn_scope_push(s, NFY_SCOPE_COMPREHENSION, from,
                                            s->pos[f->open].tok);
        if (s->pmatch[f->open] != NFY_NONE)
            s->scopes.items[cs].end = s->pos[s->pmatch[f->open]].tok + 1;
        adopt_into(s, f, from, cs);
        f->inner = cs;
        f->outer = from;
        if (f->kind == FR_CALL)
            s->calls.items[f->call].flags |= NFY_CALLF_GENEXP_ARG;
    }
    f->cstate = CS_TARGETS;
    f->scope = f->inner;
    f->ubase = (uint32_t)(f - s->frames.items); /* targets unpack from here */
    if (f->nfor < 255)
        f->nfor++;
}

static void comp_in(frame *f, uint32_t p)
{
    f->in_pos = p;
    if (f->nfor == 1) {
        f->cstate = CS_FIRST_ITER;
        f->scope = f->outer;
    } else {
        f->cstate = CS_LATER;
    }
}

/* ---- Names -----------------------------------------------------------------
 */

static uint32_t nearest_non_comp(const syn *s, uint32_t sc)
{
    while (s->scopes.items[sc].kind == NFY_SCOPE_COMPREHENSION &&
           s->scopes.items[sc].parent != NFY_NONE)
        sc = s->scopes.items[sc].parent;
    return sc;
}

/* Operators that continue a primary after a NAME (ids below 64). */
#define TRAILER_OPS                                                            \
    (1ull << NFY_OP_DOT | 1ull << NFY_OP_LPAR | 1ull << NFY_OP_LSQB)
/* operator ids (EXCLAMATION is the last) fit this file's 64-bit masks */
_Static_assert(NFY_OP_EXCLAMATION < 64, "operator ids fit 64 bits");

static void attribute(syn *s, uint32_t p)
{
    nfy_attr *a = RES_SLOT(&s->attrs);
    a->name_tok = s->pos[p].tok;
    a->base_first = s->pos[s->pstart].tok;
    a->base_call = syn_is_op(s, p - 2, NFY_OP_RPAR) ? s->pcall : NFY_NONE;
    a->use = NFY_NONE;
    a->stmt = s->cur_stmt;
    if (s->puse != NFY_NONE &&
        s->uses.items[s->puse].chain_end == s->pos[p - 2].tok) {
        nfy_name_use *u = &s->uses.items[s->puse];
        u->chain_end = s->pos[p].tok;
        if (u->nparts < UINT16_MAX)
            u->nparts++;
        a->use = s->puse;
    } else {
        s->puse = NFY_NONE;
    }
    s->pcall = NFY_NONE;
}

static void name_use(syn *s, uint32_t p, uint32_t e)
{
    frame *f = top(s);
    uint32_t idx = (uint32_t)s->uses.len;
    nfy_name_use *u = RES_SLOT(&s->uses); /* nothing else adds uses here */
    u->tok = u->chain_end = s->pos[p].tok;
    u->nparts = 1;
    u->ctx = NFY_CTX_LOAD;
    u->scope = f->scope;
    u->stmt = s->cur_stmt;
    u->binding = NFY_NONE;
    s->pstart = p;
    s->puse = idx;
    s->pcall = NFY_NONE;
    unsigned next = p + 1 < e ? syn_op(s, p + 1) : NFY_OP_NONE;
    if (next == NFY_OP_COLONEQUAL) {
        uint32_t sc = nearest_non_comp(s, f->scope);
        u->binding = nfy__pysyn_bind(s, NFY_BIND_WALRUS, p, sc);
        u->ctx = NFY_CTX_STORE;
        u->scope = sc;
        return;
    }
    /* a NAME with a trailer is no target */
    bool target = !(1ull << (next & 63) & TRAILER_OPS);
    const frame *b = &s->frames.items[f->ubase];
    if (b->kind != FR_STMT && b->cstate == CS_TARGETS && target) {
        u->binding = nfy__pysyn_bind(s, NFY_BIND_FOR, p, b->inner);
        u->ctx = NFY_CTX_STORE;
        return;
    }
    /* the candidate is written either way and kept only for a target
       (whether a trailer follows is no pattern a branch predictor learns) */
    if (s->cands.len == s->cands.cap)
        nfy_vec_reserve(&s->cands, 1);
    s->cands.items[s->cands.len] = (target_cand){idx, p, f->ubase};
    s->cands.len += target;
}

static void keyword(syn *s, uint32_t p)
{
    frame *f = top(s);
    switch (s->pos[p].kw) {
    case KW_TRUE:
    case KW_FALSE:
    case KW_NONE:
        s->pstart = p;
        s->puse = s->pcall = NFY_NONE;
        return;
    case KW_LAMBDA:
        open_lambda(s, p);
        break;
    case KW_FOR:
        if (is_bracket_frame(f))
            comp_for(s, f);
        break;
    case KW_IN:
        if (f->cstate == CS_TARGETS)
            comp_in(f, p);
        else if (f->kind == FR_STMT && s->first_in == NFY_NONE)
            s->first_in = p;
        break;
    case KW_IF:
        if (f->cstate == CS_FIRST_ITER) {
            f->cstate = CS_LATER;
            f->scope = f->inner;
        }
        break;
    default:
        break;
    }
    reset_primary(s);
}

static uint32_t scan_name(syn *s, uint32_t p, uint32_t e)
{
    if (!syn_is_ident(s, p)) {
        keyword(s, p);
        return p + 1;
    }
    /* a '.' before a NAME nearly always follows a primary: test it first */
    if (p > s->st_first && syn_is_op(s, p - 1, NFY_OP_DOT) &&
        s->pstart != NFY_NONE && p >= 2)
        attribute(s, p);
    else
        name_use(s, p, e);
    return p + 1;
}

/* ---- Brackets --------------------------------------------------------------
 */

static void open_bracket(syn *s, uint32_t p)
{
    uint32_t op = syn_op(s, p);
    bool trailer =
        p > s->st_first && s->pstart != NFY_NONE && primary_end(s, p - 1);
    uint32_t pstart = s->pstart, puse = s->puse;
    if (op == NFY_OP_LPAR && trailer) {
        frame *f = push_frame(s, FR_CALL, p);
        new_call(s, f, p, pstart, 0);
        describe_callee(s, &s->calls.items[f->call], p, puse);
    } else if (op == NFY_OP_LSQB && trailer) {
        nfy_subscript sub = {s->pos[pstart].tok, s->pos[p].tok, NFY_NONE,
                             NFY_NONE, s->cur_stmt};
        if (s->pmatch[p] != NFY_NONE)
            sub.rsqb = s->pos[s->pmatch[p]].tok;
        if (puse != NFY_NONE &&
            s->uses.items[puse].chain_end == s->pos[p - 1].tok)
            sub.use = puse;
        RES_PUSH(s, &s->subs, sub);
        push_frame(s, FR_SUB, p);
    } else {
        push_frame(s,
                   op == NFY_OP_LPAR   ? FR_PAREN
                   : op == NFY_OP_LSQB ? FR_LIST
                                       : FR_DICT,
                   p);
    }
}

static void close_bracket(syn *s, uint32_t p)
{
    uint32_t o = s->pmatch[p];
    while (s->frames.len > 1 && top(s)->open != o)
        pop_frame(s, s->pos[p].tok);
    if (s->frames.len <= 1) {
        reset_primary(s);
        return;
    }
    frame *f = top(s);
    if (f->kind == FR_CALL)
        finish_arg(s, f, p);
    frame saved = *f;
    pop_frame(s, s->pos[p].tok + 1);
    switch (saved.kind) {
    case FR_CALL:
        if (s->calls.items[saved.call].flags & NFY_CALLF_CLASS_BASES) {
            reset_primary(s);
            break;
        }
        s->pstart = saved.s_pstart;
        s->puse = NFY_NONE;
        s->pcall = saved.call;
        break;
    case FR_SUB:
        s->pstart = saved.s_pstart;
        s->puse = s->pcall = NFY_NONE;
        break;
    case FR_PARAMS:
        reset_primary(s);
        break;
    default:
        s->pstart = o;
        s->puse = s->pcall = NFY_NONE;
        break;
    }
}

/* The augmented assignment operators as bits of their ids (all below 64). */
#define AUGOP_BIT(name) (1ull << NFY_OP_##name)
#define AUGOPS                                                                 \
    (AUGOP_BIT(PLUSEQUAL) | AUGOP_BIT(MINEQUAL) | AUGOP_BIT(STAREQUAL) |       \
     AUGOP_BIT(SLASHEQUAL) | AUGOP_BIT(PERCENTEQUAL) | AUGOP_BIT(AMPEREQUAL) | \
     AUGOP_BIT(VBAREQUAL) | AUGOP_BIT(CIRCUMFLEXEQUAL) |                       \
     AUGOP_BIT(LEFTSHIFTEQUAL) | AUGOP_BIT(RIGHTSHIFTEQUAL) |                  \
     AUGOP_BIT(DOUBLESTAREQUAL) | AUGOP_BIT(DOUBLESLASHEQUAL) |                \
     AUGOP_BIT(ATEQUAL))

static bool is_augop(uint32_t op)
{
    return op < 64 && (AUGOPS >> op & 1);
}

/* The statement-level facts an operator at depth 0 gives. */
static void stmt_level_op(syn *s, uint32_t p, uint32_t op)
{
    if (op == NFY_OP_EQUAL)
        SYN_PUSH(&s->eqs, p);
    else if (op == NFY_OP_COLON) {
        if (s->anncolon == NFY_NONE && !s->eqs.len && s->augop == NFY_NONE)
            s->anncolon = p;
    } else if (is_augop(op) && s->augop == NFY_NONE)
        s->augop = p;
}

/* The brackets are operators 1 to 6, openers odd, closers even. */
_Static_assert(NFY_OP_LPAR == 1 && NFY_OP_RPAR == 2 && NFY_OP_LSQB == 3 &&
                   NFY_OP_RSQB == 4 && NFY_OP_LBRACE == 5 && NFY_OP_RBRACE == 6,
               "bracket operator ids");

static void scan_op(syn *s, uint32_t p)
{
    uint32_t op = syn_op(s, p);
    if (op - NFY_OP_LPAR < 6) {
        if (op & 1)
            open_bracket(s, p);
        else if (s->pmatch[p] != NFY_NONE)
            close_bracket(s, p);
        else
            reset_primary(s);
        return;
    }
    if (op == NFY_OP_DOT)
        return; /* the primary continues */
    if (top(s)->kind == FR_STMT)
        stmt_level_op(s, p, op);
    reset_primary(s);
}

/* ---- Driver ----------------------------------------------------------------
 */

/* Token p directly inside a CALL, PARAMS or LAMBDA frame: ends the
   lambdas it closes and keeps the argument or parameter books; returns
   how many positions that consumed. */
static uint32_t frame_step(syn *s, uint32_t p, uint32_t e)
{
    frame *f = top(s);
    if (f->kind == FR_LAMBDA) {
        end_lambdas(s, p);
        f = top(s);
    }
    if (f->kind == FR_CALL) /* inside an argument only ',' matters */
        return f->arg == NFY_NONE || syn_is_op(s, p, NFY_OP_COMMA)
                   ? arg_step(s, f, p, e)
                   : 0;
    if ((f->kind == FR_PARAMS ||
         (f->kind == FR_LAMBDA && f->pstate != PS_BODY)) &&
        param_step(s, f, p))
        return 1;
    return 0;
}

void nfy__pysyn_scan(syn *s, uint32_t p, uint32_t e)
{
    while (p < e) {
        if (top(s)->kind >= FR_CALL) {
            uint32_t used = frame_step(s, p, e);
            if (used) {
                reset_primary(s);
                p += used;
                continue;
            }
        }
        switch (syn_kind(s, p)) {
        case NFY_TOK_NAME:
            p = scan_name(s, p, e);
            break;
        case NFY_TOK_STRING:
            p = nfy__pysyn_string(s, p, e);
            break;
        case NFY_TOK_NUMBER:
            s->pstart = p;
            s->puse = s->pcall = NFY_NONE;
            p++;
            break;
        case NFY_TOK_OP:
            scan_op(s, p);
            p++;
            break;
        default:
            reset_primary(s);
            p++;
            break;
        }
    }
}

void nfy__pysyn_scan_end(syn *s, uint32_t e)
{
    uint32_t last = e > s->st_first ? e - 1 : s->st_first;
    while (s->frames.len > 1) {
        frame *f = top(s);
        if (f->kind == FR_CALL)
            finish_arg(s, f, e);
        pop_frame(s, s->pos[last].tok + 1);
    }
}
