/*
 * Positions inside JSON text. jansson keeps no source positions on its
 * values, so schema errors are located by walking the (already validated)
 * text along the key path: a small scanner that skips values and compares
 * keys, decoding escapes only when a key has them. Depth is bounded by the
 * path, and skipping nested values uses a counter, not recursion.
 */
#include <ctype.h>
#include <string.h>

#include "rules/rules_internal.h"

static size_t skip_ws(const char *t, size_t n, size_t i)
{
    while (i < n &&
           (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* i at the opening quote; returns the index after the closing quote. */
static size_t skip_string(const char *t, size_t n, size_t i)
{
    for (i++; i < n && t[i] != '"'; i++)
        if (t[i] == '\\')
            i++;
    return i < n ? i + 1 : n;
}

/* i at a value; returns the index after it. */
static size_t skip_value(const char *t, size_t n, size_t i)
{
    size_t depth = 0;
    while (i < n) {
        char c = t[i];
        if (c == '"') {
            i = skip_string(t, n, i);
        } else if (c == '{' || c == '[') {
            depth++;
            i++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i; /* end of the enclosing container */
            depth--;
            i++;
        } else if (depth == 0 && (c == ',' || c == ':')) {
            return i;
        } else {
            i++;
        }
        if (depth == 0 && i > 0 &&
            (t[i - 1] == '"' || t[i - 1] == '}' || t[i - 1] == ']'))
            return i;
    }
    return n;
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static unsigned long read_u4(const char *p)
{
    unsigned long v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hex_val(p[k]);
        if (h < 0)
            return 0xFFFD;
        v = v * 16 + (unsigned long)h;
    }
    return v;
}

/* Whether the JSON string token [i, end) (quotes included) decodes to key. */
static bool key_equals(const char *t, size_t i, size_t end, const char *key)
{
    size_t k = 0, klen = strlen(key);
    for (i++; i + 1 < end; i++) {
        char buf[4];
        size_t blen = 1;
        buf[0] = t[i];
        if (t[i] == '\\' && i + 2 < end) {
            char e = t[++i];
            const char *simple = "\"\\/bfnrt";
            const char *mapped = "\"\\/\b\f\n\r\t";
            const char *hit = strchr(simple, e);
            if (hit && e) {
                buf[0] = mapped[hit - simple];
            } else if (e == 'u' && i + 4 < end) {
                unsigned long cp = read_u4(t + i + 1);
                i += 4;
                if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < end &&
                    t[i + 1] == '\\' && t[i + 2] == 'u') {
                    unsigned long lo = read_u4(t + i + 3);
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                }
                blen = nfy_utf8_encode((uint32_t)cp, buf);
            }
        }
        if (k + blen > klen || memcmp(key + k, buf, blen))
            return false;
        k += blen;
    }
    return k == klen;
}

/* In the object at i, the offset of key's string (or of its value). */
static bool find_member(const char *t, size_t n, size_t i, const char *key,
                        size_t *key_at, size_t *value_at)
{
    i = skip_ws(t, n, i + 1);
    while (i < n && t[i] == '"') {
        size_t kend = skip_string(t, n, i);
        size_t v = skip_ws(t, n, kend);
        if (v < n && t[v] == ':')
            v = skip_ws(t, n, v + 1);
        if (key_equals(t, i, kend, key)) {
            *key_at = i;
            *value_at = v;
            return true;
        }
        i = skip_ws(t, n, skip_value(t, n, v));
        if (i < n && t[i] == ',')
            i = skip_ws(t, n, i + 1);
    }
    return false;
}

static bool find_element(const char *t, size_t n, size_t i, size_t index,
                         size_t *at)
{
    i = skip_ws(t, n, i + 1);
    for (size_t k = 0; i < n && t[i] != ']'; k++) {
        if (k == index) {
            *at = i;
            return true;
        }
        i = skip_ws(t, n, skip_value(t, n, i));
        if (i < n && t[i] == ',')
            i = skip_ws(t, n, i + 1);
    }
    return false;
}

size_t nfy__json_locate(const char *text, size_t len,
                        const rules_path_step *path, size_t depth, bool at_key)
{
    size_t at = skip_ws(text, len, 0);
    for (size_t d = 0; d < depth && at < len; d++) {
        size_t key_at = at, value_at = at;
        bool found;
        if (path[d].key) {
            found = text[at] == '{' &&
                    find_member(text, len, at, path[d].key, &key_at, &value_at);
        } else {
            found = text[at] == '[' &&
                    find_element(text, len, at, path[d].index, &value_at);
            key_at = value_at;
        }
        if (!found)
            return at;
        at = (at_key && d + 1 == depth) ? key_at : value_at;
    }
    return at < len ? at : (len ? len - 1 : 0);
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

size_t nfy__json_string_byte(const char *text, size_t len, size_t quote,
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
