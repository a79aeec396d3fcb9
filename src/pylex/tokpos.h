/*
 * The token summary nfy_lex_lex makes alongside its tokens for pysyn's first
 * pass (private to pylex and pysyn): one 8-byte record per significant
 * token (not COMMENT or NL) with its kind, keyword and operator ids and
 * two hints. The lexer writes the records of most tokens while their
 * fields are still in registers, so pysyn need not walk the 36-byte
 * tokens again; pysyn visits only the records that carry a hint.
 *
 * The summary belongs to the nfy_tokens it was made with and is valid
 * while those are as nfy_lex_lex left them (same array, same length);
 * nfy_lex_tokpos_get says whether it is, and pysyn builds its own with
 * nfy__tokpos_build when not.
 */
#ifndef NPUIFY_PYLEX_TOKPOS_H
#define NPUIFY_PYLEX_TOKPOS_H

#include "pylex/pylex.h"

/* (word: the four byte fields at once, as the lexer writes them; a
   uint32_t store, unlike a memcpy, does not alias everything) */
typedef struct nfy__tokpos {
    uint32_t tok; /* token index */
    union {
        struct {
            uint8_t kind;  /* token kind */
            uint8_t kw;    /* NAME: pylex's keyword id, else 0 */
            uint8_t op;    /* OP: operator id, else 0 */
            uint8_t hints; /* TP_* */
        };
        uint32_t word;
    };
} nfy__tokpos;

enum {
    /* the token starts on a line after the previous record's token ends,
       and that is no NEWLINE, INDENT or DEDENT (after those a new line
       gives pysyn nothing to do: every bracket is closed) */
    TP_LINE = 1u << 0,
    /* a bracket, ';', NEWLINE, INDENT, DEDENT, ENDMARKER or ERRORTOKEN */
    TP_EVENT = 1u << 1
};

struct nfy__tokpos_cache {
    nfy__tokpos *items;
    size_t len, cap;
    const nfy_token *of;    /* the token array summarised */
    size_t done;            /* tokens summarised so far */
    uint32_t prev_end_line; /* end line of the last record's token */
};
typedef struct nfy__tokpos_cache nfy__tokpos_cache;

/* TP_EVENT for operator ids (brackets and ';'), indexed by op & 63. */
extern const uint8_t nfy_lex_tokpos_op_event[64];
/* TP_EVENT for the kinds that always are events, 0 for the others, 0xFF
   for those that get no record (COMMENT, NL); indexed by kind & 15. */
extern const uint8_t nfy_lex_tokpos_kind_class[16];

/** Start an empty summary of toks (nothing summarised yet). */
void nfy_lex_tokpos_reset(nfy__tokpos_cache *c, const nfy_token *toks);
/** Set a record's four byte fields (one store where bytes are little-endian
    in the word). */
static inline void nfy__tokpos_set(nfy__tokpos *r, unsigned kind, unsigned kw,
                                   unsigned op, unsigned hints)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    r->word = kind | kw << 8 | op << 16 | hints << 24;
#else
    r->kind = (uint8_t)kind;
    r->kw = (uint8_t)kw;
    r->op = (uint8_t)op;
    r->hints = (uint8_t)hints;
#endif
}

/** Is the record before r (in items) a NEWLINE, INDENT or DEDENT? */
static inline bool nfy__tokpos_after_end(const nfy__tokpos *items,
                                         const nfy__tokpos *r)
{
    if (r == items)
        return false;
    unsigned k = r[-1].kind;
    return k == NFY_TOK_NEWLINE || k == NFY_TOK_INDENT || k == NFY_TOK_DEDENT;
}

/**
 * Append the records of tokens [c->done, n) (room is made). Inline: the
 * lexer calls it for the few tokens its general path made before each
 * fast loop (INDENT, DEDENT, NL...); pysyn for tokens without a summary.
 */
static inline void nfy__tokpos_build(nfy__tokpos_cache *c,
                                     const nfy_token *toks, size_t n)
{
    if (c->done >= n)
        return;
    if (c->cap - c->len < n - c->done)
        nfy_vec_reserve(c, n - c->done);
    nfy__tokpos *r = c->items + c->len;
    uint32_t prev_line = c->prev_end_line;
    for (size_t i = c->done; i < n; i++) {
        const nfy_token *t = &toks[i];
        unsigned kind = t->kind, hints = nfy_lex_tokpos_kind_class[kind & 15];
        if (hints == 0xFF)
            continue;
        /* a NAME's op is its keyword id, an OP's its operator id */
        unsigned kw = 0, op = 0;
        if (kind == NFY_TOK_NAME) {
            kw = t->op < 256 ? t->op : 0;
        } else if (kind == NFY_TOK_OP) {
            op = t->op & 0xFF;
            hints |= nfy_lex_tokpos_op_event[t->op & 63];
        }
        if (t->line > prev_line && !nfy__tokpos_after_end(c->items, r))
            hints |= TP_LINE;
        prev_line = t->end_line;
        r->tok = (uint32_t)i;
        nfy__tokpos_set(r, kind, kw, op, hints);
        r++;
    }
    c->prev_end_line = prev_line;
    c->len = (size_t)(r - c->items);
    c->done = n;
}
/** The summary of t when it is complete and current, else NULL. */
const nfy__tokpos_cache *nfy_lex_tokpos_get(const nfy_tokens *t);
/** Free a summary's records. */
void nfy_lex_tokpos_free(nfy__tokpos_cache *c);

#endif
