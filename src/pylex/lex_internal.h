/*
 * Private pieces of the pylex tokenizer shared between its files: the byte
 * classes of the hot loop, the scanners for numbers, operators, names and
 * strings (each a pure function over the bytes, mirroring one regular
 * expression of Python 3.11's Lib/tokenize.py), the PEP 701 f-string
 * scanner and the Unicode name tables.
 *
 * Scanners take the buffer s, a start offset and a limit (exclusive) and
 * return end offsets; they never read at or past the limit.
 */
#ifndef NPUIFY_PYLEX_LEX_INTERNAL_H
#define NPUIFY_PYLEX_LEX_INTERNAL_H

#include <string.h>

#include "pylex/pylex.h"

/* What a byte can start, for the dispatch in the token loop. */
enum lex_class {
    LC_BAD = 0, /* no token starts here: $ ? ` control bytes ... */
    LC_WS,      /* ' ' '\t' '\f': tokenize's Whitespace */
    LC_NL,      /* '\n' */
    LC_CR,      /* '\r' */
    LC_HASH,    /* '#' */
    LC_QUOTE,   /* ' and " */
    LC_PREFIX,  /* b r u f and capitals: may start a string prefix */
    LC_NAME,    /* other ASCII letters and '_' */
    LC_DIGIT,   /* 0-9 */
    LC_DOT,     /* '.' */
    LC_OP,      /* a character that starts an operator */
    LC_BSLASH,  /* '\\' */
    LC_HIGH     /* a byte >= 0x80 */
};

/* enum lex_class of each byte (lex_scan.c). */
extern const unsigned char nfy__lex_byte_class[256];

/* 1 for the ASCII bytes of tokenize's "\w" ([0-9A-Za-z_]), else 0. */
extern const unsigned char nfy__lex_ascii_word[256];

/** Class of a byte. */
static inline unsigned nfy__lex_class(unsigned char c)
{
    return nfy__lex_byte_class[c];
}

static inline bool nfy__lex_is_quote(char c)
{
    return c == '\'' || c == '"';
}

static inline bool nfy__lex_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Keyword tables (tokens.c): the id in each hash slot (0: none) and the
   texts by id (zero-padded to 9 bytes). */
extern const unsigned char nfy__lex_kw_slot[128];
extern const char nfy__lex_kw_text[][9];
#define NFY__LEX_KW_MUL 0xae658f33fe3b890bull

/* Keyword id of s[0, n) when fewer than 8 bytes are readable from s
   (tokens.c). */
unsigned nfy__lex_keyword_short(const char *s, size_t n);

/* A little-endian word of the 8 bytes at s. */
static inline uint64_t nfy__lex_load_le64(const char *s)
{
    uint64_t a;
    memcpy(&a, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    a = __builtin_bswap64(a);
#endif
    return a;
}

/**
 * Keyword id of the name s[0, n), 0 (NFY_KW_NONE) if it is none. avail:
 * bytes readable from s (at least n); with 8 or more, one 8-byte load.
 * No branch on the name itself: whether a name is a keyword is too
 * irregular to predict, and a filter in front would cost every name its
 * mispredicts. Names over 8 bytes are hashed on their first 8 and fail.
 */
static inline unsigned nfy__lex_keyword(const char *s, size_t n, size_t avail)
{
    if (__builtin_expect(avail < 8, 0))
        return nfy__lex_keyword_short(s, n);
    /* the first n bytes (all 8 from n = 8 to 15); two shifts, each under
       64, and no compare the compiler could make a branch of: n over 15
       gives a wrong mask, but such names fail the length test anyway */
    unsigned half = 4 * ((unsigned)n & 15);
    uint64_t a = nfy__lex_load_le64(s) & ~((~0ull << half) << half);
    unsigned id = nfy__lex_kw_slot[(a * NFY__LEX_KW_MUL) >> 57];
    unsigned hit = (a == nfy__lex_load_le64(nfy__lex_kw_text[id])) & (n <= 8);
    return id & -hit;
}

/** tokenize's "\w" and str.isidentifier() on one code point >= 0x80. */
bool nfy__lex_is_word_cp(uint32_t cp);
bool nfy__lex_is_ident_start_cp(uint32_t cp);

/** Length (1-4) of the valid UTF-8 sequence at s, 0 if invalid. */
uint32_t nfy__lex_utf8(const char *s, uint32_t n, uint32_t *cp);
/** Code points in [a, b), each invalid byte counting as one. */
uint32_t nfy__lex_count_cps(const char *s, uint32_t a, uint32_t b);

/** End of tokenize's Number at p (s[p] is a digit, or '.' then a digit). */
uint32_t nfy__lex_number(const char *s, uint32_t p, uint32_t lim);
/** Length of the operator at p (0 if none, e.g. a lone '!'); sets *op. */
uint32_t nfy__lex_op(const char *s, uint32_t p, uint32_t lim, unsigned *op);
/** End of tokenize's Name ("\w+") at p; p if no word character there. */
uint32_t nfy__lex_name(const char *s, uint32_t p, uint32_t lim);

/* The start of a string literal: prefix, quote character, triple or not. */
typedef struct {
    uint32_t plen;  /* prefix letters before the quote */
    uint16_t flags; /* NFY_TOKF_FSTRING/BYTES/RAW/TRIPLE */
    char quote;
} nfy__lex_strstart;

/** Is there a string prefix + opening quote at q (all before lim)? */
bool nfy__lex_string_start(const char *s, uint32_t q, uint32_t lim,
                           nfy__lex_strstart *st);

enum { LEX_STR_FAIL, LEX_STR_END, LEX_STR_CONT };

/**
 * tokenize's ContStr after the opening quote, within one line [body, le):
 * LEX_STR_END (*end after the closing quote), LEX_STR_CONT (*end after the
 * backslash-newline) or LEX_STR_FAIL.
 */
int nfy__lex_contstr(const char *s, uint32_t body, uint32_t le, char quote,
                     uint32_t *end);

/**
 * tokenize's endpats: the closing quote(s) of a string from p, not past lim;
 * a backslash escapes the next byte. (tokenize matches line by line, and
 * its '.' does not match a newline, so a backslash-newline ends the match
 * of that line; no quote can follow on it, so scanning on is the same.)
 */
bool nfy__lex_endpat(const char *s, uint32_t p, uint32_t lim, char quote,
                     bool triple, uint32_t *end);

/**
 * PEP 701 scan of an f-string body starting at body (after the opening
 * quotes): replacement fields may hold nested strings with any quotes,
 * newlines and comments. True with *end after the closing quotes; false
 * when it does not close within n, the nesting limit or the budget. The
 * bytes looked at are taken off *budget (the lexer gives each file a
 * budget linear in its size, so hostile input cannot make lexing slow).
 */
bool nfy__lex_fstring_scan(const char *s, uint32_t body, uint32_t n, char quote,
                           bool triple, bool raw, uint32_t *budget,
                           uint32_t *end);

#endif
