/* String views (nfy_str) and UTF-8 decoding. Views never own their bytes. */
#include <ctype.h>
#include <string.h>

#include "core/core.h"
#include "core/htab.h"
#include "core/swar.h"

nfy_str nfy_str_from_cstr(const char *s)
{
    return (nfy_str){s, s ? strlen(s) : 0};
}

bool nfy_str_eq(nfy_str a, nfy_str b)
{
    return a.len == b.len && (a.len == 0 || !memcmp(a.ptr, b.ptr, a.len));
}

/* One pass, no strlen of b: most compares fail in the first bytes. */
bool nfy_str_eq_cstr(nfy_str a, const char *b)
{
    if (b == NULL)
        return a.len == 0;
    for (size_t i = 0; i < a.len; i++) {
        if (b[i] == '\0' || b[i] != a.ptr[i])
            return false;
    }
    return b[a.len] == '\0';
}

bool nfy_str_starts_with(nfy_str s, nfy_str prefix)
{
    return s.len >= prefix.len &&
           (prefix.len == 0 || !memcmp(s.ptr, prefix.ptr, prefix.len));
}

bool nfy_str_ends_with(nfy_str s, nfy_str suffix)
{
    return s.len >= suffix.len &&
           (suffix.len == 0 ||
            !memcmp(s.ptr + s.len - suffix.len, suffix.ptr, suffix.len));
}

nfy_str nfy_str_slice(nfy_str s, size_t start, size_t end)
{
    if (end > s.len)
        end = s.len;
    if (start > end)
        start = end;
    if (!s.ptr) /* the empty view {NULL, 0}: no pointer arithmetic on NULL */
        return s;
    return (nfy_str){s.ptr + start, end - start};
}

bool nfy_str_consume(nfy_str *s, const char *prefix)
{
    size_t n = strlen(prefix);
    if (s->len < n || (n && memcmp(s->ptr, prefix, n) != 0))
        return false;
    s->ptr += n;
    s->len -= n;
    return true;
}

ptrdiff_t nfy_str_find_char(nfy_str s, char c)
{
    const char *p = s.len ? memchr(s.ptr, c, s.len) : NULL;
    return p ? p - s.ptr : -1;
}

ptrdiff_t nfy_str_find(nfy_str s, nfy_str w)
{
    if (w.len == 0 || w.len > s.len)
        return -1;
    const char *p = s.ptr, *end = s.ptr + s.len - w.len + 1;
    while ((p = memchr(p, w.ptr[0], (size_t)(end - p))) != NULL) {
        if (memcmp(p, w.ptr, w.len) == 0)
            return p - s.ptr;
        p++;
    }
    return -1;
}

bool nfy_str_contains(nfy_str s, nfy_str w)
{
    return nfy_str_find(s, w) >= 0;
}

bool nfy_str_contains_ci(nfy_str s, const char *lower_word)
{
    size_t n = strlen(lower_word);
    for (size_t i = 0; i + n <= s.len; i++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)s.ptr[i + k]) == lower_word[k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

int nfy_str_cmp(nfy_str a, nfy_str b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c)
        return c;
    return (a.len > b.len) - (a.len < b.len);
}

uint64_t nfy_str_hash(nfy_str s)
{
    uint64_t h = NFY_STR_HASH_SEED;
    for (size_t i = 0; i < s.len; i++)
        h = nfy_str_hash_step(h, (unsigned char)s.ptr[i]);
    return h;
}

static uint64_t load32(const char *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

static uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

/* The tail (under 8 bytes) as one word: overlapping loads, not a loop. */
static uint64_t tail_word(const char *p, size_t n)
{
    if (n >= 4)
        return load32(p) | (load32(p + n - 4) << 32);
    if (n > 0)
        return (uint64_t)(unsigned char)p[0] |
               ((uint64_t)(unsigned char)p[n / 2] << 8) |
               ((uint64_t)(unsigned char)p[n - 1] << 16);
    return 0;
}

uint64_t nfy_str_hash_words(nfy_str s)
{
    uint64_t h = NFY_HASH_GOLDEN ^ s.len;
    size_t i = 0;
    for (; i + 8 <= s.len; i += 8)
        h = mix(h, nfy__swar_load(s.ptr + i));
    if (i < s.len)
        h = mix(h, s.len >= 8 ? nfy__swar_load(s.ptr + s.len - 8)
                              : tail_word(s.ptr, s.len));
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

/* Continuation byte check: 10xxxxxx. */
static bool is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

size_t nfy_utf8_decode(const char *str, size_t n, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    if (n == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if ((s[0] & 0xE0) == 0xC0) {
        len = 2, v = s[0] & 0x1F, min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        len = 3, v = s[0] & 0x0F, min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        len = 4, v = s[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if (!is_cont(s[i]))
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

size_t nfy_utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t nfy_utf8_count(const char *s, size_t n)
{
    size_t count = 0;
    size_t i = 0;
    while (i < n) {
        if ((unsigned char)s[i] < 0x80) {
            i++;
        } else {
            uint32_t cp;
            size_t k = nfy_utf8_decode(s + i, n - i, &cp);
            i += k ? k : 1;
        }
        count++;
    }
    return count;
}

const char *nfy_plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}
