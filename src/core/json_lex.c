/*
 * Pull lexer for streamed JSON. The window buf holds the unread tail of the
 * stream; refill moves that tail to the front and reads another chunk
 * behind it, so a token can span chunk boundaries while memory stays at a
 * few chunks. Lines are counted lazily, only over bytes about to leave the
 * window or asked about, so plain lexing never pays for them.
 */
#include "core/json_lex.h"

#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"

/* How far past a quote we look for the byte that decides whether it closes
 * the string (blanks only; a longer blank run is taken as closing). */
#define LOOKAHEAD_MAX 4096

void nfy_json_lex_init(nfy_json_lex *lx, nfy_json_input *in, size_t max_string)
{
    memset(lx, 0, sizeof *lx);
    lx->in = in;
    lx->cap = NFY_JSON_CHUNK * 2;
    lx->buf = malloc(lx->cap);
    lx->text_cap =
        (max_string > NFY_JSON_NUMBER_MAX ? max_string : NFY_JSON_NUMBER_MAX) +
        1;
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
    lx->started = false;
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
        size_t n =
            nfy_json_input_read(lx->in, lx->buf + lx->len, lx->cap - lx->len);
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

/* Byte classes for the hot loops. */
enum {
    CC_BLANK = 1,  /* JSON whitespace */
    CC_STRING = 2, /* ends a run of plain string content */
    CC_DIGIT = 4,
    CC_SKIP = 8 /* skip_rest must look at it */
};
/* clang-format off */
#define CTL (CC_STRING | CC_SKIP)
static const unsigned char char_class[256] = {
    [0] = CTL, [1] = CTL, [2] = CTL, [3] = CTL, [4] = CTL, [5] = CTL,
    [6] = CTL, [7] = CTL, [8] = CTL, [11] = CTL, [12] = CTL, [14] = CTL,
    [15] = CTL, [16] = CTL, [17] = CTL, [18] = CTL, [19] = CTL, [20] = CTL,
    [21] = CTL, [22] = CTL, [23] = CTL, [24] = CTL, [25] = CTL, [26] = CTL,
    [27] = CTL, [28] = CTL, [29] = CTL, [30] = CTL, [31] = CTL,
    ['\t'] = CTL | CC_BLANK, ['\n'] = CTL | CC_BLANK, ['\r'] = CTL | CC_BLANK,
    [' '] = CC_BLANK, ['"'] = CC_STRING | CC_SKIP, ['\\'] = CC_STRING | CC_SKIP,
    ['0'] = CC_DIGIT, ['1'] = CC_DIGIT, ['2'] = CC_DIGIT, ['3'] = CC_DIGIT,
    ['4'] = CC_DIGIT, ['5'] = CC_DIGIT, ['6'] = CC_DIGIT, ['7'] = CC_DIGIT,
    ['8'] = CC_DIGIT, ['9'] = CC_DIGIT, ['{'] = CC_SKIP, ['}'] = CC_SKIP,
    ['['] = CC_SKIP, [']'] = CC_SKIP};
#undef CTL
/* clang-format on */

static bool is_blank(unsigned c)
{
    return char_class[c & 0xFF] & CC_BLANK;
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
    /* A high surrogate may pair with a following \uXXXX. All 6 bytes must
     * be in the window first: a refill inside would move it under save. */
    if (cp >= 0xD800 && cp <= 0xDBFF && fill(lx, 6) >= 6 &&
        lx->buf[lx->pos] == '\\' && lx->buf[lx->pos + 1] == 'u') {
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
    text_put(lx, out, nfy_utf8_encode(cp, out), cap);
}

static void simple_escape(nfy_json_lex *lx, int c, size_t cap)
{
    char out;
    switch (c) {
    case '"':
    case '\\':
    case '/':
        out = (char)c;
        break;
    case 'b':
        out = '\b';
        break;
    case 'f':
        out = '\f';
        break;
    case 'n':
        out = '\n';
        break;
    case 'r':
        out = '\r';
        break;
    case 't':
        out = '\t';
        break;
    default:
        /* Unknown escape (legacy writer: a raw backslash): keep it. */
        lx->repaired = true;
        text_put(lx, "\\", 1, cap);
        return;
    }
    text_put(lx, &out, 1, cap);
    lx->pos++;
}

/* Bytes that end a run of plain string content. */
static bool string_special(unsigned c)
{
    return char_class[c & 0xFF] & CC_STRING;
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
    return c >= 0 && (char_class[c & 0xFF] & CC_DIGIT);
}

/* Append digits at pos; returns how many. */
static size_t take_digits(nfy_json_lex *lx, size_t *n)
{
    size_t k = 0;
    for (;;) {
        while (lx->pos < lx->len && is_digit(lx->buf[lx->pos])) {
            if (*n < NFY_JSON_NUMBER_MAX)
                lx->text[*n] = (char)lx->buf[lx->pos];
            (*n)++;
            lx->pos++;
            k++;
        }
        if (lx->pos < lx->len || !fill(lx, 1))
            return k;
    }
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

static nfy_json_tok punct(nfy_json_lex *lx, nfy_json_tok tok)
{
    lx->pos++;
    lx->tok = tok;
    return tok;
}

nfy_json_tok nfy_json_lex_next(nfy_json_lex *lx, size_t str_cap)
{
    lx->text_len = 0;
    lx->text[0] = '\0';
    lx->text_truncated = false;
    lx->repaired = false;
    if (str_cap > lx->text_cap - 1)
        str_cap = lx->text_cap - 1;
    /* A UTF-8 BOM is not JSON, but editors add one. */
    if (!lx->started) {
        lx->started = true;
        if (fill(lx, 3) >= 3 &&
            memcmp(lx->buf + lx->pos, "\xEF\xBB\xBF", 3) == 0)
            lx->pos += 3;
    }
    int c = skip_blanks(lx);
    lx->tok_offset = nfy_json_lex_offset(lx);
    switch (c) {
    case -1:
        lx->tok = lx->in->status ? lex_error(lx, "read error") : NFY_JT_EOF;
        return lx->tok;
    case '{':
        return punct(lx, NFY_JT_LBRACE);
    case '}':
        return punct(lx, NFY_JT_RBRACE);
    case '[':
        return punct(lx, NFY_JT_LBRACKET);
    case ']':
        return punct(lx, NFY_JT_RBRACKET);
    case ':':
        return punct(lx, NFY_JT_COLON);
    case ',':
        return punct(lx, NFY_JT_COMMA);
    case '"':
        return lex_string(lx, str_cap);
    case 't':
        return lex_word(lx, "true", NFY_JT_TRUE);
    case 'f':
        return lex_word(lx, "false", NFY_JT_FALSE);
    case 'n':
        return lex_word(lx, "null", NFY_JT_NULL);
    default:
        if (c == '-' || is_digit(c))
            return lex_number(lx);
        lx->pos++;
        return lex_error(lx, "unexpected character");
    }
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
        unsigned char *hit = memchr(lx->buf + lx->pos, '}', lx->len - lx->pos);
        if (!hit) {
            lx->pos = lx->len;
            continue;
        }
        lx->pos = (size_t)(hit - lx->buf) + 1;
        if (boundary_after_brace(lx))
            return true;
    }
}

/* Bytes skip_rest must look at: quotes, backslashes, brackets, and
 * control bytes (a raw newline inside a string means we lost track). */
static bool structural(unsigned c)
{
    return char_class[c & 0xFF] & CC_SKIP;
}

bool nfy_json_lex_skip_rest(nfy_json_lex *lx)
{
    size_t depth = 1;
    bool in_string = false;
    for (;;) {
        if (lx->pos >= lx->len && !fill(lx, 1))
            return nfy_json_fail(lx, "unexpected end of input");
        const unsigned char *p = lx->buf + lx->pos, *end = lx->buf + lx->len;
        while (p < end && !structural(*p))
            p++;
        lx->pos = (size_t)(p - lx->buf);
        if (p == end)
            continue;
        unsigned c = *p;
        lx->pos++;
        if (c < 0x20) {
            if (in_string) {
                lx->tok_offset = nfy_json_lex_offset(lx) - 1;
                return nfy_json_fail(lx, "control character in string");
            }
        } else if (c == '\\') {
            if (lx->pos >= lx->len && !fill(lx, 1))
                return nfy_json_fail(lx, "unexpected end of input");
            lx->pos++; /* the escaped byte, whatever it is */
        } else if (c == '"') {
            in_string = !in_string;
        } else if (!in_string && (c == '{' || c == '[')) {
            depth++;
        } else if (!in_string && --depth == 0) {
            return true;
        }
    }
}
