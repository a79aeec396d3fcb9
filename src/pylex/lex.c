/*
 * The pylex driver: Python 3.11's Lib/tokenize.py _tokenize() loop redone
 * over bytes. It walks physical lines (split at '\n' only, as tokenize's
 * readline does), measures indentation at the start of each statement,
 * turns blank and comment-only lines into NL, runs the pseudo-token loop
 * over the rest, and at the end of the input synthesises tokenize's NEWLINE,
 * DEDENTs and ENDMARKER. Where tokenize raises (unterminated strings at EOF,
 * EOF inside brackets, inconsistent dedents, undecodable bytes) we emit a
 * diagnostic and keep going, so the tokens always cover every byte.
 *
 * Byte ownership: every byte between two tokens is trivia of the second
 * one; zero-width tokens (DEDENT, the synthesised NEWLINE, ENDMARKER) sit at
 * an offset and report tokenize's positions in line/col.
 */
#include "pylex/lex_internal.h"
#include "pylex/lex_state.h"

#include <string.h>

enum { DIAG_CAP = 64, TABSIZE = 8 };

/* ---- Emitting ----------------------------------------------------------- */

void nfy__lex_diag(nfy__lexer *lx, const char *code, uint32_t off, uint32_t len,
                   const char *msg)
{
    if (!lx->diags)
        return;
    lx->ndiags++;
    if (lx->ndiags < DIAG_CAP)
        nfy_diag_add(lx->diags, NFY_SEV_ERROR, code, lx->src, off, len, "%s",
                     msg);
    else if (lx->ndiags == DIAG_CAP)
        nfy_diag_add(lx->diags, NFY_SEV_NOTE, "lex-too-many-errors", lx->src,
                     off, len,
                     "further lexical errors in this file are not "
                     "reported");
}

/* Offset of the first byte >= 0x80 at or after from (n if none). */
static uint32_t next_high_byte(const char *s, uint32_t from, uint32_t n)
{
    uint32_t i = from;
    while (i + 32 <= n) { /* four words at a time: vectorizes */
        uint64_t w[4];
        memcpy(w, s + i, sizeof w);
        if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ull)
            break;
        i += 32;
    }
    while (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ull)
            break;
        i += 8;
    }
    while (i < n && !((unsigned char)s[i] & 0x80))
        i++;
    return i;
}

uint32_t nfy__lex_col_slow(nfy__lexer *lx, uint32_t off)
{
    if (off < lx->col_off) {
        lx->col_off = lx->ls;
        lx->col_val = 0;
    }
    lx->col_val += nfy__lex_count_cps(lx->s, lx->col_off, off);
    lx->col_off = off;
    return lx->col_val;
}

void nfy__lex_grow(nfy__lexer *lx)
{
    nfy_vec_reserve(&lx->out->toks, 1);
}

void nfy__lex_set_line(nfy__lexer *lx, uint32_t ls)
{
    lx->ls = ls;
    const char *nl = memchr(lx->s + ls, '\n', lx->n - ls);
    lx->le = nl ? (uint32_t)(nl - lx->s) + 1 : lx->n;
    lx->col_off = ls;
    lx->col_val = 0;
    if (lx->next_high < ls)
        lx->next_high = next_high_byte(lx->s, ls, lx->n);
}

void nfy__lex_advance_to(nfy__lexer *lx, uint32_t end)
{
    while (end > lx->le && lx->le < lx->n) {
        lx->lnum++;
        nfy__lex_set_line(lx, lx->le);
    }
}

/* ---- Start of a statement line ------------------------------------------ */

enum line_kind { LINE_CODE, LINE_BLANK, LINE_WS_EOF };

static void push_indent(nfy__lexer *lx, uint32_t column, uint32_t start,
                        uint32_t p)
{
    nfy_vec_push(&lx->indents, column);
    nfy__lex_emit(lx, NFY_TOK_INDENT, start, p);
}

static void dedent_to(nfy__lexer *lx, uint32_t column, uint32_t p)
{
    while (column < lx->indents.items[lx->indents.len - 1]) {
        lx->indents.len--;
        nfy__lex_emit(lx, NFY_TOK_DEDENT, p, p);
    }
    if (column > lx->indents.items[lx->indents.len - 1]) {
        /* tokenize raises IndentationError; keep INDENT/DEDENT balanced */
        nfy__lex_diag(lx, "lex-dedent", p, 1,
                      "unindent does not match any outer indentation level");
        push_indent(lx, column, p, p); /* after the DEDENTs: zero width */
    }
}

/* A comment-only or blank line: COMMENT (up to trailing CR/LFs) and NL. */
static void blank_line(nfy__lexer *lx, uint32_t p)
{
    if (lx->s[p] == '#') {
        uint32_t cend = lx->le;
        while (cend > p && (lx->s[cend - 1] == '\r' || lx->s[cend - 1] == '\n'))
            cend--;
        nfy__lex_emit(lx, NFY_TOK_COMMENT, p, cend);
        p = cend;
    }
    nfy__lex_emit(lx, NFY_TOK_NL, p, lx->le);
}

static enum line_kind statement_start(nfy__lexer *lx, uint32_t *pos)
{
    const char *s = lx->s;
    uint32_t column = 0, p = lx->ls;
    for (;; p++) { /* the line ends with '\n' or the source's NUL */
        uint32_t run = p;
        while (p + 8 <= lx->n && !memcmp(s + p, "        ", 8))
            p += 8;
        while (s[p] == ' ')
            p++;
        column += p - run;
        if (s[p] == '\t')
            column = (column / TABSIZE + 1) * TABSIZE;
        else if (s[p] == '\f')
            column = 0;
        else
            break;
    }
    if (p == lx->le)
        return LINE_WS_EOF;
    if (s[p] == '#' || s[p] == '\r' || s[p] == '\n') {
        blank_line(lx, p);
        return LINE_BLANK;
    }
    if (column > lx->indents.items[lx->indents.len - 1])
        push_indent(lx, column, lx->ls, p);
    else
        dedent_to(lx, column, p);
    *pos = p;
    return LINE_CODE;
}

/* ---- End of input ------------------------------------------------------- */

/* Python's str.isspace() for the code points str.strip() removes. */
static bool is_py_space(uint32_t cp)
{
    if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F))
        return true;
    return cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
           cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

/* tokenize: last_line.strip().startswith("#") */
static bool starts_with_comment(const char *s, uint32_t a, uint32_t b)
{
    while (a < b) {
        uint32_t cp, len = nfy__lex_utf8(s + a, b - a, &cp);
        if (!len || !is_py_space(cp))
            return len && cp == '#';
        a += len;
    }
    return false;
}

static void finish(nfy__lexer *lx, bool any_line, bool ws_eof)
{
    uint32_t n = lx->n;
    if (!ws_eof) {
        if (lx->parenlev != 0 || lx->continued)
            nfy__lex_diag(lx, "lex-eof-in-statement", n, 0,
                          lx->parenlev > 0 ? "end of file inside brackets"
                                           : "end of file inside a statement");
        uint32_t ls = lx->ls, le = lx->le;
        if (any_line && le > ls && lx->s[le - 1] != '\n' &&
            lx->s[le - 1] != '\r' && !starts_with_comment(lx->s, ls, le)) {
            uint32_t col = nfy__lex_col(lx, le);
            nfy_token *t = nfy__lex_push(lx, NFY_TOK_NEWLINE, n, n);
            t->line = t->end_line = lx->lnum;
            t->col = col;
            t->end_col = col + 1;
        }
        lx->lnum++;
    }
    for (size_t i = 1; i < lx->indents.len; i++) {
        nfy_token *t = nfy__lex_push(lx, NFY_TOK_DEDENT, n, n);
        t->line = t->end_line = lx->lnum;
        t->col = t->end_col = 0;
    }
    nfy_token *t = nfy__lex_push(lx, NFY_TOK_ENDMARKER, n, n);
    t->line = t->end_line = lx->lnum;
    t->col = t->end_col = 0;
}

static void lex_lines(nfy__lexer *lx)
{
    uint32_t next = lx->body;
    bool any_line = false;
    for (;;) {
        if (next >= lx->n) {
            finish(lx, any_line, false);
            return;
        }
        any_line = true;
        lx->lnum++;
        nfy__lex_set_line(lx, next);
        uint32_t p = lx->ls;
        if (lx->parenlev == 0 && !lx->continued) {
            enum line_kind k = statement_start(lx, &p);
            if (k == LINE_WS_EOF) {
                finish(lx, true, true);
                return;
            }
            if (k == LINE_BLANK) {
                next = lx->le;
                continue;
            }
        } else {
            lx->continued = false;
        }
        nfy__lex_line_tokens(lx, p);
        next = lx->le;
    }
}

/* ---- Encoding ----------------------------------------------------------- */

/* Report the first undecodable byte; tokenize cannot read such a file. */
static void check_utf8(nfy__lexer *lx)
{
    const char *s = lx->s;
    uint32_t i = lx->body, n = lx->n, bad = 0, first = 0;
    while (i < n) {
        if (!((unsigned char)s[i] & 0x80)) {
            i = next_high_byte(s, i, n);
            continue;
        }
        uint32_t cp, len = nfy__lex_utf8(s + i, n - i, &cp);
        if (!len && bad++ == 0)
            first = i;
        i += len ? len : 1;
    }
    if (bad)
        nfy__lex_diag(lx, "lex-invalid-utf8", first, 1,
                      "invalid UTF-8 (Python cannot decode this file); "
                      "each bad byte becomes an ERRORTOKEN");
}

nfy_status nfy_lex(const nfy_source *src, nfy_tokens *out, nfy_diags *diags)
{
    out->toks.len = 0;
    if (src->len > NFY_SOURCE_MAX_BYTES || src->len >= UINT32_MAX - 8)
        return NFY_ELIMIT;
    nfy__lexer lx;
    memset(&lx, 0, sizeof lx);
    lx.s = src->data ? src->data : "";
    lx.n = (uint32_t)src->len;
    lx.src = src;
    lx.out = out;
    lx.diags = diags;
    if (lx.n >= 3 && !memcmp(lx.s, "\xEF\xBB\xBF", 3))
        lx.body = 3;
    lx.ls = lx.le = lx.col_off = lx.body;
    lx.next_high = next_high_byte(lx.s, lx.body, lx.n);
    lx.fbudget = lx.n < (UINT32_MAX >> 3) ? 4 * lx.n + (1u << 20)
                                          : UINT32_MAX; /* linear work */
    nfy_vec_reserve(&out->toks, lx.n / 8 + 16);
    nfy_vec_push(&lx.indents, 0u);
    check_utf8(&lx);
    nfy__lex_check_cookie(&lx);
    lex_lines(&lx);
    nfy_vec_free(&lx.indents);
    return NFY_OK;
}
