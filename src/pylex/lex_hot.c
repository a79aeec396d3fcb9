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
#include <stddef.h>
#include <string.h>

#include "pylex/lex_internal.h"
#include "pylex/lex_state.h"
#include "pylex/tokpos.h"

#if defined(__SSE2__) && defined(__GNUC__)
#    include <emmintrin.h>
#endif

enum { TABSIZE = 8 };

_Static_assert(offsetof(nfy_token, flags) == offsetof(nfy_token, kind) + 1 &&
                   offsetof(nfy_token, op) == offsetof(nfy_token, kind) + 2 &&
                   sizeof(nfy_token) == offsetof(nfy_token, kind) + 4,
               "hot_emit writes kind, flags and op as one word");
_Static_assert(NFY_TOK_INDENT == NFY_TOK_NEWLINE + 1 &&
                   NFY_TOK_DEDENT == NFY_TOK_NEWLINE + 2,
               "hot_store tests the three kinds as one range");

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

/*
 * The end of a run of spaces from p; lim is the end of the readable
 * buffer (the source's NUL included). With SSE2, 16 bytes a step while
 * they lie before lim, so most indentation takes one; then byte by byte,
 * which stops at the NUL.
 */
static inline uint32_t space_run(const char *s, uint32_t p, uint32_t lim)
{
#if defined(__SSE2__) && defined(__GNUC__)
    while (lim - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
        unsigned m =
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
        if (m != 0xFFFFu)
            return p + (uint32_t)__builtin_ctz(~m);
        p += 16;
    }
#else
    (void)lim;
#endif
    while (s[p] == ' ')
        p++;
    return p;
}

static enum line_kind statement_start(nfy__lexer *lx, uint32_t *pos)
{
    const char *s = lx->s;
    uint32_t column = 0, p = lx->ls;
    for (;; p++) { /* the line ends with '\n' or the source's NUL */
        uint32_t run = p;
        p = space_run(s, p, lx->n + 1);
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
    nfy__tokpos *tp;  /* the next summary record (tokpos.h) */
    nfy__tokpos *tp0; /* the first one this fast loop writes */
    const char *s;    /* lx->s and lx->n + 1 (the readable bytes), kept */
    uint32_t lim;     /* here: stores into the tokens may alias lx->n */
} hot_state;

/* Load the fast loop's state; first the summary records of the tokens
   the general path made since the last fast loop, then room for one
   record per byte of the line left from p. */
static void hot_load(hot_state *h, const nfy__lexer *lx, uint32_t p)
{
    nfy_tokens *out = lx->out;
    nfy__tokpos_cache *c = out->tokpos;
    if (c->done < out->toks.len)
        nfy__tokpos_build(c, out->toks.items, out->toks.len);
    if (c->cap - c->len < lx->le - p + 1)
        nfy_vec_reserve(c, lx->le - p + 1);
    h->items = out->toks.items;
    h->len = out->toks.len;
    h->cap = out->toks.cap;
    h->prev_end = lx->prev_end;
    h->lnum = lx->lnum;
    h->ls = lx->ls;
    h->le = lx->le;
    h->parenlev = lx->parenlev;
    h->tp = h->tp0 = c->items + c->len;
    h->s = lx->s;
    h->lim = lx->n + 1;
}

/* Store it back. The fast loop's tokens all lie on line lnum, so of its
   records only the first can start a line after the last record before. */
static void hot_store(const hot_state *h, nfy__lexer *lx)
{
    nfy__tokpos_cache *c = lx->out->tokpos;
    lx->out->toks.len = h->len;
    lx->prev_end = h->prev_end;
    lx->parenlev = h->parenlev;
    if (h->tp > h->tp0) {
        /* nfy__tokpos_after_end without branches (which kind came before
           is hard to guess); at the first record no line is after
           prev_end_line, so reading the record itself there is harmless */
        const nfy__tokpos *before = h->tp0 - (h->tp0 != c->items);
        /* NEWLINE, INDENT or DEDENT */
        unsigned ended = (unsigned)before->kind - NFY_TOK_NEWLINE <= 2u;
        unsigned line = (h->lnum > c->prev_end_line) & !ended;
        h->tp0->hints |= (uint8_t)(line * TP_LINE);
        c->prev_end_line = h->lnum;
    }
    c->len = (size_t)(h->tp - c->items);
    c->done = h->len;
}

/* The summary record of a significant token of the fast loop, but for
   TP_LINE (hot_store): what nfy__tokpos_build would write. kind is a
   constant at each call, so this folds to two stores. */
static inline void hot_record(hot_state *h, unsigned kind, uint32_t op)
{
    nfy__tokpos *r = h->tp++;
    r->tok = (uint32_t)h->len - 1;
    unsigned kw = kind == NFY_TOK_NAME ? op & 0xFF : 0; /* op < 64 here */
    unsigned id = kind == NFY_TOK_OP ? op & 0xFF : 0;
    /* the fast loop's kinds: NAME NUMBER STRING OP NEWLINE (a constant
       here, unlike nfy_lex_tokpos_kind_class, which is in another file) */
    unsigned hints = kind == NFY_TOK_OP ? nfy_lex_tokpos_op_event[op & 63]
                     : kind == NFY_TOK_NEWLINE ? TP_EVENT
                                               : 0;
    nfy__tokpos_set(r, kind, kw, id, hints);
}

/*
 * A token on the current, all-ASCII line: columns are byte offsets. No
 * capacity check: the fast loop reserves a token per byte of the line
 * left first, and each of its tokens takes at least one byte. Its summary
 * record too, unless it is a COMMENT or NL (kind is a constant at every
 * call, so the test folds away).
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
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* kind, flags (0) and op in one store (they fill the record's last
       word) */
    uint32_t tail = kind | op << 16;
    memcpy(&t->kind, &tail, sizeof tail);
#else
    t->kind = (uint8_t)kind;
    t->flags = 0;
    t->op = (uint16_t)op;
#endif
    h->prev_end = b;
    if (kind != NFY_TOK_COMMENT && kind != NFY_TOK_NL)
        hot_record(h, kind, op);
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
        /* a range [lo, lo + n) in one signed compare: adding 0x80 - lo
           moves it to the n smallest signed bytes, and every other byte
           (those >= 0x80 too: they wrap) lands above them */
        __m128i alpha =
            _mm_cmplt_epi8(_mm_add_epi8(low, _mm_set1_epi8((char)(0x80 - 'a'))),
                           _mm_set1_epi8((char)(0x80 + 26)));
        __m128i digit =
            _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - '0'))),
                           _mm_set1_epi8((char)(0x80 + 10)));
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
static inline uint32_t hot_name(hot_state *h, uint32_t q)
{
    const unsigned char *s = (const unsigned char *)h->s;
    uint32_t e = (uint32_t)(word_run(s + q + 1, s + h->lim) - s);
    hot_emit(h, NFY_TOK_NAME, q, e,
             nfy__lex_keyword(h->s + q, e - q, h->lim - q));
    return e;
}

/*
 * The end of a one-line string body from body: after the first quote when
 * no backslash or newline comes before it (most strings), else 0. With
 * SSE2, 16 bytes at a time while they lie before lim (the end of the
 * readable buffer); the rest byte by byte. Never looks past le.
 */
static inline uint32_t plain_body_end(const char *s, uint32_t body, uint32_t le,
                                      uint32_t lim, char quote)
{
    uint32_t i = body;
#if defined(__SSE2__) && defined(__GNUC__)
    __m128i vq = _mm_set1_epi8(quote), vb = _mm_set1_epi8('\\'),
            vn = _mm_set1_epi8('\n');
    while (i < le && lim - i >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i hit = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, vq), _mm_cmpeq_epi8(v, vb)),
            _mm_cmpeq_epi8(v, vn));
        unsigned m = (unsigned)_mm_movemask_epi8(hit);
        if (m) {
            uint32_t at = i + (uint32_t)__builtin_ctz(m);
            return at < le && s[at] == quote ? at + 1 : 0;
        }
        i += 16;
    }
#else
    (void)lim;
#endif
    for (; i < le; i++) {
        if (s[i] == quote)
            return i + 1;
        if (s[i] == '\\' || s[i] == '\n')
            return 0;
    }
    return 0;
}

/* A plain string closed on its own line (not triple-quoted, not an
   f-string); 0 for the others, which take the general path. */
static inline uint32_t hot_string(hot_state *h, uint32_t q)
{
    const char *s = h->s;
    nfy__lex_strstart st;
    uint32_t end;
    if (nfy__lex_is_quote(s[q])) { /* no prefix: inline */
        if (q + 2 < h->le && s[q + 1] == s[q] && s[q + 2] == s[q])
            return 0; /* triple-quoted */
        st.plen = 0;
        st.flags = 0;
        st.quote = s[q];
    } else if (!nfy__lex_string_start(s, q, h->le, &st) ||
               (st.flags & (NFY_TOKF_TRIPLE | NFY_TOKF_FSTRING))) {
        return 0;
    }
    uint32_t body = q + st.plen + 1;
    end = plain_body_end(s, body, h->le, h->lim, st.quote);
    if (!end && nfy__lex_contstr(s, body, h->le, st.quote, &end) != LEX_STR_END)
        return 0;
    hot_emit(h, NFY_TOK_STRING, q, end, 0)->flags = st.flags;
    return end;
}

/* A comment from q up to the first CR or LF of the line (the line's only
   LF is its last byte, so one memchr for a CR before it finds the end). */
static inline uint32_t hot_comment(hot_state *h, uint32_t q)
{
    const char *s = h->s;
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
static uint32_t hot_other(hot_state *h, uint32_t q, unsigned cls)
{
    uint32_t e;
    switch (cls) {
    case LC_PREFIX:
    case LC_QUOTE:
        return hot_string(h, q);
    case LC_DIGIT:
        e = nfy__lex_number(h->s, q, h->le);
        hot_emit(h, NFY_TOK_NUMBER, q, e, 0);
        return e;
    case LC_HASH:
        return hot_comment(h, q);
    default:
        return 0;
    }
}

/* Each operator byte's one-character operator id (0 for '!', which is
   none alone) and the bracket's change to parenlev. */
static const uint8_t op_one[128] = {
    ['('] = NFY_OP_LPAR,       [')'] = NFY_OP_RPAR,   ['['] = NFY_OP_LSQB,
    [']'] = NFY_OP_RSQB,       ['{'] = NFY_OP_LBRACE, ['}'] = NFY_OP_RBRACE,
    [','] = NFY_OP_COMMA,      [';'] = NFY_OP_SEMI,   ['~'] = NFY_OP_TILDE,
    [':'] = NFY_OP_COLON,      ['+'] = NFY_OP_PLUS,   ['-'] = NFY_OP_MINUS,
    ['*'] = NFY_OP_STAR,       ['/'] = NFY_OP_SLASH,  ['|'] = NFY_OP_VBAR,
    ['&'] = NFY_OP_AMPER,      ['<'] = NFY_OP_LESS,   ['>'] = NFY_OP_GREATER,
    ['='] = NFY_OP_EQUAL,      ['.'] = NFY_OP_DOT,    ['%'] = NFY_OP_PERCENT,
    ['^'] = NFY_OP_CIRCUMFLEX, ['@'] = NFY_OP_AT,
};
static const int8_t op_depth[128] = {
    ['('] = 1, [')'] = -1, ['['] = 1, [']'] = -1, ['{'] = 1, ['}'] = -1};

/* The bytes that can be second in an operator, as the column of op_two. */
enum { SEC_NONE, SEC_EQ, SEC_GT, SEC_LT, SEC_STAR, SEC_SLASH, SEC_DOT };
static const uint8_t op_second[256] = {
    ['='] = SEC_EQ,   ['>'] = SEC_GT,    ['<'] = SEC_LT,
    ['*'] = SEC_STAR, ['/'] = SEC_SLASH, ['.'] = SEC_DOT,
};

/* The two-character operator of a first and a second byte, 0 if none.
   ".." is none, but the ELLIPSIS id here marks where "..." may be; the
   doubles "**" "//" "<<" ">>" may go on with '=' (op_three). */
static const uint8_t op_two[128][8] = {
    ['+'] = {[SEC_EQ] = NFY_OP_PLUSEQUAL},
    ['-'] = {[SEC_EQ] = NFY_OP_MINEQUAL, [SEC_GT] = NFY_OP_RARROW},
    ['*'] = {[SEC_EQ] = NFY_OP_STAREQUAL, [SEC_STAR] = NFY_OP_DOUBLESTAR},
    ['/'] = {[SEC_EQ] = NFY_OP_SLASHEQUAL, [SEC_SLASH] = NFY_OP_DOUBLESLASH},
    ['<'] = {[SEC_EQ] = NFY_OP_LESSEQUAL, [SEC_LT] = NFY_OP_LEFTSHIFT},
    ['>'] = {[SEC_EQ] = NFY_OP_GREATEREQUAL, [SEC_GT] = NFY_OP_RIGHTSHIFT},
    ['='] = {[SEC_EQ] = NFY_OP_EQEQUAL},
    ['!'] = {[SEC_EQ] = NFY_OP_NOTEQUAL},
    [':'] = {[SEC_EQ] = NFY_OP_COLONEQUAL},
    ['%'] = {[SEC_EQ] = NFY_OP_PERCENTEQUAL},
    ['&'] = {[SEC_EQ] = NFY_OP_AMPEREQUAL},
    ['|'] = {[SEC_EQ] = NFY_OP_VBAREQUAL},
    ['^'] = {[SEC_EQ] = NFY_OP_CIRCUMFLEXEQUAL},
    ['@'] = {[SEC_EQ] = NFY_OP_ATEQUAL},
    ['.'] = {[SEC_DOT] = NFY_OP_ELLIPSIS},
};

/* 1 for the two-byte ids that op_three looks on from. */
static const uint8_t op_may_go_on[64] = {[NFY_OP_ELLIPSIS] = 1,
                                         [NFY_OP_DOUBLESTAR] = 1,
                                         [NFY_OP_DOUBLESLASH] = 1,
                                         [NFY_OP_LEFTSHIFT] = 1,
                                         [NFY_OP_RIGHTSHIFT] = 1};

/* The rare two-byte starts that may take a third byte: the operator and
   its length from the third byte. */
static uint32_t op_three(unsigned two, char third, unsigned *op)
{
    switch (two) {
    case NFY_OP_ELLIPSIS:
        if (third == '.')
            return *op = NFY_OP_ELLIPSIS, 3;
        return *op = NFY_OP_DOT, 1; /* ".." is two dots */
    case NFY_OP_DOUBLESTAR:
    case NFY_OP_DOUBLESLASH:
    case NFY_OP_LEFTSHIFT:
    case NFY_OP_RIGHTSHIFT:
        if (third == '=')
            return *op = two == NFY_OP_DOUBLESTAR    ? NFY_OP_DOUBLESTAREQUAL
                         : two == NFY_OP_DOUBLESLASH ? NFY_OP_DOUBLESLASHEQUAL
                         : two == NFY_OP_LEFTSHIFT   ? NFY_OP_LEFTSHIFTEQUAL
                                                     : NFY_OP_RIGHTSHIFTEQUAL,
                   3;
        return *op = two, 2;
    default:
        return *op = two, 2;
    }
}

/*
 * An operator (or a number starting with '.') at q; 0 for a byte that
 * starts none (a lone '!'). By table lookups on the byte and the next
 * rather than tests on each: which operator comes next is hard to
 * predict. The bytes read lie before the line's end or are the source's
 * final NUL: an operator byte is never the line's last, its '\n'.
 */
static inline uint32_t hot_op(hot_state *h, uint32_t q)
{
    const unsigned char *u = (const unsigned char *)h->s + q;
    unsigned c = u[0] & 0x7F, c1 = u[1]; /* c: an LC_OP or LC_DOT byte */
    if ((c == '.') & nfy__lex_is_digit((char)c1)) {
        uint32_t e = nfy__lex_number(h->s, q, h->le);
        hot_emit(h, NFY_TOK_NUMBER, q, e, 0);
        return e;
    }
    unsigned two = op_two[c][op_second[c1]], op = two ? two : op_one[c];
    uint32_t len = two ? 2 : 1;
    if (__builtin_expect(op_may_go_on[two], 0))
        len = op_three(two, (char)u[2], &op);
    if (!op)
        return 0;
    h->parenlev += op_depth[c];
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
static uint32_t hot_loop(hot_state *h, uint32_t *pp)
{
    const char *s = h->s;
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
            p = hot_name(h, q); /* never hands over */
            continue;
        } else if (cls == LC_OP || cls == LC_DOT) {
            e = hot_op(h, q);
        } else if (cls == LC_NL) {
            if (h->parenlev > 0)
                hot_emit(h, NFY_TOK_NL, q, q + 1, 0);
            else
                hot_emit(h, NFY_TOK_NEWLINE, q, q + 1, 0);
            return h->le;
        } else {
            if (q == h->le) /* trailing whitespace at the end of input */
                return h->le;
            e = hot_other(h, q, cls);
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
        hot_load(&h, lx, p);
        uint32_t q = hot_loop(&h, &p);
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
