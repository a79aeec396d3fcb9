/*
 * Pass 1: significant positions, keyword ids and bracket matching.
 *
 * Brackets are matched with an explicit stack, so nesting depth costs heap,
 * not C stack. Recovery: a closer that does not match the top but matches a
 * deeper opener closes the openers above it (reported as unclosed); a
 * closer that matches nothing is reported and ignored. An opener still open
 * when a physical line starts with a keyword that cannot appear inside
 * brackets (def, class, import, return, ...) is reported as never closed
 * and a logical line break is recorded there, so one missing ')' does not
 * swallow the rest of the file.
 */
#include <stdlib.h>
#include <string.h>

#include "pysyn/syn_internal.h"

static nfy_op closer_of(uint32_t op)
{
    switch (op) {
    case NFY_OP_LPAR:
        return NFY_OP_RPAR;
    case NFY_OP_LSQB:
        return NFY_OP_RSQB;
    case NFY_OP_LBRACE:
        return NFY_OP_RBRACE;
    default:
        return NFY_OP_NONE;
    }
}

/* Keywords that only start statements, never appear inside brackets. */
static bool stmt_only_kw(uint8_t kw)
{
    switch (kw) {
    case KW_DEF:
    case KW_CLASS:
    case KW_IMPORT:
    case KW_FROM:
    case KW_RETURN:
    case KW_PASS:
    case KW_BREAK:
    case KW_CONTINUE:
    case KW_RAISE:
    case KW_TRY:
    case KW_WHILE:
    case KW_WITH:
    case KW_DEL:
    case KW_GLOBAL:
    case KW_NONLOCAL:
    case KW_ASSERT:
    case KW_ELIF:
    case KW_EXCEPT:
    case KW_FINALLY:
        return true;
    default:
        return false;
    }
}

/* Open brackets, with a count per kind so that a closer with no opener
   of its kind is found in O(1) (a line of 50000 '[' then 50000 ')'). */
typedef struct {
    u32_vec v;
    uint32_t count[3]; /* ( [ { */
} bstack;

/* Bracket ids of operators: BR_OPEN or BR_CLOSE, plus the kind (0: (),
   1: [], 2: {}) in the low bits; 0 for other operators. */
enum { BR_OPEN = 4, BR_CLOSE = 8, BR_KIND = 3 };

static const uint8_t bracket_of[64] = {
    [NFY_OP_LPAR] = BR_OPEN | 0,   [NFY_OP_LSQB] = BR_OPEN | 1,
    [NFY_OP_LBRACE] = BR_OPEN | 2, [NFY_OP_RPAR] = BR_CLOSE | 0,
    [NFY_OP_RSQB] = BR_CLOSE | 1,  [NFY_OP_RBRACE] = BR_CLOSE | 2};

static unsigned kind_of(uint32_t op)
{
    return op < sizeof bracket_of ? bracket_of[op] & BR_KIND : 2;
}

static uint32_t pop_open(syn *s, bstack *b)
{
    uint32_t p = b->v.items[--b->v.len];
    b->count[kind_of(syn_op(s, p))]--;
    return p;
}

/* Pop the openers above keep; one diagnostic, at the outermost of them. */
static void report_unclosed(syn *s, bstack *b, size_t keep)
{
    u32_vec *stack = &b->v;
    if (stack->len <= keep)
        return;
    size_t n = stack->len - keep;
    uint32_t outer = stack->items[keep];
    while (stack->len > keep)
        s->pos[pop_open(s, b)].flags |= PF_ERROR;
    syn_error(s, outer, "syn-unclosed",
              n == 1 ? "this bracket is never closed"
                     : "this bracket and the ones opened after it are never "
                       "closed");
}

/* A closer at position p with the opener stack. */
static void close_bracket(syn *s, bstack *b, uint32_t p)
{
    uint32_t op = syn_op(s, p);
    if (!b->count[kind_of(op)]) {
        syn_error(s, p, "syn-unmatched", "closing bracket matches nothing");
        return;
    }
    size_t i = b->v.len;
    while (closer_of(syn_op(s, b->v.items[i - 1])) != op)
        i--;
    report_unclosed(s, b, i);
    uint32_t o = pop_open(s, b);
    s->pos[o].match = p;
    s->pos[p].match = o;
    s->match[s->pos[o].tok] = s->pos[p].tok;
    s->match[s->pos[p].tok] = s->pos[o].tok;
}

/* A backslash continuation in the token's leading trivia. */
static bool continued(const syn *s, const nfy_token *t)
{
    return memchr(s->src->data + t->trivia_start, '\\',
                  t->start - t->trivia_start) != NULL;
}

/* What pass 1 does with a token, by kind (one table load instead of a
   chain of compares per token). */
enum tok_class {
    TC_SKIP, /* COMMENT, NL: not a position */
    TC_NAME,
    TC_ATOM, /* NUMBER, STRING */
    TC_BAD,  /* ERRORTOKEN: an atom that marks the file as bad */
    TC_OP,
    TC_END /* NEWLINE, INDENT, DEDENT, ENDMARKER: end every bracket */
};

static const uint8_t tok_class[16] = {
    [NFY_TOK_ENDMARKER] = TC_END, [NFY_TOK_NAME] = TC_NAME,
    [NFY_TOK_NUMBER] = TC_ATOM,   [NFY_TOK_STRING] = TC_ATOM,
    [NFY_TOK_OP] = TC_OP,         [NFY_TOK_COMMENT] = TC_SKIP,
    [NFY_TOK_NL] = TC_SKIP,       [NFY_TOK_NEWLINE] = TC_END,
    [NFY_TOK_INDENT] = TC_END,    [NFY_TOK_DEDENT] = TC_END,
    [NFY_TOK_ERRORTOKEN] = TC_BAD};

static unsigned class_of(unsigned kind)
{
    return kind < sizeof tok_class ? tok_class[kind] : TC_END;
}

/*
 * Pass 1 state that the rare paths share. The per-token loop keeps its own
 * state in locals (stores into the position array would otherwise make the
 * compiler reload every field it keeps in memory).
 */
typedef struct {
    bstack stack;
    /* after a recovery the tokenizer still thinks brackets are open (no
       NEWLINE/INDENT/DEDENT) until its count drops to 0: there, every
       physical line outside our own brackets starts a logical line; the
       same holds for any line the tokenizer joined while no bracket of ours
       is open and no backslash joins it */
    bool recovering;
    bool semi; /* a ';' since the last line end */
} pass1;

/* Flags of a position that starts a new physical line, after a position
   of kind prev_kind. */
static uint8_t line_start_flags(syn *s, pass1 *st, const nfy_token *t,
                                unsigned prev_kind)
{
    uint8_t fl = 0;
    if (t->kind == NFY_TOK_NAME && st->stack.v.len && t->op < 256 &&
        stmt_only_kw((uint8_t)t->op)) {
        report_unclosed(s, &st->stack, 0);
        fl = PF_BREAK;
        st->recovering = true;
    }
    /* did a NEWLINE (or INDENT/DEDENT) end the previous logical line? */
    bool after_newline = prev_kind == NFY_TOK_NEWLINE ||
                         prev_kind == NFY_TOK_INDENT ||
                         prev_kind == NFY_TOK_DEDENT;
    if (!st->stack.v.len && !after_newline &&
        (st->recovering || !continued(s, t)))
        fl |= PF_BREAK;
    return fl;
}

/* Record a line end at position p (its record r). */
static void line_break(syn *s, pass1 *st, syn_pos *r, uint32_t p)
{
    SYN_PUSH(&s->breaks, p);
    if (st->semi)
        r->flags |= PF_SEMI;
    st->semi = false;
}

/* An opener or closer (bracket id b) at position p, token i. */
static void bracket(syn *s, pass1 *st, unsigned b, uint32_t p, uint32_t i)
{
    bstack *k = &st->stack;
    if (b & BR_OPEN) {
        SYN_PUSH(&k->v, p);
        k->count[b & BR_KIND]++;
        return;
    }
    size_t top = k->v.len;
    uint32_t o = top ? k->v.items[top - 1] : 0;
    if (top && kind_of(s->pos[o].op) == (b & BR_KIND)) {
        /* the common case: the closer matches the top */
        k->v.len--;
        k->count[b & BR_KIND]--;
        s->pos[o].match = p;
        s->pos[p].match = o;
        s->match[s->pos[o].tok] = i;
        s->match[i] = s->pos[o].tok;
    } else {
        close_bracket(s, k, p);
    }
}

/* The tail of a position of class TC_END at p. */
static void end_of_line(syn *s, pass1 *st, uint32_t p)
{
    line_break(s, st, &s->pos[p], p);
    if (st->stack.v.len)
        report_unclosed(s, &st->stack, 0);
    st->recovering = false;
}

void syn_pass1(syn *s)
{
    pass1 st = {{{0}, {0, 0, 0}}, false, false};
    const nfy_token *toks = s->toks;
    syn_pos *r = s->pos;        /* the next position's record */
    uint32_t *match = s->match; /* every match starts as NFY_NONE */
    uint32_t n = s->ntoks, p = 0;
    uint32_t prev_end_line = UINT32_MAX; /* of the previous position */
    unsigned prev_kind = NFY_TOK_ENDMARKER;
    bool any_bad = false;
    for (uint32_t i = 0; i < n; i++) {
        const nfy_token *t = &toks[i];
        unsigned kind = t->kind, cls = class_of(kind);
        match[i] = NFY_NONE;
        if (cls == TC_SKIP)
            continue;
        uint32_t o = t->op;
        r->tok = i;
        r->match = NFY_NONE;
        r->kind = (uint8_t)kind;
        r->flags = 0;
        r->kw = 0;
        r->op = 0;
        if (t->line > prev_end_line && p > 0) {
            r->flags = line_start_flags(s, &st, t, prev_kind);
            if (r->flags)
                line_break(s, &st, r, p);
        }
        prev_end_line = t->end_line;
        prev_kind = kind;
        switch (cls) {
        case TC_NAME: /* pylex's keyword id */
            r->kw = o < 256 ? (uint8_t)o : 0;
            break;
        case TC_OP:
            r->op = (uint8_t)o;
            if (o < sizeof bracket_of && bracket_of[o])
                bracket(s, &st, bracket_of[o], p, i);
            else if (o == NFY_OP_SEMI)
                st.semi = true;
            break;
        case TC_END:
            end_of_line(s, &st, p);
            break;
        case TC_BAD:
            any_bad = true;
            break;
        default:
            break;
        }
        p++;
        r++;
    }
    if (any_bad)
        s->any_bad = true;
    s->nsig = p;
    nfy_vec_free(&st.stack.v);
}
