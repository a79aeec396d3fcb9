/*
 * Pass 1: bracket matching and logical line ends over the significant
 * positions (pylex's summary, whose hints say which positions need a look).
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
#include <stddef.h>
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
        s->pflags[pop_open(s, b)] |= PF_ERROR;
    nfy__pysyn_error(
        s, outer, "syn-unclosed",
        n == 1 ? "this bracket is never closed"
               : "this bracket and the ones opened after it are never "
                 "closed");
}

/* A closer at position p with the opener stack. */
static void close_bracket(syn *s, bstack *b, uint32_t p)
{
    uint32_t op = syn_op(s, p);
    if (!b->count[kind_of(op)]) {
        nfy__pysyn_error(s, p, "syn-unmatched",
                         "closing bracket matches nothing");
        return;
    }
    size_t i = b->v.len;
    while (closer_of(syn_op(s, b->v.items[i - 1])) != op)
        i--;
    report_unclosed(s, b, i);
    uint32_t o = pop_open(s, b);
    s->pmatch[o] = p;
    s->pmatch[p] = o;
    s->match[s->pos[o].tok] = s->pos[p].tok;
    s->match[s->pos[p].tok] = s->pos[o].tok;
}

/* A backslash continuation in the token's leading trivia. */
static bool continued(const syn *s, const nfy_token *t)
{
    return memchr(s->src->data + t->trivia_start, '\\',
                  t->start - t->trivia_start) != NULL;
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

/* Flags of position p, which starts a new physical line, after a
   position of kind prev_kind. (The token itself is read only for a
   backslash: the tokens are far bigger than the positions.) */
static uint8_t line_start_flags(syn *s, pass1 *st, uint32_t p,
                                unsigned prev_kind)
{
    uint8_t fl = 0;
    const syn_pos *r = &s->pos[p]; /* kw: the keyword id of a NAME, else 0 */
    if (r->kind == NFY_TOK_NAME && st->stack.v.len && stmt_only_kw(r->kw)) {
        report_unclosed(s, &st->stack, 0);
        fl = PF_BREAK;
        st->recovering = true;
    }
    /* did a NEWLINE (or INDENT/DEDENT) end the previous logical line? */
    bool after_newline = prev_kind == NFY_TOK_NEWLINE ||
                         prev_kind == NFY_TOK_INDENT ||
                         prev_kind == NFY_TOK_DEDENT;
    if (!st->stack.v.len && !after_newline &&
        (st->recovering || !continued(s, &s->toks[r->tok])))
        fl |= PF_BREAK;
    return fl;
}

/* Record a line end at position p. */
static inline void line_break(syn *s, pass1 *st, uint32_t p)
{
    SYN_PUSH(&s->breaks, p);
    if (st->semi)
        s->pflags[p] |= PF_SEMI;
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
        s->pmatch[o] = p;
        s->pmatch[p] = o;
        s->match[s->pos[o].tok] = i;
        s->match[i] = s->pos[o].tok;
    } else {
        close_bracket(s, k, p);
    }
}

/* A line end (NEWLINE, INDENT, DEDENT, ENDMARKER) at position p. */
static void end_of_line(syn *s, pass1 *st, uint32_t p)
{
    line_break(s, st, p);
    if (st->stack.v.len)
        report_unclosed(s, &st->stack, 0);
    st->recovering = false;
}

/* One position with a hint (see nfy__pysyn_pass1). */
static void visit(syn *s, pass1 *st, uint32_t p)
{
    const syn_pos *pos = s->pos;
    unsigned h = pos[p].hints;
    uint32_t i = pos[p].tok;
    if (h & TP_LINE) {
        unsigned prev_kind = p ? pos[p - 1].kind : NFY_TOK_ENDMARKER;
        uint8_t fl = line_start_flags(s, st, p, prev_kind);
        s->pflags[p] = fl;
        if (fl)
            line_break(s, st, p);
    }
    if (!(h & TP_EVENT))
        return;
    unsigned kind = pos[p].kind, o = pos[p].op;
    if (kind == NFY_TOK_OP) {
        unsigned b = bracket_of[o & 63];
        if (b)
            bracket(s, st, b, p, i);
        else if (o == NFY_OP_SEMI)
            st->semi = true;
    } else if (kind == NFY_TOK_ERRORTOKEN) {
        s->any_bad = true;
    } else { /* NEWLINE, INDENT, DEDENT, ENDMARKER */
        end_of_line(s, st, p);
    }
}

/* Bit i of the result: position a + i (i < n <= 64) has a hint. With
   SSE2, two records a step: adding 0x7F to the hints byte (the last of
   each 8-byte record) sets its sign bit when it is nonzero (hints < 0x80),
   and movmskpd gathers the sign bits of both. */
#if defined(__SSE2__) && defined(__GNUC__) && defined(__BYTE_ORDER__) &&       \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline unsigned two_hinted(const __m128i *v)
{
    __m128i x = _mm_add_epi8(_mm_loadu_si128(v), _mm_set1_epi8(0x7F));
    return (unsigned)_mm_movemask_pd(_mm_castsi128_pd(x));
}
#endif

static uint64_t hinted_mask(const syn_pos *pos, uint32_t a, uint32_t n)
{
    uint64_t m = 0;
    uint32_t i = 0;
#if defined(__SSE2__) && defined(__GNUC__) && defined(__BYTE_ORDER__) &&       \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(sizeof(syn_pos) == 8 && offsetof(syn_pos, hints) == 7,
                   "hints is the last byte of an 8-byte record");
    const __m128i *v = (const __m128i *)(const void *)(pos + a);
    for (; i + 8 <= n; i += 8, v += 4) /* eight records a step */
        m |= (uint64_t)(two_hinted(v) | two_hinted(v + 1) << 2 |
                        two_hinted(v + 2) << 4 | two_hinted(v + 3) << 6)
             << i;
#endif
    for (; i < n; i++)
        m |= (uint64_t)(pos[a + i].hints != 0) << i;
    return m;
}

/*
 * Only positions with a hint from pylex's summary need a look: those that
 * start a physical line (a logical line may end before them) and the
 * events (brackets, ';', line ends, error tokens). Every other position
 * keeps its initial PF_* flags 0 and no partner. The hinted positions are
 * found 64 at a time as a bit mask, not one branch each (whether a
 * position has a hint follows no pattern a branch predictor could learn).
 */
void nfy__pysyn_pass1(syn *s)
{
    pass1 st = {{{0}, {0, 0, 0}}, false, false};
    uint32_t n = s->nsig;
    nfy_vec_reserve(&s->breaks, n / 4 + 16); /* about one per 8 positions */
    for (uint32_t a = 0; a < n; a += 64) {
        uint64_t m = hinted_mask(s->pos, a, n - a < 64 ? n - a : 64);
        for (; m; m &= m - 1)
            visit(s, &st, a + (uint32_t)__builtin_ctzll(m));
    }
    nfy_vec_free(&st.stack.v);
}
