/*
 * Positions: LSP counts lines from 0 and characters in UTF-16 code units
 * (its default encoding, the one every client supports); the report counts
 * lines from 1 and columns in code points. Lines end at \n, \r\n or \r.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_internal.h"

/* Length of the UTF-8 sequence led by byte c (1 for stray bytes). */
/* Bytes and UTF-16 units of the code point at t[0..n) (a byte that is no
 * UTF-8 counts as one of each, as core's decoder says). */
static size_t step(const char *t, size_t n, uint32_t *units)
{
    uint32_t cp;
    size_t k = nfy_utf8_decode(t, n, &cp);
    *units = k == 4 ? 2 : 1;
    return k ? k : 1;
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
        uint32_t du;
        i += step(text + i, end - i, &du);
        u += du;
    }
    return i < end ? i : end;
}

uint32_t nfy__lsp_utf16_col(const char *line, size_t len, uint32_t ncp)
{
    uint32_t units = 0;
    size_t i = 0;
    for (uint32_t cp = 0;
         cp < ncp && i < len && line[i] != '\n' && line[i] != '\r'; cp++) {
        uint32_t du;
        i += step(line + i, len - i, &du);
        units += du;
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
    /* core's JSON escaper turns bytes that are no UTF-8 into U+FFFD */
    nfy_buf b = NFY_BUF_INIT;
    nfy_json_escape(&b, s, strlen(s));
    j = json_loadb(b.data, b.len, JSON_DECODE_ANY, NULL);
    nfy_buf_release(&b);
    return j ? j : json_string("");
}
