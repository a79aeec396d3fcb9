/*
 * The small tables around tokens: kind names as Python's token module spells
 * them, operator and keyword texts, keyword lookup (switch on length, then a
 * compare), the token vector's lifetime and the lossless check.
 */
#include <stdlib.h>
#include <string.h>

#include "npuify/pylex.h"

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

/* Candidates per length, so a lookup costs at most a handful of compares. */
static nfy_kw match_any(const char *s, size_t n, const nfy_kw *cands,
                        size_t ncands)
{
    for (size_t i = 0; i < ncands; i++)
        if (kw_texts[cands[i]][0] == s[0] && !memcmp(kw_texts[cands[i]], s, n))
            return cands[i];
    return NFY_KW_NONE;
}

nfy_kw nfy_keyword_lookup(const char *s, size_t n)
{
    static const nfy_kw len2[] = {NFY_KW_AS, NFY_KW_IF, NFY_KW_IN, NFY_KW_IS,
                                  NFY_KW_OR};
    static const nfy_kw len3[] = {NFY_KW_AND, NFY_KW_DEF, NFY_KW_DEL,
                                  NFY_KW_FOR, NFY_KW_NOT, NFY_KW_TRY};
    static const nfy_kw len4[] = {NFY_KW_NONE_VALUE, NFY_KW_TRUE, NFY_KW_ELIF,
                                  NFY_KW_ELSE, NFY_KW_FROM, NFY_KW_PASS,
                                  NFY_KW_WITH, NFY_KW_CASE, NFY_KW_TYPE};
    static const nfy_kw len5[] = {NFY_KW_FALSE, NFY_KW_ASYNC, NFY_KW_AWAIT,
                                  NFY_KW_BREAK, NFY_KW_CLASS, NFY_KW_RAISE,
                                  NFY_KW_WHILE, NFY_KW_YIELD, NFY_KW_MATCH};
    static const nfy_kw len6[] = {NFY_KW_ASSERT, NFY_KW_EXCEPT, NFY_KW_GLOBAL,
                                  NFY_KW_IMPORT, NFY_KW_LAMBDA,
                                  NFY_KW_RETURN};
    static const nfy_kw len7[] = {NFY_KW_FINALLY};
    static const nfy_kw len8[] = {NFY_KW_CONTINUE, NFY_KW_NONLOCAL};
    switch (n) {
    case 2:
        return match_any(s, n, len2, COUNT(len2));
    case 3:
        return match_any(s, n, len3, COUNT(len3));
    case 4:
        return match_any(s, n, len4, COUNT(len4));
    case 5:
        return match_any(s, n, len5, COUNT(len5));
    case 6:
        return match_any(s, n, len6, COUNT(len6));
    case 7:
        return match_any(s, n, len7, COUNT(len7));
    case 8:
        return match_any(s, n, len8, COUNT(len8));
    default:
        return NFY_KW_NONE;
    }
}

void nfy_tokens_init(nfy_tokens *t)
{
    t->toks.items = NULL;
    t->toks.len = 0;
    t->toks.cap = 0;
}

void nfy_tokens_release(nfy_tokens *t)
{
    nfy_vec_free(&t->toks);
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
