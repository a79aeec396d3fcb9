/*
 * Escaping shared by every report writer: JSON string literals and RFC 4180
 * CSV fields. Invalid UTF-8 is replaced by U+FFFD in JSON so the output is
 * always valid JSON; CSV keeps bytes as they are.
 */
#include <string.h>

#include "core/core.h"

void nfy_json_escape(nfy_buf *out, const char *s, size_t n)
{
    nfy_buf_addch(out, '"');
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            uint32_t cp;
            size_t k = nfy_utf8_decode(s + i, n - i, &cp);
            if (k) {
                nfy_buf_add(out, s + i, k);
                i += k;
            } else {
                nfy_buf_addstr(out, "\xEF\xBF\xBD");
                i++;
            }
            continue;
        }
        switch (c) {
        case '"':
            nfy_buf_addstr(out, "\\\"");
            break;
        case '\\':
            nfy_buf_addstr(out, "\\\\");
            break;
        case '\n':
            nfy_buf_addstr(out, "\\n");
            break;
        case '\r':
            nfy_buf_addstr(out, "\\r");
            break;
        case '\t':
            nfy_buf_addstr(out, "\\t");
            break;
        case '\b':
            nfy_buf_addstr(out, "\\b");
            break;
        case '\f':
            nfy_buf_addstr(out, "\\f");
            break;
        default:
            if (c < 0x20)
                nfy_buf_addf(out, "\\u%04x", c);
            else
                nfy_buf_addch(out, (char)c);
        }
        i++;
    }
    nfy_buf_addch(out, '"');
}

void nfy_csv_escape(nfy_buf *out, const char *s, size_t n)
{
    bool quote = false;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (n && (s[0] == ' ' || s[n - 1] == ' '))
        quote = true;
    if (!quote) {
        nfy_buf_add(out, s, n);
        return;
    }
    nfy_buf_addch(out, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            nfy_buf_addch(out, '"');
        nfy_buf_addch(out, s[i]);
    }
    nfy_buf_addch(out, '"');
}

void nfy_html_escape(nfy_buf *out, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *rep =
            c == '&'    ? "&amp;"
            : c == '<'  ? "&lt;"
            : c == '>'  ? "&gt;"
            : c == '"'  ? "&quot;"
            : c == '\'' ? "&#39;"
            : (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f
                ? "&#xFFFD;"
                : NULL;
        if (!rep)
            continue;
        (void)nfy_buf_add(out, s + run, i - run);
        (void)nfy_buf_addstr(out, rep);
        run = i + 1;
    }
    if (n > run)
        (void)nfy_buf_add(out, s + run, n - run);
}
