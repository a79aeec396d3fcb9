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

const char *nfy_lex_tok_kind_name(nfy_tok_kind kind)
{
    if ((size_t)kind >= COUNT(kind_names))
        return "?";
    return kind_names[kind];
}

const char *nfy_lex_op_text(unsigned op)
{
    return op < COUNT(op_texts) ? op_texts[op] : "";
}

const char *nfy_lex_kw_text(unsigned kw)
{
    return kw < COUNT(kw_texts) ? kw_texts[kw] : "";
}

/*
 * Keyword lookup by a perfect hash of a name's first 8 bytes (zero-filled
 * past its end, read as a little-endian word) times NFY__LEX_KW_MUL, top 7
 * bits: the slot holds the only keyword id that can match, one word
 * compare confirms it. The multiplier was found by a search over
 * NFY_KW_MAP's texts; test_pylex checks that every keyword is found.
 */
const unsigned char nfy__lex_kw_slot[128] = {
    [1] = NFY_KW_MATCH,   [5] = NFY_KW_ASYNC,       [9] = NFY_KW_AWAIT,
    [13] = NFY_KW_ELIF,   [14] = NFY_KW_CLASS,      [19] = NFY_KW_IS,
    [20] = NFY_KW_IMPORT, [21] = NFY_KW_IN,         [22] = NFY_KW_RETURN,
    [24] = NFY_KW_TYPE,   [27] = NFY_KW_NONE_VALUE, [30] = NFY_KW_FALSE,
    [31] = NFY_KW_DEF,    [33] = NFY_KW_NONLOCAL,   [37] = NFY_KW_FOR,
    [38] = NFY_KW_WHILE,  [51] = NFY_KW_CONTINUE,   [52] = NFY_KW_TRUE,
    [57] = NFY_KW_BREAK,  [58] = NFY_KW_GLOBAL,     [59] = NFY_KW_PASS,
    [63] = NFY_KW_ELSE,   [64] = NFY_KW_EXCEPT,     [66] = NFY_KW_FINALLY,
    [68] = NFY_KW_RAISE,  [77] = NFY_KW_DEL,        [84] = NFY_KW_AND,
    [89] = NFY_KW_AS,     [93] = NFY_KW_WITH,       [94] = NFY_KW_ASSERT,
    [98] = NFY_KW_CASE,   [102] = NFY_KW_LAMBDA,    [105] = NFY_KW_YIELD,
    [107] = NFY_KW_OR,    [110] = NFY_KW_NOT,       [119] = NFY_KW_TRY,
    [120] = NFY_KW_FROM,  [127] = NFY_KW_IF,
};

const char nfy__lex_kw_text[][9] = {
#define NFY_KW_TEXT9(name, text) text,
    NFY_KW_MAP(NFY_KW_TEXT9)
#undef NFY_KW_TEXT9
};

unsigned nfy__lex_keyword_short(const char *s, size_t n)
{
    char pad[8] = {0};
    if (!n || n > 8)
        return 0;
    memcpy(pad, s, n);
    return nfy__lex_keyword(pad, n, 8);
}

nfy_kw nfy_lex_keyword_lookup(const char *s, size_t n)
{
    return (nfy_kw)nfy__lex_keyword(s, n, n);
}

void nfy_lex_tokens_init(nfy_tokens *t)
{
    t->toks.items = NULL;
    t->toks.len = 0;
    t->toks.cap = 0;
    t->tokpos = NULL;
}

void nfy_lex_tokens_release(nfy_tokens *t)
{
    nfy_vec_free(&t->toks);
    if (t->tokpos) {
        nfy_lex_tokpos_free(t->tokpos);
        free(t->tokpos);
        t->tokpos = NULL;
    }
}

void nfy_lex_scratch_init(nfy_lex_scratch *sc)
{
    nfy_lex_tokens_init(&sc->spare);
}

void nfy_lex_scratch_release(nfy_lex_scratch *sc)
{
    nfy_lex_tokens_release(&sc->spare);
}

static size_t tokens_bytes(const nfy_tokens *t)
{
    size_t b = t->toks.cap * sizeof *t->toks.items;
    if (t->tokpos)
        b += t->tokpos->cap * sizeof *t->tokpos->items;
    return b;
}

void nfy_lex_tokens_recycle(nfy_tokens *t, nfy_lex_scratch *sc)
{
    bool spare_empty = !sc->spare.toks.items && !sc->spare.tokpos;
    if (spare_empty && tokens_bytes(t) <= NFY_LEX_SCRATCH_KEEP) {
        sc->spare = *t;
        sc->spare.toks.len = 0;
        if (sc->spare.tokpos)
            nfy_lex_tokpos_reset(sc->spare.tokpos, NULL);
    } else {
        nfy_lex_tokens_release(t);
    }
    nfy_lex_tokens_init(t);
}

nfy_str nfy_lex_token_text(const nfy_source *src, const nfy_token *tok)
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

bool nfy_lex_tokens_lossless(const nfy_source *src, const nfy_tokens *t,
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
