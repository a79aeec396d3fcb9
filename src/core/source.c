/*
 * nfy_source: a file's bytes plus a table of line starts, so spans turn
 * into Python-style (line, column) positions on demand.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/fatal.h"
#include "core/swar.h"

#if defined(__SSE2__) && defined(__GNUC__)
#    include <emmintrin.h>
#endif

/* The line table being built and what the scan learnt on the way. */
typedef struct {
    uint32_t *items;
    size_t len, cap;
    uint8_t high; /* OR of every byte's top bit: 0 when the file is ASCII */
} line_scan;

/*
 * Python ends a line at "\n", "\r\n" or a lone "\r": a '\r' followed by
 * '\n' is left to that '\n'. A line start is kept only when a byte follows.
 */
static void line_end_at(line_scan *ls, const char *s, size_t n, size_t p)
{
    if (p + 1 >= n || (s[p] == '\r' && s[p + 1] == '\n'))
        return;
    if (ls->len == ls->cap)
        nfy__vec_grow((void **)&ls->items, &ls->cap, ls->len + 1,
                      sizeof *ls->items);
    ls->items[ls->len++] = (uint32_t)(p + 1);
}

/* Bytes [from, n) one by one: the tail of the block scan, or all of it. */
static void scan_bytes(line_scan *ls, const char *s, char *dst, size_t from,
                       size_t n)
{
    for (size_t i = from; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (dst)
            dst[i] = (char)ch;
        ls->high |= ch & 0x80;
        if (ch == '\n' || ch == '\r')
            line_end_at(ls, s, n, i);
    }
}

#if defined(__SSE2__) && defined(__GNUC__)
/*
 * 32 bytes a step: one mask of their '\n' and '\r' bytes (most steps have
 * none or one), their top bits folded into one vector, and when dst is not
 * NULL the copy, so a file's bytes are read once to copy and index them.
 */
static size_t scan_blocks(line_scan *ls, const char *s, char *dst, size_t from,
                          size_t n)
{
    const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    __m128i high = _mm_setzero_si128();
    size_t i = from;
    for (; i + 32 <= n; i += 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i b =
            _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
        if (dst) {
            _mm_storeu_si128((__m128i *)(void *)(dst + i), a);
            _mm_storeu_si128((__m128i *)(void *)(dst + i + 16), b);
        }
        high = _mm_or_si128(high, _mm_or_si128(a, b));
        unsigned ma = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(a, nl), _mm_cmpeq_epi8(a, cr)));
        unsigned mb = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(b, nl), _mm_cmpeq_epi8(b, cr)));
        for (uint32_t m = ma | mb << 16; m; m &= m - 1)
            line_end_at(ls, s, n, i + (size_t)__builtin_ctz(m));
    }
    ls->high |= _mm_movemask_epi8(high) ? 0x80 : 0;
    return i;
}

#    if defined(__x86_64__)
#        include <immintrin.h>

/* scan_blocks 64 bytes a step, where the CPU has AVX2. */
__attribute__((target("avx2"))) static size_t
scan_blocks_avx2(line_scan *ls, const char *s, char *dst, size_t n)
{
    const __m256i nl = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
    __m256i high = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        __m256i b =
            _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
        if (dst) {
            _mm256_storeu_si256((__m256i *)(void *)(dst + i), a);
            _mm256_storeu_si256((__m256i *)(void *)(dst + i + 32), b);
        }
        high = _mm256_or_si256(high, _mm256_or_si256(a, b));
        uint64_t ma = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
            _mm256_cmpeq_epi8(a, nl), _mm256_cmpeq_epi8(a, cr)));
        uint64_t mb = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
            _mm256_cmpeq_epi8(b, nl), _mm256_cmpeq_epi8(b, cr)));
        for (uint64_t m = ma | mb << 32; m; m &= m - 1)
            line_end_at(ls, s, n, i + (size_t)__builtin_ctzll(m));
    }
    ls->high |= _mm256_movemask_epi8(high) ? 0x80 : 0;
    return i;
}

/* The widest block scan this CPU runs, up to where it stopped; the rest
 * goes to scan_blocks and scan_bytes. */
static size_t scan_wide(line_scan *ls, const char *s, char *dst, size_t n)
{
    if (n < 64 || !__builtin_cpu_supports("avx2"))
        return 0;
    return scan_blocks_avx2(ls, s, dst, n);
}
#    else
static size_t scan_wide(line_scan *ls, const char *s, char *dst, size_t n)
{
    (void)ls, (void)s, (void)dst, (void)n;
    return 0;
}
#    endif
#else
static size_t scan_blocks(line_scan *ls, const char *s, char *dst, size_t from,
                          size_t n)
{
    (void)ls, (void)s, (void)dst, (void)n;
    return from;
}

static size_t scan_wide(line_scan *ls, const char *s, char *dst, size_t n)
{
    (void)ls, (void)s, (void)dst, (void)n;
    return 0;
}
#endif

/*
 * The code point count at the first position nfy_utf8_count's walk from
 * the file start reaches in each block. That walk lands on every ASCII
 * byte (no UTF-8 sequence holds one), so on every line start too, and a
 * column becomes a difference of two counts, each finished by a scan of
 * under two blocks. Runs of 8 ASCII bytes are one step of that walk.
 */
static void build_codepoints(nfy_source *src)
{
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
            if (target - i >= 8 && !nfy__swar_high(nfy__swar_load(s + i))) {
                i += 8;
                count += 8;
                continue;
            }
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

/*
 * Line table and code point table of src's bytes, read from `from` (and
 * copied into src->data on the way when from is not src->data).
 */
static nfy_status index_source(nfy_source *src, const char *from)
{
    size_t n = src->len;
    char *dst = from == src->data ? NULL : src->data;
    line_scan ls = {NULL, 0, 0, 0};
    nfy__vec_grow((void **)&ls.items, &ls.cap, n / 32 + 16, sizeof *ls.items);
    ls.items[ls.len++] = 0;
    size_t done = scan_wide(&ls, from, dst, n);
    done = scan_blocks(&ls, from, dst, done, n);
    scan_bytes(&ls, from, dst, done, n);
    src->line_starts = ls.items;
    src->nlines = ls.len;
    if (ls.high)
        build_codepoints(src);
    return NFY_OK;
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
    src->data[len] = '\0';
    src->len = len;
    src->path = dup_path(path);
    return index_source(src, len ? data : src->data);
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
    return index_source(src, src->data);
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

size_t nfy_source_line_index(const nfy_source *src, uint32_t offset)
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
    size_t li = nfy_source_line_index(src, offset);
    uint32_t start = src->line_starts[li];
    *line = (uint32_t)li + 1;
    *col = (uint32_t)(nfy_source_codepoints(src, offset, NULL) -
                      nfy_source_codepoints(src, start, NULL));
}

uint32_t nfy_source_offset(const nfy_source *src, uint32_t line, uint32_t col)
{
    if (line == 0 || line > src->nlines)
        return line ? (uint32_t)src->len : 0;
    uint32_t off = src->line_starts[line - 1];
    if (src->cp_counts == NULL) /* an ASCII file: a code point is a byte */
        return (uint32_t)((uint64_t)off + col < src->len ? off + col
                                                         : src->len);
    while (col-- && off < src->len) {
        uint32_t cp;
        size_t k = nfy_utf8_decode(src->data + off, src->len - off, &cp);
        off += k ? (uint32_t)k : 1;
    }
    return off;
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
