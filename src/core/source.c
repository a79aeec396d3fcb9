/*
 * nfy_source: a file's bytes plus a table of line starts, so spans turn
 * into Python-style (line, column) positions on demand.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/fatal.h"

/* Append one line start, growing the table only when it is full. */
static void push_line(uint32_t **items, size_t *len, size_t *cap, size_t at)
{
    if (*len == *cap)
        nfy__vec_grow((void **)items, cap, *len + 1, sizeof **items);
    (*items)[(*len)++] = (uint32_t)at;
}

/*
 * Python ends a line at "\n", "\r\n" or a lone "\r". memchr finds the next
 * '\n' and the next '\r' (each search redone only once passed), so the
 * cost per byte is memchr's, not a loop's; files without '\r' pay one
 * memchr for it.
 */
static nfy_status build_lines(nfy_source *src)
{
    const char *s = src->data, *end = s + src->len;
    uint32_t *items = NULL;
    size_t len = 0, cap = 0;
    nfy__vec_grow((void **)&items, &cap, src->len / 32 + 16, sizeof *items);
    items[len++] = 0;
    const char *nl = src->len ? memchr(s, '\n', src->len) : NULL;
    const char *cr = src->len ? memchr(s, '\r', src->len) : NULL;
    while (nl || cr) {
        const char *e; /* last byte of the line ending */
        if (cr && (!nl || cr < nl))
            e = (cr + 1 < end && cr[1] == '\n') ? cr + 1 : cr;
        else
            e = nl;
        if (e + 1 < end)
            push_line(&items, &len, &cap, (size_t)(e + 1 - s));
        else
            break;
        if (nl && nl <= e)
            nl = memchr(e + 1, '\n', (size_t)(end - e - 1));
        if (cr && cr <= e)
            cr = memchr(e + 1, '\r', (size_t)(end - e - 1));
    }
    src->line_starts = items;
    src->nlines = len;
    return NFY_OK;
}

static bool all_ascii(const char *s, size_t n)
{
    uint64_t acc = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, sizeof w);
        acc |= w;
    }
    for (; i < n; i++)
        acc |= (unsigned char)s[i];
    return !(acc & 0x8080808080808080ull);
}

/*
 * The code point count at the first position nfy_utf8_count's walk from
 * the file start reaches in each block. That walk lands on every ASCII
 * byte (no UTF-8 sequence holds one), so on every line start too, and a
 * column becomes a difference of two counts, each finished by a scan of
 * under two blocks.
 */
static void build_codepoints(nfy_source *src)
{
    if (all_ascii(src->data, src->len))
        return;
    const size_t block = NFY_SOURCE_CP_BLOCK;
    size_t nb = src->len / block + 1;
    src->cp_counts = malloc(nb * sizeof *src->cp_counts);
    src->cp_skip = malloc(nb);
    if (!src->cp_counts || !src->cp_skip)
        nfy__fatal("out of memory");
    const char *s = src->data;
    size_t i = 0, count = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t target = b * block;
        while (i < target) {
            uint32_t cp;
            size_t k = (unsigned char)s[i] < 0x80
                           ? 1
                           : nfy_utf8_decode(s + i, src->len - i, &cp);
            i += k ? k : 1;
            count++;
        }
        src->cp_counts[b] = (uint32_t)count;
        src->cp_skip[b] = (uint8_t)(i - target);
    }
    src->ncp = nb;
}

static nfy_status index_source(nfy_source *src)
{
    nfy_status st = build_lines(src);
    if (!st)
        build_codepoints(src);
    return st;
}

static char *dup_path(const char *path)
{
    size_t n = strlen(path ? path : "");
    char *p = malloc(n + 1);
    if (!p)
        nfy__fatal("out of memory");
    memcpy(p, path ? path : "", n + 1);
    return p;
}

nfy_status nfy_source_from_mem(nfy_source *src, const char *path,
                               const char *data, size_t len)
{
    memset(src, 0, sizeof *src);
    if (len >= NFY_SOURCE_MAX_BYTES)
        return NFY_ELIMIT;
    src->data = malloc(len + 1);
    if (!src->data)
        nfy__fatal("out of memory");
    if (len)
        memcpy(src->data, data, len);
    src->data[len] = '\0';
    src->len = len;
    src->path = dup_path(path);
    return index_source(src);
}

nfy_status nfy_source_load(nfy_source *src, const char *path, size_t max)
{
    memset(src, 0, sizeof *src);
    nfy_buf b = NFY_BUF_INIT;
    nfy_status st =
        nfy_file_read(path, max ? max : NFY_SOURCE_MAX_BYTES - 1, &b);
    if (st) {
        nfy_buf_release(&b);
        return st;
    }
    size_t len;
    src->data = nfy_buf_take(&b, &len);
    src->len = len;
    src->path = dup_path(path);
    return index_source(src);
}

void nfy_source_release(nfy_source *src)
{
    free((char *)src->path);
    free(src->data);
    free(src->line_starts);
    free(src->cp_counts);
    free(src->cp_skip);
    memset(src, 0, sizeof *src);
}

/* Index (0-based) of the line holding offset, by binary search. */
static size_t line_index(const nfy_source *src, uint32_t offset)
{
    size_t lo = 0, hi = src->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

size_t nfy_source_codepoints(const nfy_source *src, uint32_t offset,
                             size_t *scanned)
{
    if (offset > src->len)
        offset = (uint32_t)src->len;
    if (!src->cp_counts)
        return offset;
    size_t b = offset / NFY_SOURCE_CP_BLOCK;
    if (b >= src->ncp)
        b = src->ncp - 1;
    size_t at = b * NFY_SOURCE_CP_BLOCK + src->cp_skip[b];
    if (at > offset) { /* the block starts inside a sequence that holds it */
        b--;
        at = b * NFY_SOURCE_CP_BLOCK + src->cp_skip[b];
    }
    if (scanned)
        *scanned += offset - at;
    return src->cp_counts[b] + nfy_utf8_count(src->data + at, offset - at);
}

void nfy_source_linecol(const nfy_source *src, uint32_t offset, uint32_t *line,
                        uint32_t *col)
{
    if (offset > src->len)
        offset = (uint32_t)src->len;
    if (!src->nlines) {
        *line = 1;
        *col = offset;
        return;
    }
    size_t li = line_index(src, offset);
    uint32_t start = src->line_starts[li];
    *line = (uint32_t)li + 1;
    *col = (uint32_t)(nfy_source_codepoints(src, offset, NULL) -
                      nfy_source_codepoints(src, start, NULL));
}

nfy_str nfy_source_line(const nfy_source *src, uint32_t line)
{
    if (line == 0 || line > src->nlines)
        return (nfy_str){"", 0};
    uint32_t start = src->line_starts[line - 1];
    uint32_t end =
        line < src->nlines ? src->line_starts[line] : (uint32_t)src->len;
    while (end > start &&
           (src->data[end - 1] == '\n' || src->data[end - 1] == '\r'))
        end--;
    return (nfy_str){src->data + start, end - start};
}
