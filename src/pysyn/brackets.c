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
    case KW_DEF: case KW_CLASS: case KW_IMPORT: case KW_FROM:
    case KW_RETURN: case KW_PASS: case KW_BREAK: case KW_CONTINUE:
    case KW_RAISE: case KW_TRY: case KW_WHILE: case KW_WITH: case KW_DEL:
    case KW_GLOBAL: case KW_NONLOCAL: case KW_ASSERT: case KW_ELIF:
    case KW_EXCEPT: case KW_FINALLY:
        return true;
    default:
        return false;
    }
}

static void report_unclosed(syn *s, u32_vec *stack, size_t keep)
{
    while (stack->len > keep) {
        uint32_t p = stack->items[--stack->len];
        syn_error(s, p, "syn-unclosed", "this bracket is never closed");
    }
}

/* A closer at position p with the opener stack. */
static void close_bracket(syn *s, u32_vec *stack, uint32_t p)
{
    uint32_t op = syn_tok(s, p)->op;
    size_t i = stack->len;
    while (i > 0 && closer_of(syn_tok(s, stack->items[i - 1])->op) != op)
        i--;
    if (i == 0) {
        syn_error(s, p, "syn-unmatched", "closing bracket matches nothing");
        return;
    }
    report_unclosed(s, stack, i);
    uint32_t o = stack->items[--stack->len];
    s->pmatch[o] = p;
    s->pmatch[p] = o;
}

static bool starts_line(const syn *s, uint32_t p)
{
    return p > 0 && syn_tok(s, p)->line > syn_tok(s, p - 1)->end_line;
}

static void collect_sig(syn *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->ntoks; i++) {
        uint16_t k = s->toks[i].kind;
        if (k != NFY_TOK_COMMENT && k != NFY_TOK_NL)
            s->sig[n++] = i;
    }
    s->nsig = n;
}

void syn_pass1(syn *s)
{
    collect_sig(s);
    u32_vec stack = {0};
    /* after a recovery the tokenizer still thinks brackets are open (no
       NEWLINE/INDENT/DEDENT) until its count drops to 0: there, every
       physical line outside our own brackets starts a logical line */
    bool recovering = false;
    for (uint32_t p = 0; p < s->nsig; p++) {
        const nfy_token *t = syn_tok(s, p);
        s->pmatch[p] = NFY_NONE;
        s->kw[p] = 0;
        s->pflags[p] = 0;
        if (t->kind == NFY_TOK_NAME) {
            s->kw[p] = syn_keyword(s->src->data + t->start, t->end - t->start);
            if (stack.len && stmt_only_kw(s->kw[p]) && starts_line(s, p)) {
                report_unclosed(s, &stack, 0);
                s->pflags[p] |= PF_BREAK;
                recovering = true;
            }
        }
        if (recovering && !stack.len && starts_line(s, p))
            s->pflags[p] |= PF_BREAK;
        if (t->kind == NFY_TOK_OP) {
            if (closer_of(t->op) != NFY_OP_NONE)
                nfy_vec_push(&stack, p);
            else if (is_closer(t->op))
                close_bracket(s, &stack, p);
        } else if (t->kind != NFY_TOK_STRING && t->kind != NFY_TOK_NUMBER &&
                   t->kind != NFY_TOK_ERRORTOKEN && t->kind != NFY_TOK_NAME) {
            /* NEWLINE, INDENT, DEDENT, ENDMARKER end every bracket */
            report_unclosed(s, &stack, 0);
            recovering = false;
        }
    }
    nfy_vec_free(&stack);
}
