/*
 * The small tables around tokens: kind names as Python's token module spells
 * them, operator and keyword texts, keyword lookup (switch on length, then a
 * compare), the token vector's lifetime and the lossless check.
 */
#include "npuify/pylex.h"

#include <stdlib.h>
#include <string.h>

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

/* s (n bytes) is kw's text? Keywords are short: a loop beats memcmp. */
static nfy_kw kw_if(const char *s, size_t n, nfy_kw kw)
{
    const char *k = kw_texts[kw];
    for (size_t i = 1; i < n; i++) /* s[0] was matched by the caller */
        if (s[i] != k[i])
            return NFY_KW_NONE;
    return kw;
}

static nfy_kw kw_len2(const char *s)
{
    switch (s[0]) {
    case 'a':
        return kw_if(s, 2, NFY_KW_AS);
    case 'o':
        return kw_if(s, 2, NFY_KW_OR);
    case 'i':
        return s[1] == 'f'   ? NFY_KW_IF
               : s[1] == 'n' ? NFY_KW_IN
               : s[1] == 's' ? NFY_KW_IS
                             : NFY_KW_NONE;
    default:
        return NFY_KW_NONE;
    }
}

static nfy_kw kw_len3(const char *s)
{
    switch (s[0]) {
    case 'a':
        return kw_if(s, 3, NFY_KW_AND);
    case 'd':
        return s[2] == 'f' ? kw_if(s, 3, NFY_KW_DEF) : kw_if(s, 3, NFY_KW_DEL);
    case 'f':
        return kw_if(s, 3, NFY_KW_FOR);
    case 'n':
        return kw_if(s, 3, NFY_KW_NOT);
    case 't':
        return kw_if(s, 3, NFY_KW_TRY);
    default:
        return NFY_KW_NONE;
    }
}

static nfy_kw kw_len4(const char *s)
{
    switch (s[0]) {
    case 'N':
        return kw_if(s, 4, NFY_KW_NONE_VALUE);
    case 'T':
        return kw_if(s, 4, NFY_KW_TRUE);
    case 'e':
        return s[2] == 'i' ? kw_if(s, 4, NFY_KW_ELIF)
                           : kw_if(s, 4, NFY_KW_ELSE);
    case 'f':
        return kw_if(s, 4, NFY_KW_FROM);
    case 'p':
        return kw_if(s, 4, NFY_KW_PASS);
    case 'w':
        return kw_if(s, 4, NFY_KW_WITH);
    case 'c':
        return kw_if(s, 4, NFY_KW_CASE);
    case 't':
        return kw_if(s, 4, NFY_KW_TYPE);
    default:
        return NFY_KW_NONE;
    }
}

static nfy_kw kw_len5(const char *s)
{
    switch (s[0]) {
    case 'F':
        return kw_if(s, 5, NFY_KW_FALSE);
    case 'a':
        return s[1] == 's' ? kw_if(s, 5, NFY_KW_ASYNC)
                           : kw_if(s, 5, NFY_KW_AWAIT);
    case 'b':
        return kw_if(s, 5, NFY_KW_BREAK);
    case 'c':
        return kw_if(s, 5, NFY_KW_CLASS);
    case 'r':
        return kw_if(s, 5, NFY_KW_RAISE);
    case 'w':
        return kw_if(s, 5, NFY_KW_WHILE);
    case 'y':
        return kw_if(s, 5, NFY_KW_YIELD);
    case 'm':
        return kw_if(s, 5, NFY_KW_MATCH);
    default:
        return NFY_KW_NONE;
    }
}

static nfy_kw kw_len6(const char *s)
{
    switch (s[0]) {
    case 'a':
        return kw_if(s, 6, NFY_KW_ASSERT);
    case 'e':
        return kw_if(s, 6, NFY_KW_EXCEPT);
    case 'g':
        return kw_if(s, 6, NFY_KW_GLOBAL);
    case 'i':
        return kw_if(s, 6, NFY_KW_IMPORT);
    case 'l':
        return kw_if(s, 6, NFY_KW_LAMBDA);
    case 'r':
        return kw_if(s, 6, NFY_KW_RETURN);
    default:
        return NFY_KW_NONE;
    }
}

/* Switch on the length, then on the first letter, then one compare. */
nfy_kw nfy_keyword_lookup(const char *s, size_t n)
{
    switch (n) {
    case 2:
        return kw_len2(s);
    case 3:
        return kw_len3(s);
    case 4:
        return kw_len4(s);
    case 5:
        return kw_len5(s);
    case 6:
        return kw_len6(s);
    case 7:
        return s[0] == 'f' ? kw_if(s, 7, NFY_KW_FINALLY) : NFY_KW_NONE;
    case 8:
        return s[0] == 'c'   ? kw_if(s, 8, NFY_KW_CONTINUE)
               : s[0] == 'n' ? kw_if(s, 8, NFY_KW_NONLOCAL)
                             : NFY_KW_NONE;
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
