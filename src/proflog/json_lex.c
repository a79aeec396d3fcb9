/*
 * Pull lexer for streamed JSON. The window buf holds the unread tail of the
 * stream; refill moves that tail to the front and reads another chunk
 * behind it, so a token can span chunk boundaries while memory stays at a
 * few chunks. Lines are counted lazily, only over bytes about to leave the
 * window or asked about, so plain lexing never pays for them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"
#include "proflog/json_lex.h"

/* How far past a quote we look for the byte that decides whether it closes
 * the string (blanks only; a longer blank run is taken as closing). */
#define LOOKAHEAD_MAX 4096

void nfy_json_lex_init(nfy_json_lex *lx, nfy_json_input *in, size_t max_string)
{
    memset(lx, 0, sizeof *lx);
    lx->in = in;
    lx->cap = NFY_JSON_CHUNK * 2;
    lx->buf = malloc(lx->cap);
    lx->text_cap = (max_string > NFY_JSON_NUMBER_MAX ? max_string
                                                     : NFY_JSON_NUMBER_MAX) + 1;
    lx->text = malloc(lx->text_cap);
    if (!lx->buf || !lx->text)
        nfy__fatal("out of memory");
    lx->line = 1;
}

void nfy_json_lex_release(nfy_json_lex *lx)
{
    free(lx->buf);
    free(lx->text);
    lx->buf = NULL;
    lx->text = NULL;
}

void nfy_json_lex_restart(nfy_json_lex *lx)
{
    lx->len = lx->pos = lx->line_pos = 0;
    lx->base = lx->line_start = 0;
    lx->line = 1;
}

uint64_t nfy_json_lex_offset(const nfy_json_lex *lx)
{
    return lx->base + lx->pos;
}

/* Count newlines in buf[line_pos, upto). */
static void count_lines(nfy_json_lex *lx, size_t upto)
{
    const unsigned char *p = lx->buf + lx->line_pos;
    const unsigned char *end = lx->buf + upto;
    while (p < end) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break;
        lx->line++;
        lx->line_start = lx->base + (size_t)(nl - lx->buf) + 1;
        p = nl + 1;
    }
    lx->line_pos = upto;
}

/* Make at least want unread bytes available if the input has them;
 * returns the number available. */
static size_t fill(nfy_json_lex *lx, size_t want)
{
    while (lx->len - lx->pos < want) {
        if (lx->pos > 0) {
            count_lines(lx, lx->pos);
            memmove(lx->buf, lx->buf + lx->pos, lx->len - lx->pos);
            lx->len -= lx->pos;
            lx->base += lx->pos;
            lx->line_pos = 0;
            lx->pos = 0;
        }
        if (lx->cap - lx->len < NFY_JSON_CHUNK) {
            size_t ncap = lx->cap * 2;
            unsigned char *p = realloc(lx->buf, ncap);
            if (!p)
                nfy__fatal("out of memory");
            lx->buf = p;
            lx->cap = ncap;
        }
        size_t n = nfy_json_input_read(lx->in, lx->buf + lx->len,
                                       lx->cap - lx->len);
        if (!n)
            break;
        lx->len += n;
    }
    return lx->len - lx->pos;
}

void nfy_json_lex_where(nfy_json_lex *lx, uint64_t offset, uint64_t *line,
                        uint64_t *col)
{
    if (offset >= lx->base + lx->line_pos && offset <= lx->base + lx->len)
        count_lines(lx, (size_t)(offset - lx->base));
    *line = lx->line;
    *col = offset >= lx->line_start ? offset - lx->line_start : 0;
}

static bool is_blank(unsigned c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Skip blanks; returns the next byte or -1 at the end. */
static int skip_blanks(nfy_json_lex *lx)
{
    for (;;) {
        while (lx->pos < lx->len && is_blank(lx->buf[lx->pos]))
            lx->pos++;
        if (lx->pos < lx->len)
            return lx->buf[lx->pos];
        if (!fill(lx, 1))
            return -1;
    }
}

static nfy_json_tok lex_error(nfy_json_lex *lx, const char *msg)
{
    lx->error = msg;
    lx->tok = NFY_JT_ERROR;
    return lx->tok;
}

/* The byte at pos+i (after a fill), or -1 past the end. */
static int peek_at(nfy_json_lex *lx, size_t i)
{
    if (lx->len - lx->pos <= i && fill(lx, i + 1) <= i)
        return -1;
    return lx->buf[lx->pos + i];
}

static bool starts_value(int c)
{
    return c == '"' || c == '{' || c == '[' || c == '-' ||
           (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

/* pos is just past a quote inside a string: could that quote end it? In
 * valid JSON a string is followed by blanks and then : , } ] or the end,
 * and a comma by the start of a value or key. */
static bool quote_closes(nfy_json_lex *lx)
{
    size_t i = 0;
    int c = peek_at(lx, i);
    while (c >= 0 && is_blank((unsigned)c) && i < LOOKAHEAD_MAX)
        c = peek_at(lx, ++i);
    if (c < 0 || i >= LOOKAHEAD_MAX || c == ':' || c == '}' || c == ']')
        return true;
    if (c != ',')
        return false;
    do
        c = peek_at(lx, ++i);
    while (c >= 0 && is_blank((unsigned)c) && i < LOOKAHEAD_MAX);
    return c < 0 || i >= LOOKAHEAD_MAX || starts_value(c);
}

static void text_put(nfy_json_lex *lx, const char *s, size_t n, size_t cap)
{
    if (lx->text_len + n > cap) {
        lx->text_truncated = true;
        return;
    }
    memcpy(lx->text + lx->text_len, s, n);
    lx->text_len += n;
}

static int hex4(nfy_json_lex *lx, uint32_t *out)
{
    if (fill(lx, 4) < 4)
        return -1;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = lx->buf[lx->pos + (size_t)i];
        unsigned d = c >= '0' && c <= '9'   ? c - '0'
                     : c >= 'a' && c <= 'f' ? c - 'a' + 10
                     : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                            : 16;
        if (d == 16)
            return -1;
        v = v * 16 + d;
    }
    lx->pos += 4;
    *out = v;
    return 0;
}

static size_t utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* \uXXXX, with a following \uXXXX low surrogate when the first is high;
 * lone surrogates become U+FFFD. */
static void unicode_escape(nfy_json_lex *lx, size_t cap)
{
    uint32_t cp;
    char out[4];
    if (hex4(lx, &cp)) {
        lx->repaired = true;
        text_put(lx, "\\u", 2, cap);
        return;
    }
    if (cp >= 0xD800 && cp <= 0xDBFF && peek_at(lx, 0) == '\\' &&
        peek_at(lx, 1) == 'u') {
        size_t save = lx->pos;
        uint32_t lo;
        lx->pos += 2;
        if (!hex4(lx, &lo) && lo >= 0xDC00 && lo <= 0xDFFF)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        else
            lx->pos = save;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
        cp = 0xFFFD;
    text_put(lx, out, utf8_encode(cp, out), cap);
}

static void simple_escape(nfy_json_lex *lx, int c, size_t cap)
{
    static const char from[] = "\"\\/bfnrt";
    static const char to[] = "\"\\/\b\f\n\r\t";
    const char *hit = c > 0 ? strchr(from, c) : NULL;
    if (hit) {
        text_put(lx, &to[hit - from], 1, cap);
        lx->pos++;
    } else {
        /* Unknown escape (legacy writer: a raw backslash): keep it. */
        lx->repaired = true;
        text_put(lx, "\\", 1, cap);
    }
}

/* Bytes that end a run of plain string content. */
static bool string_special(unsigned c)
{
    return c == '"' || c == '\\' || c < 0x20;
}

static nfy_json_tok lex_string(nfy_json_lex *lx, size_t cap)
{
    lx->pos++; /* opening quote */
    for (;;) {
        size_t start = lx->pos;
        while (lx->pos < lx->len && !string_special(lx->buf[lx->pos]))
            lx->pos++;
        text_put(lx, (const char *)lx->buf + start, lx->pos - start, cap);
        if (lx->pos == lx->len) {
            if (!fill(lx, 1))
                return lex_error(lx, "unterminated string");
            continue;
        }
        unsigned c = lx->buf[lx->pos++];
        if (c == '"') {
            if (quote_closes(lx))
                break;
            lx->repaired = true;
            text_put(lx, "\"", 1, cap);
        } else if (c == '\\') {
            int e = peek_at(lx, 0);
            if (e == 'u') {
                lx->pos++;
                unicode_escape(lx, cap);
            } else {
                simple_escape(lx, e, cap);
            }
        } else {
            lx->pos--;
            return lex_error(lx, "control character in string");
        }
    }
    lx->text[lx->text_len] = '\0';
    lx->tok = NFY_JT_STRING;
    return lx->tok;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* Append digits at pos; returns how many. */
static size_t take_digits(nfy_json_lex *lx, size_t *n)
{
    size_t k = 0;
    int c;
    while ((c = peek_at(lx, 0)) >= 0 && is_digit(c)) {
        if (*n < NFY_JSON_NUMBER_MAX)
            lx->text[*n] = (char)c;
        (*n)++;
        lx->pos++;
        k++;
    }
    return k;
}

static void take_char(nfy_json_lex *lx, size_t *n, int c)
{
    if (*n < NFY_JSON_NUMBER_MAX)
        lx->text[*n] = (char)c;
    (*n)++;
    lx->pos++;
}

static nfy_json_tok lex_number(nfy_json_lex *lx)
{
    size_t n = 0;
    if (peek_at(lx, 0) == '-')
        take_char(lx, &n, '-');
    int first = peek_at(lx, 0);
    size_t int_digits = take_digits(lx, &n);
    if (!int_digits || (first == '0' && int_digits > 1))
        return lex_error(lx, "malformed number");
    if (peek_at(lx, 0) == '.') {
        take_char(lx, &n, '.');
        if (!take_digits(lx, &n))
            return lex_error(lx, "malformed number");
    }
    int e = peek_at(lx, 0);
    if (e == 'e' || e == 'E') {
        take_char(lx, &n, e);
        int s = peek_at(lx, 0);
        if (s == '+' || s == '-')
            take_char(lx, &n, s);
        if (!take_digits(lx, &n))
            return lex_error(lx, "malformed number");
    }
    if (n > NFY_JSON_NUMBER_MAX)
        return lex_error(lx, "number too long");
    lx->text[n] = '\0';
    lx->text_len = n;
    lx->tok = NFY_JT_NUMBER;
    return lx->tok;
}

static nfy_json_tok lex_word(nfy_json_lex *lx, const char *word,
                             nfy_json_tok tok)
{
    size_t n = strlen(word);
    if (fill(lx, n) < n || memcmp(lx->buf + lx->pos, word, n) != 0) {
        lx->pos++;
        return lex_error(lx, "unexpected character");
    }
    lx->pos += n;
    lx->tok = tok;
    return tok;
}

nfy_json_tok nfy_json_lex_next(nfy_json_lex *lx, size_t str_cap)
{
    static const char punct[] = "{}[]:,";
    static const nfy_json_tok punct_tok[] = {
        NFY_JT_LBRACE,   NFY_JT_RBRACE, NFY_JT_LBRACKET,
        NFY_JT_RBRACKET, NFY_JT_COLON,  NFY_JT_COMMA};
    lx->text_len = 0;
    lx->text[0] = '\0';
    lx->text_truncated = false;
    lx->repaired = false;
    if (str_cap > lx->text_cap - 1)
        str_cap = lx->text_cap - 1;
    /* A UTF-8 BOM is not JSON, but editors add one. */
    if (lx->base + lx->pos == 0 && fill(lx, 3) >= 3 &&
        memcmp(lx->buf, "\xEF\xBB\xBF", 3) == 0)
        lx->pos = 3;
    int c = skip_blanks(lx);
    lx->tok_offset = nfy_json_lex_offset(lx);
    if (c < 0) {
        lx->tok = lx->in->status ? lex_error(lx, "read error") : NFY_JT_EOF;
        return lx->tok;
    }
    const char *p = c ? strchr(punct, c) : NULL;
    if (p) {
        lx->pos++;
        lx->tok = punct_tok[p - punct];
        return lx->tok;
    }
    if (c == '"')
        return lex_string(lx, str_cap);
    if (c == '-' || is_digit(c))
        return lex_number(lx);
    if (c == 't')
        return lex_word(lx, "true", NFY_JT_TRUE);
    if (c == 'f')
        return lex_word(lx, "false", NFY_JT_FALSE);
    if (c == 'n')
        return lex_word(lx, "null", NFY_JT_NULL);
    lx->pos++;
    return lex_error(lx, "unexpected character");
}

/* After a "}" at pos-1: blanks, ",", blanks, then "{" or "]"? On success
 * pos is left at that byte. */
static bool boundary_after_brace(nfy_json_lex *lx)
{
    size_t i = 0;
    int c = peek_at(lx, i);
    while (c >= 0 && is_blank((unsigned)c))
        c = peek_at(lx, ++i);
    if (c == ']') {
        lx->pos += i;
        return true;
    }
    if (c != ',')
        return false;
    do
        c = peek_at(lx, ++i);
    while (c >= 0 && is_blank((unsigned)c));
    if (c != '{' && c != ']')
        return false;
    lx->pos += i;
    return true;
}

bool nfy_json_lex_resync(nfy_json_lex *lx)
{
    for (;;) {
        if (lx->pos == lx->len && !fill(lx, 1))
            return false;
        unsigned char *hit =
            memchr(lx->buf + lx->pos, '}', lx->len - lx->pos);
        if (!hit) {
            lx->pos = lx->len;
            continue;
        }
        lx->pos = (size_t)(hit - lx->buf) + 1;
        if (boundary_after_brace(lx))
            return true;
    }
}
