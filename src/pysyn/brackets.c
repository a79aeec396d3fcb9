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

static bool is_closer(uint32_t op)
{
    return op == NFY_OP_RPAR || op == NFY_OP_RSQB || op == NFY_OP_RBRACE;
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

static unsigned kind_of(uint32_t op)
{
    return op == NFY_OP_LPAR || op == NFY_OP_RPAR   ? 0
           : op == NFY_OP_LSQB || op == NFY_OP_RSQB ? 1
                                                    : 2;
}

static void push_open(syn *s, bstack *b, uint32_t p)
{
    SYN_PUSH(&b->v, p);
    b->count[kind_of(syn_op(s, p))]++;
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
    s->pmatch[o] = p;
    s->pmatch[p] = o;
    s->match[s->sig[o]] = s->sig[p];
    s->match[s->sig[p]] = s->sig[o];
}

/* Did a NEWLINE (or INDENT/DEDENT) end the previous logical line? */
static bool after_newline(const syn *s, uint32_t p)
{
    uint16_t k = syn_kind(s, p - 1);
    return k == NFY_TOK_NEWLINE || k == NFY_TOK_INDENT || k == NFY_TOK_DEDENT;
}

/* A backslash continuation in the token's leading trivia. */
static bool continued(const syn *s, const nfy_token *t)
{
    return memchr(s->src->data + t->trivia_start, '\\',
                  t->start - t->trivia_start) != NULL;
}

void syn_pass1(syn *s)
{
    bstack stack = {{0}, {0, 0, 0}};
    /* after a recovery the tokenizer still thinks brackets are open (no
       NEWLINE/INDENT/DEDENT) until its count drops to 0: there, every
       physical line outside our own brackets starts a logical line; the
       same holds for any line the tokenizer joined while no bracket of ours
       is open and no backslash joins it */
    bool recovering = false;
    uint32_t p = 0;
    uint32_t prev_end_line = UINT32_MAX; /* of the previous position */
    /* every match starts as NFY_NONE (all bits set); closers fill pairs */
    memset(s->match, 0xff, (size_t)s->ntoks * sizeof *s->match);
    for (uint32_t i = 0; i < s->ntoks; i++) {
        const nfy_token *t = &s->toks[i];
        unsigned kind = t->kind;
        if (kind == NFY_TOK_COMMENT || kind == NFY_TOK_NL)
            continue;
        bool new_line = p > 0 && t->line > prev_end_line;
        prev_end_line = t->end_line;
        s->sig[p] = i;
        s->pmatch[p] = NFY_NONE;
        s->pflags[p] = 0;
        s->pk[p] = (uint8_t)kind;
        if (kind == NFY_TOK_ERRORTOKEN)
            s->any_bad = true;
        /* pylex's keyword id of a NAME; the operator id of an OP */
        s->kw[p] = kind == NFY_TOK_NAME && t->op < 256 ? (uint8_t)t->op : 0;
        s->pop[p] = kind == NFY_TOK_OP ? (uint8_t)t->op : 0;
        if (kind == NFY_TOK_NAME) {
            if (stack.v.len && new_line && stmt_only_kw(s->kw[p])) {
                report_unclosed(s, &stack, 0);
                s->pflags[p] |= PF_BREAK;
                recovering = true;
            }
        }
        if (new_line && !stack.v.len && !after_newline(s, p) &&
            (recovering || !continued(s, t)))
            s->pflags[p] |= PF_BREAK;
        if (kind == NFY_TOK_OP) {
            if (closer_of(t->op) != NFY_OP_NONE)
                push_open(s, &stack, p);
            else if (is_closer(t->op))
                close_bracket(s, &stack, p);
        } else if (kind != NFY_TOK_STRING && kind != NFY_TOK_NUMBER &&
                   kind != NFY_TOK_ERRORTOKEN && kind != NFY_TOK_NAME) {
            /* NEWLINE, INDENT, DEDENT, ENDMARKER end every bracket */
            report_unclosed(s, &stack, 0);
            recovering = false;
        }
        p++;
    }
    s->nsig = p;
    nfy_vec_free(&stack.v);
}
