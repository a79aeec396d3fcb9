/*
 * The pylex driver: Python 3.11's Lib/tokenize.py _tokenize() redone over
 * bytes. nfy_lex_lex sets the lexer up (BOM, encoding checks, the line table),
 * lex_hot.c walks the lines, and at the end of the input this file
 * synthesises tokenize's NEWLINE, DEDENTs and ENDMARKER. Where tokenize
 * raises (unterminated strings at EOF, EOF inside brackets, inconsistent
 * dedents, undecodable bytes) we emit a diagnostic and keep going, so the
 * tokens always cover every byte.
 *
 * Byte ownership: every byte between two tokens is trivia of the second
 * one; zero-width tokens (DEDENT, the synthesised NEWLINE, ENDMARKER) sit at
 * an offset and report tokenize's positions in line/col.
 */
#include <stdlib.h>
#include <string.h>

#include "pylex/lex_internal.h"
#include "pylex/lex_state.h"
#include "pylex/tokpos.h"

#if defined(__SSE2__) && defined(__GNUC__)
#    include <emmintrin.h>
#endif

enum { DIAG_CAP = 64 };

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

uint32_t nfy__lex_next_high(const char *s, uint32_t from, uint32_t n)
{
    uint32_t i = from;
#if defined(__SSE2__) && defined(__GNUC__)
    while (i + 64 <= n) { /* 64 bytes, one test: the sign bits of any */
        const __m128i *v = (const __m128i *)(const void *)(s + i);
        __m128i any = _mm_or_si128(
            _mm_or_si128(_mm_loadu_si128(v), _mm_loadu_si128(v + 1)),
            _mm_or_si128(_mm_loadu_si128(v + 2), _mm_loadu_si128(v + 3)));
        if (_mm_movemask_epi8(any))
            break;
        i += 64;
    }
#endif
    while (i + 32 <= n) { /* four words at a time */
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

void nfy__lex_finish(nfy__lexer *lx, bool any_line, bool ws_eof)
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

/* ---- Encoding ----------------------------------------------------------- */

/* Report the first undecodable byte; tokenize cannot read such a file. */
static void check_utf8(nfy__lexer *lx)
{
    const char *s = lx->s;
    uint32_t i = lx->next_high, n = lx->n, bad = 0, first = 0;
    while (i < n) {
        if (!((unsigned char)s[i] & 0x80)) {
            i = nfy__lex_next_high(s, i, n);
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

/* Room for exactly n items: NFY_VEC rounds up to a power of two, which on
   a big file leaves up to half the array unused. */
static void resize_exact(void **items, size_t *cap, size_t n, size_t elem)
{
    void *p = realloc(*items, (n ? n : 1) * elem);
    if (!p)
        abort();
    *items = p;
    *cap = n;
}

/* For an emptied vector: a fresh block, as a realloc would copy the
   contents left from the last file. */
static void reserve_exact(void **items, size_t *cap, size_t n, size_t elem)
{
    if (*cap >= n)
        return;
    free(*items);
    *items = NULL;
    resize_exact(items, cap, n, elem);
}

/* Drop the spare room once the count is known (a shrinking realloc stays
   in place or remaps: no copy). */
static void trim(nfy_tokens *out)
{
    nfy__tokpos_cache *c = out->tokpos;
    resize_exact((void **)&out->toks.items, &out->toks.cap, out->toks.len,
                 sizeof *out->toks.items);
    resize_exact((void **)&c->items, &c->cap, c->len, sizeof *c->items);
}

/* keep: the arrays go back to a scratch after the file, so their spare
   room is kept for the next one rather than trimmed. */
static nfy_status lex_into(const nfy_source *src, nfy_tokens *out,
                           nfy_diags *diags, bool keep)
{
    out->toks.len = 0;
    if (!out->tokpos) {
        out->tokpos = calloc(1, sizeof *out->tokpos);
        if (!out->tokpos)
            abort();
    }
    nfy_lex_tokpos_reset(out->tokpos, out->toks.items);
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
    lx.next_high = nfy__lex_next_high(lx.s, lx.body, lx.n);
    if (src->line_starts && !memchr(lx.s, '\r', lx.n)) {
        lx.line_starts = src->line_starts; /* then its lines are ours */
        lx.nlines = src->nlines;
    }
    lx.fbudget = lx.n < (UINT32_MAX >> 3) ? 4 * lx.n + (1u << 20)
                                          : UINT32_MAX; /* linear work */
    size_t guess = lx.n / 5 + 16; /* ~6 bytes a token; trim() drops the rest */
    reserve_exact((void **)&out->toks.items, &out->toks.cap, guess,
                  sizeof *out->toks.items);
    reserve_exact((void **)&out->tokpos->items, &out->tokpos->cap, guess,
                  sizeof *out->tokpos->items); /* a record per token */
    nfy_vec_push(&lx.indents, 0u);
    check_utf8(&lx);
    nfy__lex_check_cookie(&lx);
    nfy__lex_lines(&lx);
    nfy__tokpos_build(out->tokpos, out->toks.items, out->toks.len);
    if (!keep)
        trim(out);
    out->tokpos->of = out->toks.items; /* the array may have moved */
    nfy_vec_free(&lx.indents);
    return NFY_OK;
}

nfy_status nfy_lex_lex(const nfy_source *src, nfy_tokens *out, nfy_diags *diags)
{
    return lex_into(src, out, diags, false);
}

nfy_status nfy_lex_reuse(const nfy_source *src, nfy_tokens *out,
                         nfy_diags *diags, nfy_lex_scratch *sc)
{
    if (!out->toks.items && !out->tokpos) { /* empty: take the spare */
        *out = sc->spare;
        nfy_lex_tokens_init(&sc->spare);
    }
    return lex_into(src, out, diags, true);
}
