/*
 * The JSON of a notebook, read for what convert needs: each cell's type
 * and the string tokens of its source with their spans, the nbformat and
 * the kernel's language. A strict recursive-descent reader (depth capped,
 * so deep nesting is an error, not a crash); strings are decoded and
 * encoded here too, as Python's json module writes them.
 */
#include <stdio.h>
#include <string.h>

#include "convert/notebook.h"

enum { MAX_DEPTH = 256 };

typedef struct {
    const char *s;
    size_t len, i;
    nfy_notebook *nb;
} reader;

static bool fail(reader *r, const char *why)
{
    if (!r->nb->error) {
        r->nb->error = why;
        r->nb->error_at = (uint32_t)r->i;
    }
    return false;
}

static void skip_ws(reader *r)
{
    while (r->i < r->len && (r->s[r->i] == ' ' || r->s[r->i] == '\n' ||
                             r->s[r->i] == '\r' || r->s[r->i] == '\t'))
        r->i++;
}

static bool peek(reader *r, char c)
{
    skip_ws(r);
    return r->i < r->len && r->s[r->i] == c;
}

static bool expect(reader *r, char c, const char *why)
{
    if (!peek(r, c))
        return fail(r, why);
    r->i++;
    return true;
}

static int hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static long hex4(const char *p)
{
    long v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hex(p[k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* A string token at r->i: its span (quotes included) in *out. */
static bool read_string(reader *r, nfy_nb_str *out)
{
    skip_ws(r);
    if (r->i >= r->len || r->s[r->i] != '"')
        return fail(r, "expected a string");
    nfy_nb_str t = {.start = (uint32_t)r->i};
    r->i++;
    while (r->i < r->len && r->s[r->i] != '"') {
        unsigned char c = (unsigned char)r->s[r->i];
        if (c < 0x20)
            return fail(r, "control character in a string");
        if (c >= 0x80) {
            r->i++;
            continue;
        }
        if (c != '\\') {
            r->i++;
            continue;
        }
        if (r->i + 1 >= r->len)
            break;
        char e = r->s[r->i + 1];
        if (e == 'u') {
            if (r->i + 6 > r->len)
                return fail(r, "short \\u escape");
            long v = hex4(r->s + r->i + 2);
            if (v < 0)
                return fail(r, "bad \\u escape");
            t.ascii |= v >= 0x80;
            bool hi = v >= 0xD800 && v <= 0xDBFF;
            bool pair = hi && r->i + 12 <= r->len && r->s[r->i + 6] == '\\' &&
                        r->s[r->i + 7] == 'u' &&
                        hex4(r->s + r->i + 8) >= 0xDC00 &&
                        hex4(r->s + r->i + 8) <= 0xDFFF;
            t.lossy |= (hi && !pair) || (v >= 0xDC00 && v <= 0xDFFF);
            r->i += pair ? 12 : 6;
            continue;
        }
        if (!strchr("\"\\/bfnrt", e))
            return fail(r, "bad escape in a string");
        r->i += 2;
    }
    if (r->i >= r->len)
        return fail(r, "unterminated string");
    r->i++;
    t.end = (uint32_t)r->i;
    if (out)
        *out = t;
    return true;
}

static bool read_value(reader *r, int depth);

static bool read_literal(reader *r)
{
    static const char *const words[] = {"true", "false", "null"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(words[k]);
        if (r->len - r->i >= n && !memcmp(r->s + r->i, words[k], n)) {
            r->i += n;
            return true;
        }
    }
    size_t start = r->i;
    if (r->i < r->len && r->s[r->i] == '-')
        r->i++;
    while (r->i < r->len && strchr("0123456789.eE+-", r->s[r->i]) && r->s[r->i])
        r->i++;
    return r->i > start || fail(r, "expected a value");
}

/* Key-value pairs of an object; on_key (may be NULL) reads the value of a
 * key it knows and returns 1, 0 to have it skipped, -1 on error. */
typedef int (*key_fn)(reader *r, nfy_str key, void *ctx, int depth);

static bool read_object(reader *r, int depth, key_fn on_key, void *ctx)
{
    if (depth > MAX_DEPTH)
        return fail(r, "nested too deeply");
    if (!expect(r, '{', "expected an object"))
        return false;
    if (peek(r, '}')) {
        r->i++;
        return true;
    }
    for (;;) {
        nfy_nb_str k;
        if (!read_string(r, &k) || !expect(r, ':', "expected ':'"))
            return false;
        nfy_str key = {r->s + k.start + 1, k.end - k.start - 2};
        int got = on_key ? on_key(r, key, ctx, depth + 1) : 0;
        if (got < 0 || (got == 0 && !read_value(r, depth + 1)))
            return false;
        if (peek(r, '}')) {
            r->i++;
            return true;
        }
        if (!expect(r, ',', "expected ',' or '}'"))
            return false;
    }
}

/* An array; on_item (may be NULL) reads each item. */
typedef bool (*item_fn)(reader *r, void *ctx, int depth);

static bool read_array(reader *r, int depth, item_fn on_item, void *ctx)
{
    if (depth > MAX_DEPTH)
        return fail(r, "nested too deeply");
    if (!expect(r, '[', "expected an array"))
        return false;
    if (peek(r, ']')) {
        r->i++;
        return true;
    }
    for (;;) {
        if (!(on_item ? on_item(r, ctx, depth + 1) : read_value(r, depth + 1)))
            return false;
        if (peek(r, ']')) {
            r->i++;
            return true;
        }
        if (!expect(r, ',', "expected ',' or ']'"))
            return false;
    }
}

static bool read_value(reader *r, int depth)
{
    skip_ws(r);
    if (r->i >= r->len)
        return fail(r, "unexpected end");
    switch (r->s[r->i]) {
    case '{':
        return read_object(r, depth, NULL, NULL);
    case '[':
        return read_array(r, depth, NULL, NULL);
    case '"':
        return read_string(r, NULL);
    default:
        return read_literal(r);
    }
}

/* ---- The notebook's own keys ------------------------------------------ */

static bool source_item(reader *r, void *ctx, int depth)
{
    (void)ctx;
    (void)depth;
    nfy_nb_str s;
    if (!read_string(r, &s))
        return false;
    nfy_vec_push(&r->nb->strs, s);
    return true;
}

static int cell_key(reader *r, nfy_str key, void *ctx, int depth)
{
    nfy_nb_cell *cell = ctx;
    if (nfy_str_eq_cstr(key, "cell_type")) {
        nfy_nb_str s;
        if (!read_string(r, &s))
            return -1;
        cell->code =
            s.end - s.start == 6 && !memcmp(r->s + s.start, "\"code\"", 6);
        return 1;
    }
    if (!nfy_str_eq_cstr(key, "source"))
        return 0;
    cell->first = r->nb->strs.len;
    if (peek(r, '[')) {
        cell->array = true;
        cell->open = (uint32_t)r->i;
        if (!read_array(r, depth, source_item, NULL))
            return -1;
    } else if (!source_item(r, NULL, depth)) {
        return -1;
    }
    cell->n = r->nb->strs.len - cell->first;
    return 1;
}

static bool cell_item(reader *r, void *ctx, int depth)
{
    (void)ctx;
    nfy_nb_cell cell = {.index = (uint32_t)r->nb->cells.len + 1,
                        .first = r->nb->strs.len};
    if (!read_object(r, depth, cell_key, &cell))
        return false;
    nfy_vec_push(&r->nb->cells, cell);
    return true;
}

/* metadata.kernelspec.language, metadata.language_info.name */
static int lang_key(reader *r, nfy_str key, void *ctx, int depth)
{
    (void)depth;
    const char *want = ctx;
    if (!nfy_str_eq_cstr(key, want) || !peek(r, '"'))
        return 0;
    nfy_nb_str s;
    if (!read_string(r, &s))
        return -1;
    size_t n = s.end - s.start - 2;
    if (n < sizeof r->nb->language && !memchr(r->s + s.start + 1, '\\', n)) {
        memcpy(r->nb->language, r->s + s.start + 1, n);
        r->nb->language[n] = '\0';
    }
    return 1;
}

static int meta_key(reader *r, nfy_str key, void *ctx, int depth)
{
    (void)ctx;
    const char *inner = nfy_str_eq_cstr(key, "language_info") ? "name"
                        : nfy_str_eq_cstr(key, "kernelspec")  ? "language"
                                                              : NULL;
    if (!inner || !peek(r, '{'))
        return 0;
    return read_object(r, depth, lang_key, (void *)inner) ? 1 : -1;
}

static int top_key(reader *r, nfy_str key, void *ctx, int depth)
{
    (void)ctx;
    if (nfy_str_eq_cstr(key, "cells") && peek(r, '['))
        return read_array(r, depth, cell_item, NULL) ? 1 : -1;
    if (nfy_str_eq_cstr(key, "metadata") && peek(r, '{'))
        return read_object(r, depth, meta_key, NULL) ? 1 : -1;
    if (nfy_str_eq_cstr(key, "nbformat")) {
        skip_ws(r);
        size_t start = r->i;
        if (!read_literal(r))
            return -1;
        long v = 0;
        for (size_t k = start; k < r->i && k < start + 4; k++)
            if (r->s[k] >= '0' && r->s[k] <= '9')
                v = v * 10 + (r->s[k] - '0');
        r->nb->nbformat = v;
        return 1;
    }
    return 0;
}

void nfy__convert_nb_parse(nfy_notebook *nb, const char *data, size_t len)
{
    memset(nb, 0, sizeof *nb);
    reader r = {data, len, 0, nb};
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        r.i = 3;
    if (read_object(&r, 0, top_key, NULL)) {
        skip_ws(&r);
        if (r.i != len)
            fail(&r, "text after the notebook's object");
    }
}

void nfy__convert_nb_release(nfy_notebook *nb)
{
    nfy_vec_free(&nb->strs);
    nfy_vec_free(&nb->cells);
}

/* ---- Strings ------------------------------------------------------------ */

static void add_utf8(nfy_buf *out, unsigned long cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    nfy_buf_add(out, b, n);
}

/* The escape at p (a backslash): its decoded code point and its length. */
static size_t escape_at(const char *p, const char *end, unsigned long *cp)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = strchr(from, p[1]);
    if (p[1] != 'u') {
        *cp = k ? (unsigned char)to[k - from] : (unsigned char)p[1];
        return 2;
    }
    long v = hex4(p + 2);
    if (v >= 0xD800 && v <= 0xDBFF && end - p >= 12 && p[6] == '\\' &&
        p[7] == 'u') {
        long lo = hex4(p + 8);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            *cp = 0x10000 + (((unsigned long)v - 0xD800) << 10) +
                  ((unsigned long)lo - 0xDC00);
            return 12;
        }
    }
    *cp = (v >= 0xD800 && v <= 0xDFFF) || v < 0 ? 0xFFFD : (unsigned long)v;
    return 6;
}

nfy_status nfy__convert_nb_decode(const char *data, nfy_nb_str s, nfy_buf *out)
{
    const char *p = data + s.start + 1, *end = data + s.end - 1;
    while (p < end) {
        if (*p != '\\') {
            const char *q = p;
            while (q < end && *q != '\\')
                q++;
            nfy_buf_add(out, p, (size_t)(q - p));
            p = q;
            continue;
        }
        unsigned long cp;
        p += escape_at(p, end, &cp);
        add_utf8(out, cp);
    }
    return out->status;
}

static size_t utf8_len(unsigned long cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

uint32_t nfy__convert_nb_raw_offset(const char *data, nfy_nb_str s,
                                    uint32_t off)
{
    const char *p = data + s.start + 1, *end = data + s.end - 1;
    uint32_t at = 0;
    while (p < end && at < off) {
        if (*p != '\\') {
            p++;
            at++;
            continue;
        }
        unsigned long cp;
        p += escape_at(p, end, &cp);
        at += (uint32_t)utf8_len(cp);
    }
    return (uint32_t)(p - data);
}

nfy_status nfy__convert_nb_encode(nfy_buf *out, const char *text, size_t len,
                                  bool ascii)
{
    nfy_buf_addch(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == '"' || c == '\\') {
            nfy_json_escape_byte(out, c);
        } else if (c >= 0x80 && ascii) {
            /* one UTF-8 sequence (the text came from valid JSON or from
             * the passes, which keep UTF-8) as \u escapes */
            size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            unsigned long cp = n == 1 ? c : c & (0x7F >> n);
            for (size_t k = 1; k < n && i + k < len; k++)
                cp = (cp << 6) | ((unsigned char)text[i + k] & 0x3F);
            i += n - 1;
            if (cp >= 0x10000) {
                cp -= 0x10000;
                nfy_buf_addf(out, "\\u%04lx\\u%04lx", 0xD800 + (cp >> 10),
                             0xDC00 + (cp & 0x3FF));
            } else {
                nfy_buf_addf(out, "\\u%04lx", cp);
            }
        } else {
            nfy_buf_addch(out, (char)c);
        }
    }
    nfy_buf_addch(out, '"');
    return out->status;
}
