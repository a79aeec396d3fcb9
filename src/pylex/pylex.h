/*
 * pylex: a lossless Python 3 tokenizer (3.8-3.13 syntax, PEP 701 f-strings).
 *
 * Tokens are spans into an nfy_source and follow CPython's tokenize module:
 * the same kinds (NAME, NUMBER, STRING, OP, COMMENT, NL, NEWLINE, INDENT,
 * DEDENT, ENDMARKER), the same strings and the same (line, col) positions,
 * columns in code points. An f-string is one STRING token, as tokenize in
 * Python 3.11 reports it; nfy_lex_fstring_split gives its literal and {expr}
 * parts.
 *
 * Losslessness: each token owns the bytes between the previous token's end
 * and its own start as leading trivia (spaces, tabs, form feeds, a BOM,
 * backslash continuations). The ENDMARKER owns whatever is left. So for any
 * input bytes, concatenating [trivia_start, end) of every token in order
 * reproduces the input exactly. Bad input (invalid UTF-8, NUL bytes,
 * unterminated strings, stray characters, inconsistent dedents) yields
 * ERRORTOKEN tokens and diagnostics, never a crash and never a lost byte.
 *
 * Does not: build any tree (pysyn does), decode escapes, or check grammar.
 */
#ifndef NPUIFY_PYLEX_H
#define NPUIFY_PYLEX_H

#include "core/core.h"

#define NFY_TOKEN_KIND_MAP(X)                                                  \
    X(ENDMARKER)                                                               \
    X(NAME)                                                                    \
    X(NUMBER)                                                                  \
    X(STRING)                                                                  \
    X(OP)                                                                      \
    X(COMMENT)                                                                 \
    X(NL)                                                                      \
    X(NEWLINE)                                                                 \
    X(INDENT)                                                                  \
    X(DEDENT)                                                                  \
    X(ERRORTOKEN)

typedef enum {
#define NFY_TOK_ENUM(name) NFY_TOK_##name,
    NFY_TOKEN_KIND_MAP(NFY_TOK_ENUM)
#undef NFY_TOK_ENUM
} nfy_tok_kind;

/** "NAME", "OP", ... exactly as Python's token.tok_name spells them. */
const char *nfy_lex_tok_kind_name(nfy_tok_kind kind);

/* Flags on STRING tokens (from the prefix). */
enum nfy_tok_flags {
    NFY_TOKF_FSTRING = 1u << 0,
    NFY_TOKF_BYTES = 1u << 1,
    NFY_TOKF_RAW = 1u << 2,
    NFY_TOKF_TRIPLE = 1u << 3,
    NFY_TOKF_UNTERMINATED = 1u << 4 /* also on ERRORTOKEN */
};

typedef struct {
    uint32_t trivia_start; /* == previous token's end */
    uint32_t start;        /* token text is [start, end) */
    uint32_t end;
    uint32_t line, col;         /* start, 1-based line, 0-based code points */
    uint32_t end_line, end_col; /* end, as tokenize reports it */
    uint8_t kind;               /* nfy_tok_kind */
    uint8_t flags;              /* enum nfy_tok_flags */
    uint16_t op; /* for OP: an nfy_op_* value; for NAME: keyword id or 0 */
} nfy_token;     /* 32 bytes: a file holds one per ~6 bytes of source */

/* Operator ids (token.EXACT_TYPE names); NFY_OP_NONE for non-operators. */
/* clang-format off */
#define NFY_OP_MAP(X)                                                          \
    X(NONE, "") X(LPAR, "(") X(RPAR, ")") X(LSQB, "[") X(RSQB, "]")            \
    X(LBRACE, "{") X(RBRACE, "}") X(COLON, ":") X(COMMA, ",") X(SEMI, ";")     \
    X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") X(VBAR, "|")         \
    X(AMPER, "&") X(LESS, "<") X(GREATER, ">") X(EQUAL, "=") X(DOT, ".")       \
    X(PERCENT, "%") X(EQEQUAL, "==") X(NOTEQUAL, "!=") X(LESSEQUAL, "<=")      \
    X(GREATEREQUAL, ">=") X(TILDE, "~") X(CIRCUMFLEX, "^")                     \
    X(LEFTSHIFT, "<<") X(RIGHTSHIFT, ">>") X(DOUBLESTAR, "**")                 \
    X(PLUSEQUAL, "+=") X(MINEQUAL, "-=") X(STAREQUAL, "*=")                    \
    X(SLASHEQUAL, "/=") X(PERCENTEQUAL, "%=") X(AMPEREQUAL, "&=")              \
    X(VBAREQUAL, "|=") X(CIRCUMFLEXEQUAL, "^=") X(LEFTSHIFTEQUAL, "<<=")       \
    X(RIGHTSHIFTEQUAL, ">>=") X(DOUBLESTAREQUAL, "**=")                        \
    X(DOUBLESLASH, "//") X(DOUBLESLASHEQUAL, "//=") X(AT, "@")                 \
    X(ATEQUAL, "@=") X(RARROW, "->") X(ELLIPSIS, "...")                        \
    X(COLONEQUAL, ":=") X(EXCLAMATION, "!")
/* clang-format on */

typedef enum {
#define NFY_OP_ENUM(name, text) NFY_OP_##name,
    NFY_OP_MAP(NFY_OP_ENUM)
#undef NFY_OP_ENUM
} nfy_op;

/** The text of an operator id ("" for NFY_OP_NONE or an unknown id). */
const char *nfy_lex_op_text(unsigned op);

/*
 * Keyword ids for NAME tokens (token.op). Hard keywords first, then the soft
 * keywords match/case/type (3.10/3.12): whether those act as keywords is the
 * parser's call, the lexer only names them.
 */
/* clang-format off */
#define NFY_KW_MAP(X)                                                          \
    X(NONE, "") X(FALSE, "False") X(NONE_VALUE, "None") X(TRUE, "True")        \
    X(AND, "and") X(AS, "as") X(ASSERT, "assert") X(ASYNC, "async")            \
    X(AWAIT, "await") X(BREAK, "break") X(CLASS, "class")                      \
    X(CONTINUE, "continue") X(DEF, "def") X(DEL, "del") X(ELIF, "elif")        \
    X(ELSE, "else") X(EXCEPT, "except") X(FINALLY, "finally")                  \
    X(FOR, "for") X(FROM, "from") X(GLOBAL, "global") X(IF, "if")              \
    X(IMPORT, "import") X(IN, "in") X(IS, "is") X(LAMBDA, "lambda")            \
    X(NONLOCAL, "nonlocal") X(NOT, "not") X(OR, "or") X(PASS, "pass")          \
    X(RAISE, "raise") X(RETURN, "return") X(TRY, "try") X(WHILE, "while")      \
    X(WITH, "with") X(YIELD, "yield") X(MATCH, "match") X(CASE, "case")        \
    X(TYPE, "type")
/* clang-format on */

typedef enum {
#define NFY_KW_ENUM(name, text) NFY_KW_##name,
    NFY_KW_MAP(NFY_KW_ENUM)
#undef NFY_KW_ENUM
} nfy_kw;

/** First soft keyword id: ids >= this are soft keywords. */
#define NFY_KW_FIRST_SOFT NFY_KW_MATCH

/** Keyword id of an identifier's bytes, NFY_KW_NONE if it is none. */
nfy_kw nfy_lex_keyword_lookup(const char *s, size_t n);
/** The text of a keyword id ("" for NFY_KW_NONE or an unknown id). */
const char *nfy_lex_kw_text(unsigned kw);

/**
 * A file's tokens; owns its array. Spans point into the nfy_source.
 * tokpos is private to pylex and pysyn: a summary nfy_lex_lex makes for
 * nfy_pysyn_parse, used while toks is as nfy_lex_lex left it (same array and
 * length; change tokens in place and parse them, and the result follows
 * the old ones). Set up with nfy_lex_tokens_init, free with
 * nfy_lex_tokens_release.
 */
typedef struct {
    NFY_VEC(nfy_token) toks;
    struct nfy__tokpos_cache *tokpos;
} nfy_tokens;

void nfy_lex_tokens_init(nfy_tokens *t);
void nfy_lex_tokens_release(nfy_tokens *t);

/**
 * Tokenize src into out (which is cleared first). Problems go to diags
 * (may be NULL) with codes "lex-*". Returns NFY_OK even for bad input (the
 * tokens still cover every byte); NFY_ELIMIT only for files too large for
 * 32-bit offsets. The last token is always ENDMARKER. Relies on the NUL
 * byte nfy_source keeps after its data.
 *
 * Codes: lex-unterminated-string, lex-bad-char (a character no token
 * starts with: $ ? ` a lone CR or backslash...), lex-nul-byte,
 * lex-invalid-utf8 (once per file), lex-dedent (inconsistent dedent),
 * lex-eof-in-statement (open brackets or a continuation at EOF),
 * lex-encoding (a coding cookie other than UTF-8: bytes are read as UTF-8),
 * lex-too-many-errors (after 63 errors the rest are not reported).
 * Where Python 3.11's tokenize raises instead, the tokens are our best
 * guess (e.g. an unterminated string is one ERRORTOKEN up to the end).
 */
nfy_status nfy_lex_lex(const nfy_source *src, nfy_tokens *out,
                       nfy_diags *diags);

/**
 * Token arrays kept between files (one per thread, owned by the caller) so
 * that each file reuses the pages of the last instead of faulting in fresh
 * ones. nfy_lex_reuse lexes into an empty out (nfy_lex_tokens_init'ed or
 * recycled) with the scratch's arrays, and nfy_lex_tokens_recycle gives them
 * back when the tokens (and any nfy_pysyn made from them) are no longer
 * used. Arrays over NFY_LEX_SCRATCH_KEEP bytes are freed instead, so one
 * huge file does not pin its memory for the whole run.
 */
typedef struct {
    nfy_tokens spare; /* empty, with the capacity of an earlier file */
} nfy_lex_scratch;

/* (1 MiB: a bigger limit kept blocks that glibc would otherwise have freed,
   raising its mmap threshold, and faulted more pages in a convert run) */
#define NFY_LEX_SCRATCH_KEEP ((size_t)1 << 20)

void nfy_lex_scratch_init(nfy_lex_scratch *sc);
void nfy_lex_scratch_release(nfy_lex_scratch *sc);

/** nfy_lex_lex with the scratch's arrays; the tokens are the same. */
nfy_status nfy_lex_reuse(const nfy_source *src, nfy_tokens *out,
                         nfy_diags *diags, nfy_lex_scratch *sc);

/** Release t (as nfy_lex_tokens_release), keeping its arrays in sc when they
    are small enough; t is left empty and may be lexed into again. */
void nfy_lex_tokens_recycle(nfy_tokens *t, nfy_lex_scratch *sc);

/**
 * Check the lossless invariant: the tokens' [trivia_start, end) ranges are
 * contiguous, ordered, cover exactly [0, src->len) and the last token is
 * ENDMARKER. Returns true when it holds; otherwise *bad_offset (may be NULL)
 * gets the first byte offset where it breaks.
 */
bool nfy_lex_tokens_lossless(const nfy_source *src, const nfy_tokens *t,
                             uint32_t *bad_offset);

/** The token's text as a view ([start, end) of the source). */
nfy_str nfy_lex_token_text(const nfy_source *src, const nfy_token *tok);

/** One piece of an f-string STRING token. */
typedef struct {
    nfy_span span; /* bytes in the source */
    bool is_expr;  /* true: the expression after '{', up to its '!conv',
                      ':spec' or '}' (none of those included; a trailing
                      '=' of f"{x=}" stays in the expression) */
    nfy_span conv; /* "!r"/"!s"/"!a" part of an expr, '!' included; empty
                      (start == end) when none */
    nfy_span spec; /* format spec of an expr without the ':', raw (nested
                      {fields} not split); empty when none */
} nfy_fstring_part;

typedef NFY_VEC(nfy_fstring_part) nfy_fstring_parts;

/**
 * Split an f-string token into literal parts and {expr} parts, in order.
 * The prefix and quotes are excluded; "{{" and "}}" stay inside literal
 * parts. Parts are appended to out. Returns false if tok is not an f-string.
 * A malformed f-string (unclosed field) gives one literal part: its body.
 */
bool nfy_lex_fstring_split(const nfy_source *src, const nfy_token *tok,
                           nfy_fstring_parts *out);

#endif
