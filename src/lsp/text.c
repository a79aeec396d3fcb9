/*
 * Positions: LSP counts lines from 0 and characters in UTF-16 code units
 * (its default encoding, the one every client supports); the report counts
 * lines from 1 and columns in code points. Lines end at \n, \r\n or \r.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_internal.h"

/* Length of the UTF-8 sequence led by byte c (1 for stray bytes). */
static size_t seq_len(unsigned char c)
{
    return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 1;
}

static size_t line_start(const char *text, size_t len, uint32_t line)
{
    size_t i = 0;
    for (uint32_t l = 0; l < line && i < len; i++) {
        if (text[i] == '\n' ||
            (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n')))
            l++;
        if (l == line)
            return i + 1;
    }
    return line == 0 ? 0 : len;
}

static size_t line_end(const char *text, size_t len, size_t from)
{
    while (from < len && text[from] != '\n' && text[from] != '\r')
        from++;
    return from;
}

size_t nfy__lsp_offset(const char *text, size_t len, uint32_t line,
                       uint32_t character)
{
    size_t i = line_start(text, len, line);
    size_t end = line_end(text, len, i);
    for (uint32_t u = 0; u < character && i < end;) {
        size_t n = seq_len((unsigned char)text[i]);
        u += n == 4 ? 2 : 1;
        i += n;
    }
    return i < end ? i : end;
}

uint32_t nfy__lsp_utf16_col(const char *line, size_t len, uint32_t ncp)
{
    uint32_t units = 0;
    size_t i = 0;
    for (uint32_t cp = 0;
         cp < ncp && i < len && line[i] != '\n' && line[i] != '\r'; cp++) {
        size_t n = seq_len((unsigned char)line[i]);
        units += n == 4 ? 2 : 1;
        i += n;
    }
    return units;
}

void nfy__lsp_lines_build(nfy__lsp_lines *l, const char *text, size_t len)
{
    l->text = text;
    l->len = len;
    l->starts.len = 0;
    nfy_vec_push(&l->starts, 0);
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' ||
            (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n')))
            nfy_vec_push(&l->starts, i + 1);
}

void nfy__lsp_lines_release(nfy__lsp_lines *l)
{
    nfy_vec_free(&l->starts);
}

nfy__lsp_pos nfy__lsp_position(const nfy__lsp_lines *l, uint32_t line1,
                               uint32_t col_cp)
{
    uint32_t line = line1 ? line1 - 1 : 0;
    if (line >= l->starts.len)
        line = (uint32_t)l->starts.len - 1;
    size_t start = l->starts.items[line];
    uint32_t ch = nfy__lsp_utf16_col(l->text + start, l->len - start, col_cp);
    return (nfy__lsp_pos){line, ch};
}

json_t *nfy__lsp_string(const char *s)
{
    if (!s)
        return json_null();
    json_t *j = json_string(s);
    if (j)
        return j;
    nfy_buf b = NFY_BUF_INIT;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = seq_len(*p);
        bool ok = n > 1 || *p < 0x80;
        for (size_t k = 1; ok && k < n; k++)
            ok = (p[k] & 0xC0) == 0x80;
        if (ok) {
            nfy_buf_add(&b, (const char *)p, n);
            p += n;
        } else {
            nfy_buf_addstr(&b, "\xEF\xBF\xBD");
            p++;
        }
    }
    j = json_stringn(b.data ? b.data : "", b.len);
    for (size_t i = 0; !j && i < b.len; i++) /* overlong forms, surrogates */
        if ((unsigned char)b.data[i] >= 0x80)
            b.data[i] = '?';
    if (!j)
        j = json_stringn(b.data, b.len);
    nfy_buf_release(&b);
    return j;
}
