/*
 * The tokenizer's running state (one per nfy_lex_lex call, on the stack) and
 * the helpers the driver (lex.c) and the token loop (lex_line.c) share.
 * Mirrors the local variables of tokenize._tokenize(): the current physical
 * line, parenlev, continued, needcont and the indents stack.
 */
#ifndef NPUIFY_PYLEX_LEX_STATE_H
#define NPUIFY_PYLEX_LEX_STATE_H

#include "pylex/pylex.h"

typedef struct {
    const char *s;
    uint32_t n;
    uint32_t body; /* offset after a UTF-8 BOM */
    const nfy_source *src;
    nfy_tokens *out;
    nfy_diags *diags;
    uint32_t ndiags;
    uint32_t lnum;    /* 1-based number of the current line */
    uint32_t ls, le;  /* current line [ls, le), le after its '\n' */
    uint32_t col_off; /* column cache: col_val code points in [ls, col_off) */
    uint32_t col_val;
    uint32_t next_high; /* first byte >= 0x80 at or after ls (n if none) */
    uint32_t prev_end;  /* end of the last token: the next one's trivia start */
    int32_t parenlev;   /* may go negative, as in tokenize */
    bool continued;     /* the line ended with a backslash continuation */
    bool needcont;      /* tokenize's needcont, never reset after an error */
    uint32_t fbudget;   /* bytes PEP 701 f-string scans may still look at */
    const uint32_t *line_starts; /* the source's line table when it splits
                                    like tokenize (no '\r' in the file), or
                                    NULL: then lines are found by memchr */
    size_t nlines;
    NFY_VEC(uint32_t) indents;
} nfy__lexer;

void nfy__lex_diag(nfy__lexer *lx, const char *code, uint32_t off, uint32_t len,
                   const char *msg);
uint32_t nfy__lex_col_slow(nfy__lexer *lx, uint32_t off);
void nfy__lex_grow(nfy__lexer *lx);

/** Column (code points from the current line's start) of off. */
static inline uint32_t nfy__lex_col(nfy__lexer *lx, uint32_t off)
{
    if (off <= lx->next_high) /* all ASCII: bytes are code points */
        return off - lx->ls;
    return nfy__lex_col_slow(lx, off);
}

/** Append a token with trivia from the previous end; positions unset. */
static inline nfy_token *nfy__lex_push(nfy__lexer *lx, unsigned kind,
                                       uint32_t start, uint32_t end)
{
    nfy_tokens *out = lx->out;
    if (out->toks.len == out->toks.cap)
        nfy__lex_grow(lx);
    nfy_token *t = &out->toks.items[out->toks.len++];
    t->trivia_start = lx->prev_end;
    t->start = start;
    t->end = end;
    t->kind = (uint8_t)kind;
    t->flags = 0;
    t->op = 0;
    lx->prev_end = end;
    return t;
}

/** Append a token lying on the current line. */
static inline nfy_token *nfy__lex_emit(nfy__lexer *lx, unsigned kind,
                                       uint32_t start, uint32_t end)
{
    nfy_token *t = nfy__lex_push(lx, kind, start, end);
    t->line = t->end_line = lx->lnum;
    t->col = nfy__lex_col(lx, start);
    t->end_col = nfy__lex_col(lx, end);
    return t;
}

/** Move the current line forward to the one holding end (a token's end;
    lex_hot.c). */
void nfy__lex_advance_to(nfy__lexer *lx, uint32_t end);
/** First byte >= 0x80 at or after from, n if none (lex.c). */
uint32_t nfy__lex_next_high(const char *s, uint32_t from, uint32_t n);
/** tokenize's end of input: NEWLINE, DEDENTs, ENDMARKER (lex.c). */
void nfy__lex_finish(nfy__lexer *lx, bool any_line, bool ws_eof);
/** All lines of the file from lx->body, then nfy__lex_finish (lex_hot.c). */
void nfy__lex_lines(nfy__lexer *lx);
/** One pseudo-token from p, whitespace [p, q) before it (lex_line.c). */
uint32_t nfy__lex_next_token(nfy__lexer *lx, uint32_t p, uint32_t q);
/** The general loop to the end of the current line from p (lex_line.c). */
void nfy__lex_slow_line(nfy__lexer *lx, uint32_t p);
/** Note a coding cookie that is not UTF-8 (lex_line.c). */
void nfy__lex_check_cookie(nfy__lexer *lx);

#endif
