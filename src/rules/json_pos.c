/*
 * Positions inside JSON text. jansson keeps no source positions on its
 * values, so schema errors are located by walking the (already validated)
 * text along the key path with core's JSON lexer: it decodes each key and
 * skips the values on the way (iteratively).
 */
#include <ctype.h>
#include <string.h>

#include "core/json_lex.h"
#include "rules/rules_internal.h"

/* The longest key of path (the lexer keeps strings up to it). */
static size_t longest_key(const rules_path_step *path, size_t depth)
{
    size_t n = 0;
    for (size_t d = 0; d < depth; d++)
        if (path[d].key && strlen(path[d].key) > n)
            n = strlen(path[d].key);
    return n;
}

/* Whether the string token just read decodes to key. */
static bool token_is(const nfy_json_lex *lx, const char *key, size_t klen)
{
    return !lx->text_truncated && lx->text_len == klen &&
           memcmp(lx->text, key, klen) == 0;
}

/* From the "{" just read: the member key, leaving its value's first token
 * in *tok and the offsets of its key and value. depth: the object's. */
static bool find_member(nfy_json_lex *lx, const char *key, int depth,
                        nfy_json_tok *tok, uint64_t *key_at, uint64_t *value_at)
{
    size_t klen = strlen(key);
    for (;;) {
        if (nfy_json_lex_next(lx, klen + 1) != NFY_JT_STRING)
            return false; /* "}" or an error: not there */
        *key_at = lx->tok_offset;
        bool hit = token_is(lx, key, klen);
        if (nfy_json_lex_next(lx, 0) != NFY_JT_COLON)
            return false;
        *tok = nfy_json_lex_next(lx, 0);
        *value_at = lx->tok_offset;
        if (hit)
            return true;
        if (!nfy_json_skip_value(lx, *tok, depth + 1) ||
            nfy_json_lex_next(lx, 0) != NFY_JT_COMMA)
            return false;
    }
}

/* From the "[" just read: element index, as find_member. */
static bool find_element(nfy_json_lex *lx, size_t index, int depth,
                         nfy_json_tok *tok, uint64_t *at)
{
    for (size_t k = 0;; k++) {
        *tok = nfy_json_lex_next(lx, 0);
        *at = lx->tok_offset;
        if (*tok == NFY_JT_RBRACKET || *tok == NFY_JT_ERROR ||
            *tok == NFY_JT_EOF)
            return false;
        if (k == index)
            return true;
        if (!nfy_json_skip_value(lx, *tok, depth + 1) ||
            nfy_json_lex_next(lx, 0) != NFY_JT_COMMA)
            return false;
    }
}

size_t nfy__rules_json_locate(const char *text, size_t len,
                              const rules_path_step *path, size_t depth,
                              bool at_key)
{
    size_t cap = longest_key(path, depth) + 1;
    nfy_json_input in;
    nfy_json_input_mem(&in, text, len);
    nfy_json_lex lx;
    nfy_json_lex_init(&lx, &in, cap);
    nfy_json_tok tok = nfy_json_lex_next(&lx, cap);
    uint64_t at = tok == NFY_JT_EOF ? len : lx.tok_offset;
    for (size_t d = 0; d < depth && at < len; d++) {
        uint64_t key_at = at, value_at = at;
        bool found;
        if (path[d].key) {
            found =
                tok == NFY_JT_LBRACE &&
                find_member(&lx, path[d].key, (int)d, &tok, &key_at, &value_at);
        } else {
            found = tok == NFY_JT_LBRACKET &&
                    find_element(&lx, path[d].index, (int)d, &tok, &value_at);
            key_at = value_at;
        }
        if (!found)
            break;
        at = (at_key && d + 1 == depth) ? key_at : value_at;
    }
    nfy_json_lex_release(&lx);
    nfy_json_input_close(&in);
    return at < len ? (size_t)at : (len ? len - 1 : 0);
}

/* Decoded bytes of the escape at text[i] (\n: 1, \u00e9: 2), and its
 * length in the text. */
static size_t escape_bytes(const char *text, size_t len, size_t i, size_t *raw)
{
    if (i + 1 >= len || text[i + 1] != 'u') {
        *raw = 2;
        return 1;
    }
    *raw = 6;
    unsigned v = 0;
    for (size_t k = i + 2; k < i + 6 && k < len; k++) {
        int c = (unsigned char)text[k];
        v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
    }
    if (v >= 0xD800 && v < 0xDC00) { /* a pair: one 4-byte code point */
        *raw = 12;
        return 4;
    }
    return v < 0x80 ? 1 : v < 0x800 ? 2 : 3;
}

size_t nfy__rules_json_string_byte(const char *text, size_t len, size_t quote,
                                   size_t inner)
{
    if (quote >= len || text[quote] != '"')
        return quote;
    size_t i = quote + 1, seen = 0;
    while (i < len && text[i] != '"') {
        size_t raw = 1, bytes = 1;
        if (text[i] == '\\')
            bytes = escape_bytes(text, len, i, &raw);
        if (seen + bytes > inner)
            return i;
        seen += bytes;
        i += raw;
    }
    return i < len ? i : quote;
}
