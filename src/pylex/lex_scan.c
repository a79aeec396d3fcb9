/*
 * Scanners for single tokens, each the exact equivalent of one regular
 * expression of Python 3.11's Lib/tokenize.py, including its first-match
 * alternation order (so "0777" is NUMBER "0" then NUMBER "777", "1if" is
 * NUMBER "1" then NAME "if", "1_000j" is one imaginary NUMBER), plus the
 * UTF-8 helpers the lexer needs for columns and non-ASCII names.
 */
#include <string.h>

#include "pylex/lex_internal.h"

#define H4(a)                                                                  \
    [a] = LC_HIGH, [a + 1] = LC_HIGH, [a + 2] = LC_HIGH, [a + 3] = LC_HIGH
#define H16(a) H4(a), H4(a + 4), H4(a + 8), H4(a + 12)
const unsigned char nfy__lex_byte_class[256] = {
    H16(0x80),          H16(0x90),         H16(0xA0),         H16(0xB0),
    H16(0xC0),          H16(0xD0),         H16(0xE0),         H16(0xF0),
    ['\t'] = LC_WS,     ['\f'] = LC_WS,    [' '] = LC_WS,     ['\n'] = LC_NL,
    ['\r'] = LC_CR,     ['#'] = LC_HASH,   ['\''] = LC_QUOTE, ['"'] = LC_QUOTE,
    ['b'] = LC_PREFIX,  ['r'] = LC_PREFIX, ['u'] = LC_PREFIX, ['f'] = LC_PREFIX,
    ['B'] = LC_PREFIX,  ['R'] = LC_PREFIX, ['U'] = LC_PREFIX, ['F'] = LC_PREFIX,
    ['a'] = LC_NAME,    ['c'] = LC_NAME,   ['d'] = LC_NAME,   ['e'] = LC_NAME,
    ['g'] = LC_NAME,    ['h'] = LC_NAME,   ['i'] = LC_NAME,   ['j'] = LC_NAME,
    ['k'] = LC_NAME,    ['l'] = LC_NAME,   ['m'] = LC_NAME,   ['n'] = LC_NAME,
    ['o'] = LC_NAME,    ['p'] = LC_NAME,   ['q'] = LC_NAME,   ['s'] = LC_NAME,
    ['t'] = LC_NAME,    ['v'] = LC_NAME,   ['w'] = LC_NAME,   ['x'] = LC_NAME,
    ['y'] = LC_NAME,    ['z'] = LC_NAME,   ['A'] = LC_NAME,   ['C'] = LC_NAME,
    ['D'] = LC_NAME,    ['E'] = LC_NAME,   ['G'] = LC_NAME,   ['H'] = LC_NAME,
    ['I'] = LC_NAME,    ['J'] = LC_NAME,   ['K'] = LC_NAME,   ['L'] = LC_NAME,
    ['M'] = LC_NAME,    ['N'] = LC_NAME,   ['O'] = LC_NAME,   ['P'] = LC_NAME,
    ['Q'] = LC_NAME,    ['S'] = LC_NAME,   ['T'] = LC_NAME,   ['V'] = LC_NAME,
    ['W'] = LC_NAME,    ['X'] = LC_NAME,   ['Y'] = LC_NAME,   ['Z'] = LC_NAME,
    ['_'] = LC_NAME,    ['0'] = LC_DIGIT,  ['1'] = LC_DIGIT,  ['2'] = LC_DIGIT,
    ['3'] = LC_DIGIT,   ['4'] = LC_DIGIT,  ['5'] = LC_DIGIT,  ['6'] = LC_DIGIT,
    ['7'] = LC_DIGIT,   ['8'] = LC_DIGIT,  ['9'] = LC_DIGIT,  ['.'] = LC_DOT,
    ['\\'] = LC_BSLASH, ['('] = LC_OP,     [')'] = LC_OP,     ['['] = LC_OP,
    [']'] = LC_OP,      ['{'] = LC_OP,     ['}'] = LC_OP,     [':'] = LC_OP,
    [','] = LC_OP,      [';'] = LC_OP,     ['+'] = LC_OP,     ['-'] = LC_OP,
    ['*'] = LC_OP,      ['/'] = LC_OP,     ['|'] = LC_OP,     ['&'] = LC_OP,
    ['<'] = LC_OP,      ['>'] = LC_OP,     ['='] = LC_OP,     ['%'] = LC_OP,
    ['~'] = LC_OP,      ['^'] = LC_OP,     ['@'] = LC_OP,     ['!'] = LC_OP,
};
#undef H16
#undef H4

#define W4(a) [a] = 1, [a + 1] = 1, [a + 2] = 1, [a + 3] = 1
const unsigned char nfy__lex_ascii_word[256] = {
    W4('0'), W4('4'), ['8'] = 1, ['9'] = 1, ['_'] = 1, W4('A'),   W4('E'),
    W4('I'), W4('M'), W4('Q'),   W4('U'),   ['Y'] = 1, ['Z'] = 1, W4('a'),
    W4('e'), W4('i'), W4('m'),   W4('q'),   W4('u'),   ['y'] = 1, ['z'] = 1,
};
#undef W4

/* ---- UTF-8 -------------------------------------------------------------- */

uint32_t nfy__lex_utf8(const char *str, uint32_t n, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    uint32_t len, v, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (uint32_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

uint32_t nfy__lex_count_cps(const char *s, uint32_t a, uint32_t b)
{
    uint32_t count = 0;
    while (a < b) {
        if (!((unsigned char)s[a] & 0x80)) {
            count++, a++;
            continue;
        }
        uint32_t cp;
        uint32_t len = nfy__lex_utf8(s + a, b - a, &cp);
        count++;
        a += len ? len : 1;
    }
    return count;
}

/* ---- Numbers ------------------------------------------------------------ */

/* [0-9](?:_?[0-9])* starting at a digit p. */
static uint32_t digitpart(const char *s, uint32_t p, uint32_t lim)
{
    p++;
    while (p < lim) {
        if (nfy__lex_is_digit(s[p]))
            p++;
        else if (s[p] == '_' && p + 1 < lim && nfy__lex_is_digit(s[p + 1]))
            p += 2;
        else
            break;
    }
    return p;
}

/* [eE][-+]?[0-9](?:_?[0-9])* at p: its end, or 0 when there is none. */
static uint32_t exponent(const char *s, uint32_t p, uint32_t lim)
{
    if (p >= lim || (s[p] | 0x20) != 'e')
        return 0;
    uint32_t q = p + 1;
    if (q < lim && (s[q] == '+' || s[q] == '-'))
        q++;
    if (q < lim && nfy__lex_is_digit(s[q]))
        return digitpart(s, q, lim);
    return 0;
}

static bool is_radix_digit(char c, char radix)
{
    switch (radix) {
    case 'x':
        return nfy__lex_is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
    case 'o':
        return c >= '0' && c <= '7';
    default:
        return c == '0' || c == '1';
    }
}

/* (?:_?[digits])+ at p: its end, or 0 when there is none. */
static uint32_t radix_digits(const char *s, uint32_t p, uint32_t lim,
                             char radix)
{
    uint32_t end = 0;
    while (p < lim) {
        uint32_t q = p + (s[p] == '_');
        if (q >= lim || !is_radix_digit(s[q], radix))
            break;
        p = end = q + 1;
    }
    return end;
}

static uint32_t imaginary(const char *s, uint32_t end, uint32_t lim)
{
    return end < lim && (s[end] | 0x20) == 'j' ? end + 1 : end;
}

/* Imagnumber, then Floatnumber, then Intnumber, as tokenize tries them. */
uint32_t nfy__lex_number(const char *s, uint32_t p, uint32_t lim)
{
    if (s[p] == '.') {
        uint32_t e = digitpart(s, p + 1, lim);
        uint32_t x = exponent(s, e, lim);
        return imaginary(s, x ? x : e, lim);
    }
    uint32_t d = digitpart(s, p, lim);
    if (d < lim && (s[d] | 0x20) == 'j')
        return d + 1;
    uint32_t fl = 0;
    if (d < lim && s[d] == '.') {
        fl = d + 1;
        if (fl < lim && nfy__lex_is_digit(s[fl]))
            fl = digitpart(s, fl, lim);
        uint32_t x = exponent(s, fl, lim);
        fl = x ? x : fl;
    } else {
        fl = exponent(s, d, lim);
    }
    if (fl)
        return imaginary(s, fl, lim);
    if (s[p] != '0')
        return d;
    if (p + 1 < lim) {
        char r = (char)(s[p + 1] | 0x20);
        if (r == 'x' || r == 'o' || r == 'b') {
            uint32_t e = radix_digits(s, p + 2, lim, r);
            if (e)
                return e;
        }
    }
    uint32_t e = p + 1; /* 0(?:_?0)* */
    while (e < lim) {
        if (s[e] == '0')
            e++;
        else if (s[e] == '_' && e + 1 < lim && s[e + 1] == '0')
            e += 2;
        else
            break;
    }
    return e;
}

/* ---- Operators ---------------------------------------------------------- */

/* One character, or that character followed by '=' (e.g. "+" / "+="). */
static uint32_t op_eq(const char *s, uint32_t p, uint32_t lim, unsigned *op,
                      unsigned one, unsigned with_eq)
{
    if (p + 1 < lim && s[p + 1] == '=') {
        *op = with_eq;
        return 2;
    }
    *op = one;
    return 1;
}

/* "**" "<<" ">>" "//" style doubles, with their "=" forms. */
static uint32_t op_double(const char *s, uint32_t p, uint32_t lim, unsigned *op,
                          const unsigned ids[4])
{
    if (p + 1 < lim && s[p + 1] == s[p]) {
        if (p + 2 < lim && s[p + 2] == '=') {
            *op = ids[3];
            return 3;
        }
        *op = ids[2];
        return 2;
    }
    return op_eq(s, p, lim, op, ids[0], ids[1]);
}

static uint32_t op_single(unsigned *op, unsigned id)
{
    *op = id;
    return 1;
}

uint32_t nfy__lex_op(const char *s, uint32_t p, uint32_t lim, unsigned *op)
{
    static const unsigned star[4] = {NFY_OP_STAR, NFY_OP_STAREQUAL,
                                     NFY_OP_DOUBLESTAR, NFY_OP_DOUBLESTAREQUAL};
    static const unsigned slash[4] = {NFY_OP_SLASH, NFY_OP_SLASHEQUAL,
                                      NFY_OP_DOUBLESLASH,
                                      NFY_OP_DOUBLESLASHEQUAL};
    static const unsigned less[4] = {NFY_OP_LESS, NFY_OP_LESSEQUAL,
                                     NFY_OP_LEFTSHIFT, NFY_OP_LEFTSHIFTEQUAL};
    static const unsigned greater[4] = {NFY_OP_GREATER, NFY_OP_GREATEREQUAL,
                                        NFY_OP_RIGHTSHIFT,
                                        NFY_OP_RIGHTSHIFTEQUAL};
    switch (s[p]) {
    case '(':
        return op_single(op, NFY_OP_LPAR);
    case ')':
        return op_single(op, NFY_OP_RPAR);
    case '[':
        return op_single(op, NFY_OP_LSQB);
    case ']':
        return op_single(op, NFY_OP_RSQB);
    case '{':
        return op_single(op, NFY_OP_LBRACE);
    case '}':
        return op_single(op, NFY_OP_RBRACE);
    case ',':
        return op_single(op, NFY_OP_COMMA);
    case ';':
        return op_single(op, NFY_OP_SEMI);
    case '~':
        return op_single(op, NFY_OP_TILDE);
    case ':':
        return op_eq(s, p, lim, op, NFY_OP_COLON, NFY_OP_COLONEQUAL);
    case '+':
        return op_eq(s, p, lim, op, NFY_OP_PLUS, NFY_OP_PLUSEQUAL);
    case '%':
        return op_eq(s, p, lim, op, NFY_OP_PERCENT, NFY_OP_PERCENTEQUAL);
    case '&':
        return op_eq(s, p, lim, op, NFY_OP_AMPER, NFY_OP_AMPEREQUAL);
    case '|':
        return op_eq(s, p, lim, op, NFY_OP_VBAR, NFY_OP_VBAREQUAL);
    case '^':
        return op_eq(s, p, lim, op, NFY_OP_CIRCUMFLEX, NFY_OP_CIRCUMFLEXEQUAL);
    case '@':
        return op_eq(s, p, lim, op, NFY_OP_AT, NFY_OP_ATEQUAL);
    case '=':
        return op_eq(s, p, lim, op, NFY_OP_EQUAL, NFY_OP_EQEQUAL);
    case '-':
        if (p + 1 < lim && s[p + 1] == '>')
            return *op = NFY_OP_RARROW, 2;
        return op_eq(s, p, lim, op, NFY_OP_MINUS, NFY_OP_MINEQUAL);
    case '*':
        return op_double(s, p, lim, op, star);
    case '/':
        return op_double(s, p, lim, op, slash);
    case '<':
        return op_double(s, p, lim, op, less);
    case '>':
        return op_double(s, p, lim, op, greater);
    case '.':
        if (p + 2 < lim && s[p + 1] == '.' && s[p + 2] == '.')
            return *op = NFY_OP_ELLIPSIS, 3;
        return op_single(op, NFY_OP_DOT);
    case '!': /* "!" alone is no operator in 3.11's tokenize */
        if (p + 1 < lim && s[p + 1] == '=')
            return *op = NFY_OP_NOTEQUAL, 2;
        return *op = NFY_OP_NONE, 0;
    default:
        return *op = NFY_OP_NONE, 0;
    }
}

/* ---- Names -------------------------------------------------------------- */

uint32_t nfy__lex_name(const char *s, uint32_t p, uint32_t lim)
{
    while (p < lim) {
        unsigned cls = nfy__lex_class((unsigned char)s[p]);
        if (cls == LC_NAME || cls == LC_PREFIX || cls == LC_DIGIT) {
            p++;
            continue;
        }
        if (cls != LC_HIGH)
            break;
        uint32_t cp, len = nfy__lex_utf8(s + p, lim - p, &cp);
        if (!len || !nfy__lex_is_word_cp(cp))
            break;
        p += len;
    }
    return p;
}

/* ---- Strings ------------------------------------------------------------ */

static bool is_quote(char c)
{
    return c == '\'' || c == '"';
}

static uint16_t prefix_flag(char c)
{
    switch (c | 0x20) {
    case 'f':
        return NFY_TOKF_FSTRING;
    case 'b':
        return NFY_TOKF_BYTES;
    case 'r':
        return NFY_TOKF_RAW;
    default:
        return 0; /* 'u' */
    }
}

/* Valid two-letter prefixes: br rb fr rf in any case. */
static bool valid_pair(char a, char b)
{
    uint16_t fa = prefix_flag(a), fb = prefix_flag(b);
    if ((a | 0x20) == 'u' || (b | 0x20) == 'u' || fa == fb)
        return false;
    return (fa | fb) == (NFY_TOKF_RAW | NFY_TOKF_BYTES) ||
           (fa | fb) == (NFY_TOKF_RAW | NFY_TOKF_FSTRING);
}

bool nfy__lex_string_start(const char *s, uint32_t q, uint32_t lim,
                           nfy__lex_strstart *st)
{
    uint32_t plen;
    if (is_quote(s[q]))
        plen = 0;
    else if (nfy__lex_class((unsigned char)s[q]) != LC_PREFIX)
        return false;
    else if (q + 1 < lim && is_quote(s[q + 1]))
        plen = 1;
    else if (q + 2 < lim && is_quote(s[q + 2]) &&
             nfy__lex_class((unsigned char)s[q + 1]) == LC_PREFIX &&
             valid_pair(s[q], s[q + 1]))
        plen = 2;
    else
        return false;
    uint16_t flags = 0;
    for (uint32_t i = 0; i < plen; i++)
        flags |= prefix_flag(s[q + i]);
    uint32_t qq = q + plen;
    st->plen = plen;
    st->quote = s[qq];
    if (qq + 2 < lim && s[qq + 1] == s[qq] && s[qq + 2] == s[qq])
        flags |= NFY_TOKF_TRIPLE;
    st->flags = flags;
    return true;
}

int nfy__lex_contstr(const char *s, uint32_t body, uint32_t le, char quote,
                     uint32_t *end)
{
    /* Most strings: the first quote, with no backslash or newline before
       it, ends them; memchr finds that faster than the loop below. */
    const char *hit = memchr(s + body, quote, le - body);
    if (hit) {
        size_t span = (size_t)(hit - (s + body));
        if (!memchr(s + body, '\\', span) && !memchr(s + body, '\n', span)) {
            *end = (uint32_t)(hit - s) + 1;
            return LEX_STR_END;
        }
    }
    uint32_t i = body;
    while (i < le) {
        char c = s[i];
        if (c == quote) {
            *end = i + 1;
            return LEX_STR_END;
        }
        if (c == '\n')
            return LEX_STR_FAIL;
        if (c != '\\') {
            i++;
            continue;
        }
        if (i + 1 >= le)
            return LEX_STR_FAIL;
        if (s[i + 1] == '\n') {
            *end = i + 2;
            return LEX_STR_CONT;
        }
        if (s[i + 1] == '\r' && i + 2 < le && s[i + 2] == '\n') {
            *end = i + 3;
            return LEX_STR_CONT;
        }
        i += 2;
    }
    return LEX_STR_FAIL;
}

/* Is the quote at k escaped: an odd run of backslashes (from on) before it? */
static bool escaped(const char *s, uint32_t from, uint32_t k)
{
    uint32_t j = k;
    while (j > from && s[j - 1] == '\\')
        j--;
    return (k - j) & 1;
}

/*
 * memchr to each quote, then the backslash parity decides whether it is
 * escaped: the same as the regular expression's left-to-right "\\."
 * pairs, since a run of backslashes always starts where the scan is free.
 */
bool nfy__lex_endpat(const char *s, uint32_t p, uint32_t lim, char quote,
                     bool triple, uint32_t *end)
{
    uint32_t i = p;
    while (i < lim) {
        const char *hit = memchr(s + i, quote, lim - i);
        if (!hit)
            return false;
        uint32_t k = (uint32_t)(hit - s);
        i = k + 1;
        if (escaped(s, p, k))
            continue;
        if (!triple) {
            *end = k + 1;
            return true;
        }
        if (k + 2 < lim && s[k + 1] == quote && s[k + 2] == quote) {
            *end = k + 3;
            return true;
        }
    }
    return false;
}
