/*
 * The lexer's main loop: walks physical lines (split at '\n' only, as
 * tokenize's readline does), measures indentation at the start of each
 * statement, turns blank and comment-only lines into NL and runs the
 * pseudo-token loop over the rest. That loop has a fast path for lines
 * without bytes >= 0x80 (columns are byte offsets there) which keeps its
 * state in locals and handles names, operators, newlines, numbers,
 * comments and one-line strings inline; everything else goes to the
 * general per-token code of lex_line.c. The lexer driver (lex.c) calls
 * nfy__lex_lines once per file.
 */
#include <string.h>

#include "pylex/lex_internal.h"
#include "pylex/lex_state.h"

#if defined(__SSE2__) && defined(__GNUC__)
#    include <emmintrin.h>
#endif

enum { TABSIZE = 8 };

/* ---- Lines -------------------------------------------------------------- */

/* End of the line lnum starting at ls: from the source's line table when
   it can be used and agrees (the line ends with '\n'), else by memchr. */
static uint32_t line_end(const nfy__lexer *lx, uint32_t ls)
{
    if (lx->line_starts && lx->lnum < lx->nlines) {
        uint32_t le = lx->line_starts[lx->lnum];
        if (le > ls && le <= lx->n && lx->s[le - 1] == '\n')
            return le;
    }
    const char *nl = memchr(lx->s + ls, '\n', lx->n - ls);
    return nl ? (uint32_t)(nl - lx->s) + 1 : lx->n;
}

/* Make the line starting at ls current (lnum is not touched). */
static inline void set_line(nfy__lexer *lx, uint32_t ls)
{
    lx->ls = ls;
    lx->le = line_end(lx, ls);
    lx->col_off = ls;
    lx->col_val = 0;
    if (lx->next_high < ls)
        lx->next_high = nfy__lex_next_high(lx->s, ls, lx->n);
}

void nfy__lex_advance_to(nfy__lexer *lx, uint32_t end)
{
    while (end > lx->le && lx->le < lx->n) {
        lx->lnum++;
        set_line(lx, lx->le);
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

/* ---- The fast token loop ------------------------------------------------ */

/* Operators that never combine with what follows: the id (0 for every
   other byte) and the change to parenlev, without a call. */
static const unsigned char simple_op_id[256] = {
    ['('] = NFY_OP_LPAR,  [')'] = NFY_OP_RPAR,   ['['] = NFY_OP_LSQB,
    [']'] = NFY_OP_RSQB,  ['{'] = NFY_OP_LBRACE, ['}'] = NFY_OP_RBRACE,
    [','] = NFY_OP_COMMA, [';'] = NFY_OP_SEMI,   ['~'] = NFY_OP_TILDE,
};
static const signed char simple_op_paren[256] = {
    ['('] = 1, [')'] = -1, ['['] = 1, [']'] = -1, ['{'] = 1, ['}'] = -1,
};

/*
 * The fast loop's copies of the lexer fields it touches. Kept in locals so
 * that stores into the token array (uint32_t, like the lexer's fields) do
 * not make the compiler reload them after every token.
 */
typedef struct {
    nfy_token *items;
    size_t len, cap;
    uint32_t prev_end, lnum, ls, le;
    int32_t parenlev;
} hot_state;

static void hot_load(hot_state *h, const nfy__lexer *lx)
{
    h->items = lx->out->toks.items;
    h->len = lx->out->toks.len;
    h->cap = lx->out->toks.cap;
    h->prev_end = lx->prev_end;
    h->lnum = lx->lnum;
    h->ls = lx->ls;
    h->le = lx->le;
    h->parenlev = lx->parenlev;
}

static void hot_store(const hot_state *h, nfy__lexer *lx)
{
    lx->out->toks.len = h->len;
    lx->prev_end = h->prev_end;
    lx->parenlev = h->parenlev;
}

/*
 * A token on the current, all-ASCII line: columns are byte offsets. No
 * capacity check: the fast loop reserves a token per byte of the line
 * left first, and each of its tokens takes at least one byte.
 */
static inline nfy_token *hot_emit(hot_state *h, unsigned kind, uint32_t a,
                                  uint32_t b, uint32_t op)
{
    nfy_token *t = &h->items[h->len++];
    t->trivia_start = h->prev_end;
    t->start = a;
    t->end = b;
    t->line = h->lnum;
    t->col = a - h->ls;
    t->end_line = h->lnum;
    t->end_col = b - h->ls;
    t->kind = (uint16_t)kind;
    t->flags = 0;
    t->op = op;
    h->prev_end = b;
    return t;
}

/*
 * The end of a run of ASCII word bytes ([0-9A-Za-z_]) from u; lim is the
 * end of the readable buffer. With SSE2 (every x86-64) 16 bytes are
 * classified at once, so most names take one step and no per-byte branch;
 * elsewhere, and near the end of the buffer, a table loop, which stops at
 * the line's '\n' or the source's final NUL.
 */
static inline const unsigned char *word_run(const unsigned char *u,
                                            const unsigned char *lim)
{
#if defined(__SSE2__) && defined(__GNUC__)
    while (lim - u >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)u);
        __m128i low = _mm_or_si128(v, _mm_set1_epi8(0x20)); /* A-Z -> a-z */
        /* signed compares: bytes >= 0x80 are negative and match nothing */
        __m128i alpha =
            _mm_and_si128(_mm_cmpgt_epi8(low, _mm_set1_epi8('a' - 1)),
                          _mm_cmplt_epi8(low, _mm_set1_epi8('z' + 1)));
        __m128i digit =
            _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                          _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
        __m128i under = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
        unsigned word = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_or_si128(alpha, digit), under));
        if (word != 0xFFFFu)
            return u + __builtin_ctz(~word);
        u += 16;
    }
#else
    (void)lim;
#endif
    while (nfy__lex_ascii_word[*u])
        u++;
    return u;
}

/* An ASCII name from q (no string prefix here): its end. */
static inline uint32_t hot_name(hot_state *h, nfy__lexer *lx, uint32_t q)
{
    const unsigned char *s = (const unsigned char *)lx->s;
    uint32_t e = (uint32_t)(word_run(s + q + 1, s + lx->n + 1) - s);
    hot_emit(h, NFY_TOK_NAME, q, e,
             nfy__lex_keyword(lx->s + q, e - q, lx->n + 1 - q));
    return e;
}

/* A plain string closed on its own line (not triple-quoted, not an
   f-string); 0 for the others, which take the general path. */
static inline uint32_t hot_string(hot_state *h, nfy__lexer *lx, uint32_t q)
{
    nfy__lex_strstart st;
    uint32_t end;
    if (!nfy__lex_string_start(lx->s, q, h->le, &st) ||
        (st.flags & (NFY_TOKF_TRIPLE | NFY_TOKF_FSTRING)) ||
        nfy__lex_contstr(lx->s, q + st.plen + 1, h->le, st.quote, &end) !=
            LEX_STR_END)
        return 0;
    hot_emit(h, NFY_TOK_STRING, q, end, 0)->flags = st.flags;
    return end;
}

/* A comment from q up to the first CR or LF of the line (the line's only
   LF is its last byte, so one memchr for a CR before it finds the end). */
static inline uint32_t hot_comment(hot_state *h, nfy__lexer *lx, uint32_t q)
{
    const char *s = lx->s;
    uint32_t le = h->le;
    uint32_t e = le > q && s[le - 1] == '\n' ? le - 1 : le;
    const char *cr = memchr(s + q, '\r', e - q);
    if (cr)
        e = (uint32_t)(cr - s);
    hot_emit(h, NFY_TOK_COMMENT, q, e, 0);
    return e;
}

/*
 * The less common tokens of an all-ASCII line: strings, numbers, comments;
 * 0 when the general path must take it (strings that go on, f-strings,
 * backslashes, stray characters, CRs). Never 0 otherwise, since every
 * token ends after q.
 */
static uint32_t hot_other(hot_state *h, nfy__lexer *lx, uint32_t q,
                          unsigned cls)
{
    uint32_t e;
    switch (cls) {
    case LC_PREFIX:
    case LC_QUOTE:
        return hot_string(h, lx, q);
    case LC_DIGIT:
        e = nfy__lex_number(lx->s, q, h->le);
        hot_emit(h, NFY_TOK_NUMBER, q, e, 0);
        return e;
    case LC_HASH:
        return hot_comment(h, lx, q);
    default:
        return 0;
    }
}

/* The one-character operator of each operator byte ('!' alone is none). */
static const unsigned char single_op_id[256] = {
    ['('] = NFY_OP_LPAR,       [')'] = NFY_OP_RPAR,   ['['] = NFY_OP_LSQB,
    [']'] = NFY_OP_RSQB,       ['{'] = NFY_OP_LBRACE, ['}'] = NFY_OP_RBRACE,
    [','] = NFY_OP_COMMA,      [';'] = NFY_OP_SEMI,   ['~'] = NFY_OP_TILDE,
    [':'] = NFY_OP_COLON,      ['+'] = NFY_OP_PLUS,   ['-'] = NFY_OP_MINUS,
    ['*'] = NFY_OP_STAR,       ['/'] = NFY_OP_SLASH,  ['|'] = NFY_OP_VBAR,
    ['&'] = NFY_OP_AMPER,      ['<'] = NFY_OP_LESS,   ['>'] = NFY_OP_GREATER,
    ['='] = NFY_OP_EQUAL,      ['.'] = NFY_OP_DOT,    ['%'] = NFY_OP_PERCENT,
    ['^'] = NFY_OP_CIRCUMFLEX, ['@'] = NFY_OP_AT,
};

/*
 * An operator (or a number starting with '.') at q; 0 for a byte that
 * starts none (a lone '!'). Longer operators continue with '=' '>' '*'
 * '/' '<' or '.', all LC_OP or LC_DOT bytes: after any other byte the
 * operator is the single character.
 */
static inline uint32_t hot_op(hot_state *h, nfy__lexer *lx, uint32_t q)
{
    const char *s = lx->s;
    unsigned char c = (unsigned char)s[q];
    unsigned next = nfy__lex_class((unsigned char)s[q + 1]);
    unsigned op = single_op_id[c];
    uint32_t len = 1;
    if (c == '.' && next == LC_DIGIT) {
        uint32_t e = nfy__lex_number(s, q, h->le);
        hot_emit(h, NFY_TOK_NUMBER, q, e, 0);
        return e;
    }
    if (simple_op_id[c] == NFY_OP_NONE && (next == LC_OP || next == LC_DOT)) {
        len = nfy__lex_op(s, q, h->le, &op);
        if (!len)
            return 0;
    } else if (op == NFY_OP_NONE) {
        return 0;
    }
    h->parenlev += simple_op_paren[c];
    hot_emit(h, NFY_TOK_OP, q, q + len, op);
    return q + len;
}

/*
 * The fast loop over an all-ASCII line from p: names, operators and the
 * newline inline, strings, numbers and comments through hot_other. Returns
 * the offset of a token it hands to the general path, or h->le when the line
 * is done (a line's only '\n' is its last byte, every other token ends
 * before it, and only the last line of a file can lack one).
 */
static uint32_t hot_loop(hot_state *h, nfy__lexer *lx, uint32_t *pp)
{
    const char *s = lx->s;
    uint32_t p = *pp;
    for (;;) {
        const unsigned char *u = (const unsigned char *)s + p;
        unsigned cls = nfy__lex_class(*u);
        while (cls == LC_WS)
            cls = nfy__lex_class(*++u);
        uint32_t q = (uint32_t)(u - (const unsigned char *)s), e;
        if (cls == LC_NAME ||
            (cls == LC_PREFIX && !nfy__lex_is_quote(s[q + 1]) &&
             !(nfy__lex_class((unsigned char)s[q + 1]) == LC_PREFIX &&
               nfy__lex_is_quote(s[q + 2])))) {
            e = hot_name(h, lx, q);
        } else if (cls == LC_OP || cls == LC_DOT) {
            e = hot_op(h, lx, q);
        } else if (cls == LC_NL) {
            hot_emit(h, h->parenlev > 0 ? NFY_TOK_NL : NFY_TOK_NEWLINE, q,
                     q + 1, 0);
            return h->le;
        } else {
            if (q == h->le) /* trailing whitespace at the end of input */
                return h->le;
            e = hot_other(h, lx, q, cls);
        }
        if (!e) {
            *pp = p;
            return q;
        }
        p = e;
    }
}

/*
 * Tokens of the current line from p. Lines without bytes >= 0x80 (nearly
 * all) go through the fast loop; the rest, and the rare tokens the fast
 * loop hands over, through the general one.
 */
static void line_tokens(nfy__lexer *lx, uint32_t p)
{
    while (p < lx->le) {
        if (lx->next_high < lx->le) {
            nfy__lex_slow_line(lx, p);
            return;
        }
        nfy_tokens *out = lx->out;
        if (out->toks.cap - out->toks.len < lx->le - p + 1)
            nfy_vec_reserve(&out->toks, lx->le - p + 1);
        hot_state h;
        hot_load(&h, lx);
        uint32_t q = hot_loop(&h, lx, &p);
        hot_store(&h, lx);
        if (q >= h.le)
            return;
        p = nfy__lex_next_token(lx, p, q);
    }
}

/* ---- Lines of a file ---------------------------------------------------- */

void nfy__lex_lines(nfy__lexer *lx)
{
    uint32_t next = lx->body;
    bool any_line = false;
    for (;;) {
        if (next >= lx->n) {
            nfy__lex_finish(lx, any_line, false);
            return;
        }
        any_line = true;
        lx->lnum++;
        set_line(lx, next);
        uint32_t p = lx->ls;
        if (lx->parenlev == 0 && !lx->continued) {
            enum line_kind k = statement_start(lx, &p);
            if (k == LINE_WS_EOF) {
                nfy__lex_finish(lx, true, true);
                return;
            }
            if (k == LINE_BLANK) {
                next = lx->le;
                continue;
            }
        } else {
            lx->continued = false;
        }
        line_tokens(lx, p);
        next = lx->le;
    }
}
