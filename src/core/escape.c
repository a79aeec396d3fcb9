/*
 * Escaping shared by every report writer: JSON string literals, RFC 4180
 * CSV fields and HTML text. Invalid UTF-8 is replaced by U+FFFD in JSON so
 * the output is always valid JSON; CSV and HTML keep bytes as they are.
 * Each escaper copies the runs of bytes that need nothing in one append
 * (reports are mostly such runs) and spells out only the rest.
 */
#include <string.h>

#include "core/core.h"
#include "core/swar.h"

/* Non-zero for the ASCII bytes a JSON string cannot hold as they are. */
static const unsigned char json_special[128] = {
    [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1,
    [0x06] = 1, [0x07] = 1, [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1,
    [0x0c] = 1, [0x0d] = 1, [0x0e] = 1, [0x0f] = 1, [0x10] = 1, [0x11] = 1,
    [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1,
    [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1,
    [0x1e] = 1, [0x1f] = 1, ['"'] = 1,  ['\\'] = 1,
};

void nfy_json_escape_byte(nfy_buf *out, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    const char *rep = c == '"'    ? "\\\""
                      : c == '\\' ? "\\\\"
                      : c == '\n' ? "\\n"
                      : c == '\r' ? "\\r"
                      : c == '\t' ? "\\t"
                      : c == '\b' ? "\\b"
                      : c == '\f' ? "\\f"
                                  : NULL;
    if (rep) {
        nfy_buf_add(out, rep, 2);
        return;
    }
    char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
    nfy_buf_add(out, u, sizeof u);
}

/* Are the 8 bytes at s all plain ASCII that JSON keeps as they are? */
static bool json_plain8(const char *s)
{
    uint64_t x = nfy__swar_load(s);
    return !(nfy__swar_high(x) | nfy__swar_below(x, 0x20) |
             nfy__swar_has(x, '"') | nfy__swar_has(x, '\\'));
}

void nfy_json_escape(nfy_buf *out, const char *s, size_t n)
{
    nfy_buf_addch(out, '"');
    size_t i = 0, run = 0;
    while (i < n) {
        i = nfy__swar_skip_plain(s, i, n, json_plain8);
        /* a word with something in it: byte by byte */
        size_t stop = n - i >= 8 ? i + 8 : n;
        while (i < stop) {
            unsigned char c = (unsigned char)s[i];
            if (c < 0x80 && !json_special[c]) {
                i++;
                continue;
            }
            uint32_t cp;
            size_t k = c < 0x80 ? 0 : nfy_utf8_decode(s + i, n - i, &cp);
            if (k) { /* valid UTF-8 stays in the run */
                i += k;
                continue;
            }
            if (i > run)
                nfy_buf_add(out, s + run, i - run);
            if (c < 0x80)
                nfy_json_escape_byte(out, c);
            else
                nfy_buf_add(out, "\xEF\xBF\xBD", 3);
            run = ++i;
        }
    }
    if (n > run)
        nfy_buf_add(out, s + run, n - run);
    nfy_buf_addch(out, '"');
}

/* Bytes that make a CSV field quoted. */
static const unsigned char csv_special[256] = {
    [','] = 1,
    ['"'] = 1,
    ['\n'] = 1,
    ['\r'] = 1,
};

void nfy_csv_escape(nfy_buf *out, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    bool quote = n && (s[0] == ' ' || s[n - 1] == ' ');
    for (size_t i = 0; i < n && !quote; i++)
        quote = csv_special[u[i]];
    if (!quote) {
        nfy_buf_add(out, s, n);
        return;
    }
    nfy_buf_addch(out, '"');
    const char *end = s + n, *q;
    /* each '"' is doubled: the run up to it includes it, then one more */
    while ((q = memchr(s, '"', (size_t)(end - s))) != NULL) {
        nfy_buf_add(out, s, (size_t)(q - s) + 1);
        nfy_buf_addch(out, '"');
        s = q + 1;
    }
    nfy_buf_add(out, s, (size_t)(end - s));
    nfy_buf_addch(out, '"');
}

/* Which entity replaces a byte in HTML (index into html_entity), or 0. */
enum { H_AMP = 1, H_LT, H_GT, H_QUOT, H_APOS, H_BAD };

static const unsigned char html_special[256] = {
    ['&'] = H_AMP,   ['<'] = H_LT,   ['>'] = H_GT,   ['"'] = H_QUOT,
    ['\''] = H_APOS, [0x00] = H_BAD, [0x01] = H_BAD, [0x02] = H_BAD,
    [0x03] = H_BAD,  [0x04] = H_BAD, [0x05] = H_BAD, [0x06] = H_BAD,
    [0x07] = H_BAD,  [0x08] = H_BAD, [0x0b] = H_BAD, [0x0c] = H_BAD,
    [0x0e] = H_BAD,  [0x0f] = H_BAD, [0x10] = H_BAD, [0x11] = H_BAD,
    [0x12] = H_BAD,  [0x13] = H_BAD, [0x14] = H_BAD, [0x15] = H_BAD,
    [0x16] = H_BAD,  [0x17] = H_BAD, [0x18] = H_BAD, [0x19] = H_BAD,
    [0x1a] = H_BAD,  [0x1b] = H_BAD, [0x1c] = H_BAD, [0x1d] = H_BAD,
    [0x1e] = H_BAD,  [0x1f] = H_BAD, [0x7f] = H_BAD,
};

/* Are the 8 bytes at s all bytes HTML keeps as they are? (Tab and line
 * ends count as special here; the byte loop lets them through.) */
static bool html_plain8(const char *s)
{
    uint64_t x = nfy__swar_load(s);
    return !(nfy__swar_below(x, 0x20) | nfy__swar_has(x, '&') |
             nfy__swar_has(x, '<') | nfy__swar_has(x, '>') |
             nfy__swar_has(x, '"') | nfy__swar_has(x, '\'') |
             nfy__swar_has(x, 0x7f));
}

void nfy_html_escape(nfy_buf *out, const char *s, size_t n)
{
    static const struct {
        char text[9];
        unsigned char len;
    } entity[] = {
        [H_AMP] = {"&amp;", 5},  [H_LT] = {"&lt;", 4},
        [H_GT] = {"&gt;", 4},    [H_QUOT] = {"&quot;", 6},
        [H_APOS] = {"&#39;", 5}, [H_BAD] = {"&#xFFFD;", 8},
    };
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, run = 0;
    while (i < n) {
        i = nfy__swar_skip_plain(s, i, n, html_plain8);
        for (size_t stop = n - i >= 8 ? i + 8 : n; i < stop; i++) {
            unsigned k = html_special[u[i]];
            if (!k)
                continue;
            if (i > run)
                nfy_buf_add(out, s + run, i - run);
            nfy_buf_add(out, entity[k].text, entity[k].len);
            run = i + 1;
        }
    }
    if (n > run)
        nfy_buf_add(out, s + run, n - run);
}

/* The bidirectional controls (Trojan Source, CVE-2021-42574): ALM, LRM,
 * RLM, LRE..RLO, LRI..PDI. Their byte length at s (UTF-8), or 0. */
static size_t bidi_control_at(const char *s, size_t n, uint32_t *cp)
{
    if (n < 2 || ((unsigned char)s[0] != 0xD8 && (unsigned char)s[0] != 0xE2))
        return 0;
    size_t k = nfy_utf8_decode(s, n, cp);
    if (!k)
        return 0;
    uint32_t c = *cp;
    bool bidi = c == 0x061C || c == 0x200E || c == 0x200F ||
                (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
    return bidi ? k : 0;
}

/* Bytes a name keeps as they are: printable ASCII other than '\'. */
static bool name_plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '\\';
}

static void hex_byte(nfy_buf *out, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    nfy_buf_add(out, e, sizeof e);
}

void nfy_name_escape(nfy_buf *out, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (i < n && name_plain((unsigned char)s[i]))
            i++;
        if (i > run)
            nfy_buf_add(out, s + run, i - run);
        if (i >= n)
            break;
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t k = c >= 0x80 ? nfy_utf8_decode(s + i, n - i, &cp) : 0;
        size_t b = k ? bidi_control_at(s + i, n - i, &cp) : 0;
        if (c == '\\') {
            nfy_buf_add(out, "\\\\", 2);
            i++;
        } else if (k && !b && cp >= 0xA0) { /* printable UTF-8: kept */
            nfy_buf_add(out, s + i, k);
            i += k;
        } else { /* a byte that is no character, a control, a bidi one */
            size_t m = k ? k : 1;
            for (size_t j = 0; j < m; j++)
                hex_byte(out, (unsigned char)s[i + j]);
            i += m;
        }
    }
}

const char *nfy_name_shown(nfy_buf *tmp, const char *s)
{
    if (!s)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && name_plain(*p))
        p++;
    if (!*p)
        return s;
    nfy_buf_reset(tmp);
    nfy_name_escape(tmp, s, strlen(s));
    return nfy_buf_cstr(tmp);
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

bool nfy_name_unescape(nfy_buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            nfy_buf_addch(out, s[i]);
        } else if (i + 1 < n && s[i + 1] == '\\') {
            nfy_buf_addch(out, '\\');
            i++;
        } else if (i + 3 < n && s[i + 1] == 'x' && hex_digit(s[i + 2]) >= 0 &&
                   hex_digit(s[i + 3]) >= 0) {
            nfy_buf_addch(
                out, (char)(hex_digit(s[i + 2]) * 16 + hex_digit(s[i + 3])));
            i += 3;
        } else {
            return false; /* a lone '\': no name escaped it so */
        }
    }
    return true;
}

void nfy_bidi_visible(nfy_buf *out, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = bidi_control_at(s + i, n - i, &cp);
        if (!k) {
            i++;
            continue;
        }
        nfy_buf_add(out, s + run, i - run);
        nfy_buf_addf(out, "\xE2\x9F\xA6U+%04X\xE2\x9F\xA7", (unsigned)cp);
        i += k;
        run = i;
    }
    nfy_buf_add(out, s + run, n - run);
}
