/*
 * The small tables around tokens: kind names as Python's token module spells
 * them, operator and keyword texts, keyword lookup (a perfect hash, then a
 * compare), the token vector's lifetime and the lossless check.
 */
#include <stdlib.h>
#include <string.h>

#include "pylex/lex_internal.h"
#include "pylex/pylex.h"
#include "pylex/tokpos.h"

static const char *const kind_names[] = {
#define NFY_TOK_NAME(name) #name,
    NFY_TOKEN_KIND_MAP(NFY_TOK_NAME)
#undef NFY_TOK_NAME
};

static const char *const op_texts[] = {
#define NFY_OP_TEXT(name, text) text,
    NFY_OP_MAP(NFY_OP_TEXT)
#undef NFY_OP_TEXT
};

static const char *const kw_texts[] = {
#define NFY_KW_TEXT(name, text) text,
    NFY_KW_MAP(NFY_KW_TEXT)
#undef NFY_KW_TEXT
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *nfy_tok_kind_name(nfy_tok_kind kind)
{
    if ((size_t)kind >= COUNT(kind_names))
        return "?";
    return kind_names[kind];
}

const char *nfy_op_text(unsigned op)
{
    return op < COUNT(op_texts) ? op_texts[op] : "";
}

const char *nfy_kw_text(unsigned kw)
{
    return kw < COUNT(kw_texts) ? kw_texts[kw] : "";
}

/*
 * Keyword lookup by a perfect hash of (first byte, last byte, length): the
 * slot holds the only keyword id that can match, and one length check and
 * compare confirm it. The multipliers were found by a search over
 * NFY_KW_MAP's texts; test_pylex checks that every keyword is found.
 */
const unsigned char nfy__lex_kw_slot[128] = {
    [6] = NFY_KW_RETURN,      [11] = NFY_KW_AS,      [18] = NFY_KW_FOR,
    [20] = NFY_KW_TYPE,       [26] = NFY_KW_FALSE,   [27] = NFY_KW_YIELD,
    [29] = NFY_KW_OR,         [30] = NFY_KW_RAISE,   [33] = NFY_KW_CONTINUE,
    [34] = NFY_KW_NONE_VALUE, [35] = NFY_KW_IS,      [42] = NFY_KW_FROM,
    [43] = NFY_KW_IN,         [45] = NFY_KW_WHILE,   [51] = NFY_KW_AND,
    [52] = NFY_KW_TRUE,       [53] = NFY_KW_GLOBAL,  [59] = NFY_KW_ASYNC,
    [60] = NFY_KW_LAMBDA,     [65] = NFY_KW_CLASS,   [83] = NFY_KW_AWAIT,
    [87] = NFY_KW_MATCH,      [88] = NFY_KW_PASS,    [90] = NFY_KW_NOT,
    [97] = NFY_KW_CASE,       [99] = NFY_KW_ASSERT,  [100] = NFY_KW_TRY,
    [101] = NFY_KW_WITH,      [103] = NFY_KW_ELSE,   [106] = NFY_KW_NONLOCAL,
    [107] = NFY_KW_IF,        [108] = NFY_KW_DEF,    [111] = NFY_KW_EXCEPT,
    [122] = NFY_KW_FINALLY,   [123] = NFY_KW_IMPORT, [124] = NFY_KW_DEL,
    [126] = NFY_KW_BREAK,     [127] = NFY_KW_ELIF,
};

#define KL(n) (1u << (n))
const uint16_t nfy__lex_kw_first_len[128] = {
    ['F'] = KL(5),
    ['N'] = KL(4),
    ['T'] = KL(4),
    ['a'] = KL(2) | KL(3) | KL(5) | KL(6),
    ['b'] = KL(5),
    ['c'] = KL(4) | KL(5) | KL(8),
    ['d'] = KL(3),
    ['e'] = KL(4) | KL(6),
    ['f'] = KL(3) | KL(4) | KL(7),
    ['g'] = KL(6),
    ['i'] = KL(2) | KL(6),
    ['l'] = KL(6),
    ['m'] = KL(5),
    ['n'] = KL(3) | KL(8),
    ['o'] = KL(2),
    ['p'] = KL(4),
    ['r'] = KL(5) | KL(6),
    ['t'] = KL(3) | KL(4),
    ['w'] = KL(4) | KL(5),
    ['y'] = KL(5),
};
#undef KL

const char nfy__lex_kw_text[][9] = {
#define NFY_KW_TEXT9(name, text) text,
    NFY_KW_MAP(NFY_KW_TEXT9)
#undef NFY_KW_TEXT9
};

const unsigned char nfy__lex_kw_len[] = {
#define NFY_KW_LEN(name, text) sizeof(text) - 1,
    NFY_KW_MAP(NFY_KW_LEN)
#undef NFY_KW_LEN
};

nfy_kw nfy_keyword_lookup(const char *s, size_t n)
{
    return (nfy_kw)nfy__lex_keyword(s, n, n);
}

void nfy_tokens_init(nfy_tokens *t)
{
    t->toks.items = NULL;
    t->toks.len = 0;
    t->toks.cap = 0;
    t->tokpos = NULL;
}

void nfy_tokens_release(nfy_tokens *t)
{
    nfy_vec_free(&t->toks);
    if (t->tokpos) {
        nfy__tokpos_free(t->tokpos);
        free(t->tokpos);
        t->tokpos = NULL;
    }
}

void nfy_lex_scratch_init(nfy_lex_scratch *sc)
{
    nfy_tokens_init(&sc->spare);
}

void nfy_lex_scratch_release(nfy_lex_scratch *sc)
{
    nfy_tokens_release(&sc->spare);
}

static size_t tokens_bytes(const nfy_tokens *t)
{
    size_t b = t->toks.cap * sizeof *t->toks.items;
    if (t->tokpos)
        b += t->tokpos->cap * sizeof *t->tokpos->items;
    return b;
}

void nfy_tokens_recycle(nfy_tokens *t, nfy_lex_scratch *sc)
{
    bool spare_empty = !sc->spare.toks.items && !sc->spare.tokpos;
    if (spare_empty && tokens_bytes(t) <= NFY_LEX_SCRATCH_KEEP) {
        sc->spare = *t;
        sc->spare.toks.len = 0;
        if (sc->spare.tokpos)
            nfy__tokpos_reset(sc->spare.tokpos, NULL);
    } else {
        nfy_tokens_release(t);
    }
    nfy_tokens_init(t);
}

nfy_str nfy_token_text(const nfy_source *src, const nfy_token *tok)
{
    nfy_str s = {src->data + tok->start, tok->end - tok->start};
    return s;
}

static bool lossless_fail(uint32_t *bad_offset, uint32_t at)
{
    if (bad_offset)
        *bad_offset = at;
    return false;
}

bool nfy_tokens_lossless(const nfy_source *src, const nfy_tokens *t,
                         uint32_t *bad_offset)
{
    uint32_t at = 0;
    for (size_t i = 0; i < t->toks.len; i++) {
        const nfy_token *tok = &t->toks.items[i];
        if (tok->trivia_start != at || tok->start < tok->trivia_start ||
            tok->end < tok->start || tok->end > src->len)
            return lossless_fail(bad_offset, at);
        at = tok->end;
    }
    if (at != src->len || t->toks.len == 0 ||
        t->toks.items[t->toks.len - 1].kind != NFY_TOK_ENDMARKER)
        return lossless_fail(bad_offset, at);
    return true;
}
