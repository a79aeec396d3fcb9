/*
 * The general pseudo-token loop of tokenize._tokenize() over one physical
 * line (lex_hot.c's fast loop hands it the lines and tokens it does not
 * take itself): skip Whitespace, then try, in tokenize's order, a backslash
 * continuation, a comment, a triple-quoted string start, a number, a
 * newline, an operator, a single-quoted string and a name. Where nothing
 * matches, tokenize emits an ERRORTOKEN for the single character at the
 * position *before* the whitespace, so spaces in front of a stray
 * character become ERRORTOKENs too; we do the same. Strings that continue
 * over several lines (triple quotes, backslash-newline inside quotes, PEP
 * 701 f-strings) are scanned here in one go and the current line moves to
 * where they end.
 */
#include <string.h>

#include "pylex/lex_internal.h"
#include "pylex/lex_state.h"

/* ---- Stray characters --------------------------------------------------- */

static const char *bad_char_message(char c)
{
    switch (c) {
    case '\0':
        return "NUL byte in source";
    case '\r':
        return "carriage return without a line feed (tokenize does not end "
               "a line there)";
    case '\'':
    case '"':
        return "unterminated string literal";
    case '\\':
        return "backslash not followed by a newline";
    default:
        return "character that starts no token";
    }
}

/* ERRORTOKENs for the whitespace in [p, q) and the character at q. */
static uint32_t bad_char(nfy__lexer *lx, uint32_t p, uint32_t q)
{
    for (uint32_t i = p; i < q; i++)
        nfy__lex_emit(lx, NFY_TOK_ERRORTOKEN, i, i + 1);
    uint32_t cp = 0, len = nfy__lex_utf8(lx->s + q, lx->n - q, &cp);
    char c = lx->s[q];
    nfy_token *t =
        nfy__lex_emit(lx, NFY_TOK_ERRORTOKEN, q, q + (len ? len : 1));
    if (c == '\'' || c == '"')
        t->flags = NFY_TOKF_UNTERMINATED;
    if (len) /* undecodable bytes were reported once per file */
        nfy__lex_diag(lx,
                      c == '\'' || c == '"' ? "lex-unterminated-string"
                      : c == '\0'           ? "lex-nul-byte"
                                            : "lex-bad-char",
                      q, len, bad_char_message(c));
    return t->end;
}

/* ---- Names -------------------------------------------------------------- */

static uint32_t name_token(nfy__lexer *lx, uint32_t q)
{
    const char *s = lx->s;
    uint32_t e = q, le = lx->le;
    /* no bound check: the line ends with '\n' or the source's NUL */
    while (nfy__lex_ascii_word[(unsigned char)s[e]])
        e++;
    if (e < le && ((unsigned char)s[e] & 0x80))
        e = nfy__lex_name(s, e, le); /* non-ASCII word characters */
    unsigned char c0 = (unsigned char)s[q];
    unsigned kind = NFY_TOK_NAME;
    uint32_t cp;
    if (c0 >= 0x80 && nfy__lex_utf8(s + q, le - q, &cp) &&
        !nfy__lex_is_ident_start_cp(cp))
        kind = NFY_TOK_OP; /* tokenize: "\w+" whose first char can't start
                              an identifier (e.g. a superscript digit) */
    nfy_token *t = nfy__lex_emit(lx, kind, q, e);
    if (kind == NFY_TOK_NAME && c0 < 0x80)
        t->op = nfy__lex_keyword(s + q, e - q, lx->n + 1 - q);
    return e;
}

/* ---- Strings ------------------------------------------------------------ */

static void emit_multi(nfy__lexer *lx, unsigned kind, uint32_t q, uint32_t end,
                       uint32_t sline, uint32_t scol, uint16_t flags)
{
    nfy__lex_advance_to(lx, end);
    nfy_token *t = nfy__lex_push(lx, kind, q, end);
    t->line = sline;
    t->col = scol;
    t->end_line = lx->lnum;
    t->end_col = nfy__lex_col(lx, end);
    t->flags = flags;
}

static bool ends_with_backslash_nl(const char *s, uint32_t ls, uint32_t le)
{
    if (le - ls >= 2 && s[le - 1] == '\n' && s[le - 2] == '\\')
        return true;
    return le - ls >= 3 && s[le - 1] == '\n' && s[le - 2] == '\r' &&
           s[le - 3] == '\\';
}

/*
 * tokenize's contstr state: the string goes on from line start ls. Returns
 * STRING (closed), ERRORTOKEN (a line neither closes it nor ends with a
 * backslash while needcont is set: the string and that line are one error)
 * or ENDMARKER for end of input (tokenize raises there).
 */
static unsigned continue_lines(nfy__lexer *lx, uint32_t ls, char quote,
                               bool triple, uint32_t *end)
{
    const char *s = lx->s;
    if (!lx->needcont) { /* line by line or all at once: the same */
        if (nfy__lex_endpat(s, ls, lx->n, quote, triple, end))
            return NFY_TOK_STRING;
        *end = lx->n;
        return NFY_TOK_ENDMARKER;
    }
    for (;;) {
        if (ls >= lx->n) {
            *end = lx->n;
            return NFY_TOK_ENDMARKER;
        }
        const char *nl = memchr(s + ls, '\n', lx->n - ls);
        uint32_t le = nl ? (uint32_t)(nl - s) + 1 : lx->n;
        if (nfy__lex_endpat(s, ls, le, quote, triple, end))
            return NFY_TOK_STRING;
        if (lx->needcont && !ends_with_backslash_nl(s, ls, le)) {
            *end = le;
            return NFY_TOK_ERRORTOKEN;
        }
        ls = le;
    }
}

/* Emit the result of a multi-line scan; returns the token's end. */
static uint32_t finish_string(nfy__lexer *lx, unsigned kind, uint32_t q,
                              uint32_t end, uint32_t sline, uint32_t scol,
                              uint16_t flags)
{
    if (kind == NFY_TOK_STRING) {
        if (end > lx->le)
            lx->needcont = false; /* tokenize resets it on a closing line */
        emit_multi(lx, NFY_TOK_STRING, q, end, sline, scol, flags);
        return end;
    }
    flags |= NFY_TOKF_UNTERMINATED;
    if (kind == NFY_TOK_ENDMARKER)
        nfy__lex_diag(lx, "lex-unterminated-string", q, 1,
                      flags & NFY_TOKF_TRIPLE
                          ? "unterminated triple-quoted string"
                          : "unterminated string at end of file");
    else
        nfy__lex_diag(lx, "lex-unterminated-string", q, 1,
                      "unterminated string (tokenize makes the string and "
                      "the rest of this line one error token)");
    emit_multi(lx, NFY_TOK_ERRORTOKEN, q, end, sline, scol, flags);
    return end;
}

/*
 * A string at q. Python 3.11's regular expressions decide where it ends,
 * except that an f-string which closes under PEP 701 rules (nested quotes
 * of any kind inside {}) ends there: for code 3.11 accepts both agree.
 */
static bool string_token(nfy__lexer *lx, uint32_t q, uint32_t *pos)
{
    const char *s = lx->s;
    nfy__lex_strstart st;
    if (!nfy__lex_string_start(s, q, lx->le, &st))
        return false;
    bool triple = st.flags & NFY_TOKF_TRIPLE;
    uint32_t body = q + st.plen + (triple ? 3 : 1);
    uint32_t sline = lx->lnum, scol = nfy__lex_col(lx, q);
    uint32_t fend = 0;
    bool fok =
        (st.flags & NFY_TOKF_FSTRING) &&
        nfy__lex_fstring_scan(s, body, lx->n, st.quote, triple,
                              st.flags & NFY_TOKF_RAW, &lx->fbudget, &fend);
    uint32_t end;
    unsigned kind;
    if (triple) {
        if (nfy__lex_endpat(s, body, lx->le, st.quote, true, &end))
            kind = NFY_TOK_STRING;
        else
            kind = continue_lines(lx, lx->le, st.quote, true, &end);
        if (fok && kind != NFY_TOK_ERRORTOKEN)
            kind = NFY_TOK_STRING, end = fend;
    } else {
        int r = nfy__lex_contstr(s, body, lx->le, st.quote, &end);
        if (fok) {
            kind = NFY_TOK_STRING, end = fend;
        } else if (r == LEX_STR_END) {
            kind = NFY_TOK_STRING;
        } else if (r == LEX_STR_CONT) {
            lx->needcont = true;
            kind = continue_lines(lx, lx->le, st.quote, false, &end);
        } else {
            return false;
        }
    }
    *pos = finish_string(lx, kind, q, end, sline, scol, st.flags);
    return true;
}

/* ---- The loop ----------------------------------------------------------- */

static bool is_quote_byte(char c)
{
    return c == '\'' || c == '"';
}

/* Brackets and the other operators that never combine with what follows:
   their id and the change to parenlev, without a call. */
static bool simple_op(char c, unsigned *op, int *paren)
{
    switch (c) {
    case '(':
        return *op = NFY_OP_LPAR, *paren = 1, true;
    case ')':
        return *op = NFY_OP_RPAR, *paren = -1, true;
    case '[':
        return *op = NFY_OP_LSQB, *paren = 1, true;
    case ']':
        return *op = NFY_OP_RSQB, *paren = -1, true;
    case '{':
        return *op = NFY_OP_LBRACE, *paren = 1, true;
    case '}':
        return *op = NFY_OP_RBRACE, *paren = -1, true;
    case ',':
        return *op = NFY_OP_COMMA, *paren = 0, true;
    default:
        return false;
    }
}

static uint32_t op_token(nfy__lexer *lx, uint32_t p, uint32_t q)
{
    unsigned op;
    int paren = 0;
    uint32_t len = 1;
    if (!simple_op(lx->s[q], &op, &paren)) {
        len = nfy__lex_op(lx->s, q, lx->le, &op);
        if (!len)
            return bad_char(lx, p, q);
    }
    lx->parenlev += paren;
    nfy__lex_emit(lx, NFY_TOK_OP, q, q + len)->op = op;
    return q + len;
}

static uint32_t newline_token(nfy__lexer *lx, uint32_t q, uint32_t len)
{
    nfy__lex_emit(lx, lx->parenlev > 0 ? NFY_TOK_NL : NFY_TOK_NEWLINE, q,
                  q + len);
    return q + len;
}

static uint32_t comment_token(nfy__lexer *lx, uint32_t q)
{
    uint32_t e = q + 1;
    while (e < lx->le && lx->s[e] != '\r' && lx->s[e] != '\n')
        e++;
    nfy__lex_emit(lx, NFY_TOK_COMMENT, q, e);
    return e;
}

static uint32_t number_token(nfy__lexer *lx, uint32_t q)
{
    uint32_t e = nfy__lex_number(lx->s, q, lx->le);
    nfy__lex_emit(lx, NFY_TOK_NUMBER, q, e);
    return e;
}

/* A backslash: a continuation when a newline follows (the bytes become the
   next token's trivia), a stray character otherwise. */
static uint32_t backslash(nfy__lexer *lx, uint32_t p, uint32_t q)
{
    const char *s = lx->s;
    uint32_t le = lx->le;
    if (q + 1 < le && s[q + 1] == '\n') {
        lx->continued = true;
        return q + 2;
    }
    if (q + 2 < le && s[q + 1] == '\r' && s[q + 2] == '\n') {
        lx->continued = true;
        return q + 3;
    }
    return bad_char(lx, p, q);
}

static uint32_t high_byte(nfy__lexer *lx, uint32_t p, uint32_t q)
{
    uint32_t cp;
    if (nfy__lex_utf8(lx->s + q, lx->le - q, &cp) && nfy__lex_is_word_cp(cp))
        return name_token(lx, q);
    return bad_char(lx, p, q);
}

/* One pseudo-token from p; returns the new position. */
uint32_t nfy__lex_next_token(nfy__lexer *lx, uint32_t p, uint32_t q)
{
    const char *s = lx->s;
    uint32_t le = lx->le, end;
    switch (nfy__lex_class((unsigned char)s[q])) {
    case LC_NL:
        return newline_token(lx, q, 1);
    case LC_CR:
        if (q + 1 < le && s[q + 1] == '\n')
            return newline_token(lx, q, 2);
        return bad_char(lx, p, q);
    case LC_HASH:
        return comment_token(lx, q);
    case LC_DIGIT:
        return number_token(lx, q);
    case LC_DOT:
        if (q + 1 < le && nfy__lex_is_digit(s[q + 1]))
            return number_token(lx, q);
        return op_token(lx, p, q);
    case LC_OP:
        return op_token(lx, p, q);
    case LC_BSLASH:
        return backslash(lx, p, q);
    case LC_QUOTE:
        if (string_token(lx, q, &end))
            return end;
        return bad_char(lx, p, q);
    case LC_PREFIX: /* most are names: check for a quote soon after first */
        if ((is_quote_byte(s[q + 1]) ||
             (nfy__lex_class((unsigned char)s[q + 1]) == LC_PREFIX &&
              is_quote_byte(s[q + 2]))) &&
            string_token(lx, q, &end))
            return end;
        return name_token(lx, q);
    case LC_NAME:
        return name_token(lx, q);
    case LC_HIGH:
        return high_byte(lx, p, q);
    default:
        return bad_char(lx, p, q);
    }
}

/* The general loop: any line, every token through next_token. Runs until
   the end of whatever line is current (a string may move it on). */
void nfy__lex_slow_line(nfy__lexer *lx, uint32_t p)
{
    const char *s = lx->s;
    while (p < lx->le) {
        uint32_t q = p; /* the line ends with '\n' or the source's NUL */
        while (nfy__lex_class((unsigned char)s[q]) == LC_WS)
            q++;
        if (q == lx->le) /* trailing whitespace at the end of the input */
            return;
        p = nfy__lex_next_token(lx, p, q);
    }
}

/* ---- Coding cookie ------------------------------------------------------ */

static bool cookie_name_char(char c)
{
    return c == '-' || c == '.' || c == '_' || nfy__lex_is_digit(c) ||
           ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* ^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+) on [a, b): the name, if any. */
static bool find_cookie(const char *s, uint32_t a, uint32_t b, nfy_str *name)
{
    while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\f'))
        a++;
    if (a >= b || s[a] != '#')
        return false;
    for (uint32_t i = a + 1; i + 7 <= b; i++) {
        if (memcmp(s + i, "coding", 6) || (s[i + 6] != ':' && s[i + 6] != '='))
            continue;
        uint32_t j = i + 7;
        while (j < b && (s[j] == ' ' || s[j] == '\t'))
            j++;
        uint32_t k = j;
        while (k < b && cookie_name_char(s[k]))
            k++;
        if (k > j) {
            name->ptr = s + j;
            name->len = k - j;
            return true;
        }
    }
    return false;
}

static bool is_utf8_name(nfy_str name)
{
    char buf[8];
    size_t i;
    for (i = 0; i < name.len && i < 6; i++)
        buf[i] = name.ptr[i] == '_' ? '-' : (char)(name.ptr[i] | 0x20);
    buf[i] = 0;
    if (name.len >= 6 && !memcmp(buf, "utf-8-", 6))
        return true;
    return (name.len == 5 && !memcmp(buf, "utf-8", 5)) ||
           (name.len == 4 && !memcmp(buf, "utf8", 4));
}

void nfy__lex_check_cookie(nfy__lexer *lx)
{
    const char *s = lx->s;
    uint32_t a = lx->body;
    for (int line = 0; line < 2 && a < lx->n; line++) {
        const char *nl = memchr(s + a, '\n', lx->n - a);
        uint32_t b = nl ? (uint32_t)(nl - s) + 1 : lx->n;
        nfy_str name;
        if (find_cookie(s, a, b, &name)) {
            if (!is_utf8_name(name) && lx->diags)
                nfy_diag_add(lx->diags, NFY_SEV_WARNING, "lex-encoding",
                             lx->src, (uint32_t)(name.ptr - s),
                             (uint32_t)name.len,
                             "file declares encoding '%.*s'; npuify reads "
                             "it as UTF-8",
                             NFY_STR_FMT(name));
            return;
        }
        uint32_t c = a; /* only a blank or comment line lets line 2 count */
        while (c < b && (s[c] == ' ' || s[c] == '\t' || s[c] == '\f'))
            c++;
        if (c < b && s[c] != '#' && s[c] != '\r' && s[c] != '\n')
            return;
        a = b;
    }
}
