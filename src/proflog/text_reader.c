/*
 * Profiler text reader: bytes -> lines -> per-rank table streams.
 * Input arrives in chunks of any size. The first bytes choose the encoding
 * (UTF-8 with or without BOM, UTF-16LE/BE with BOM, or BOM-less UTF-16 seen
 * from NUL bytes); UTF-16 is transcoded to UTF-8 chunk by chunk. Each line is
 * normalised (CR line ends, ANSI escapes, "\r" progress-bar overwrites, rank
 * prefixes such as "[rank1]: ", "[default0]:", "[0] ") and handed to the
 * stream of its rank. Lines longer than max_line are cut (and flagged).
 */
#include <stdlib.h>
#include <string.h>

#include "proflog/text_internal.h"

#define DEFAULT_MAX_LINE ((size_t)1 << 20)
#define MAX_STREAMS      1024

typedef enum { ENC_UNKNOWN, ENC_UTF8, ENC_UTF16LE, ENC_UTF16BE } encoding;

typedef NFY_VEC(nfy_prof_stream *) stream_vec;

struct nfy_proflog_text {
    nfy_proflog_opts opts;
    nfy_proflog_stats st;
    nfy_prof_ctx ctx;
    size_t max_line;
    encoding enc;
    unsigned char head[4]; /* first bytes, while sniffing / odd UTF-16 byte */
    size_t nhead;
    uint32_t high_surrogate;
    nfy_buf carry;   /* the unfinished line */
    bool carry_cut;  /* the current line exceeded max_line */
    nfy_buf scratch; /* normalised line / transcoded chunk */
    nfy_buf utf8;    /* transcoded chunk */
    uint32_t lineno;
    uint64_t offset; /* UTF-8 bytes consumed before the current line */
    stream_vec streams;
    size_t last_stream;
};

nfy_proflog_text *nfy_prof_text_new(const nfy_proflog_opts *opts)
{
    nfy_proflog_text *r = calloc(1, sizeof *r);
    if (!r) {
        fputs("npuify: out of memory\n", stderr);
        abort();
    }
    r->opts = *opts;
    if (!r->opts.path)
        r->opts.path = "-";
    r->max_line = opts->max_line ? opts->max_line : DEFAULT_MAX_LINE;
    r->ctx.opts = &r->opts;
    r->ctx.stats = &r->st;
    nfy_buf_init(&r->carry, 0);
    nfy_buf_init(&r->scratch, 0);
    nfy_buf_init(&r->utf8, 0);
    return r;
}

void nfy_prof_text_free(nfy_proflog_text *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->streams.len; i++)
        nfy_prof__stream_free(r->streams.items[i]);
    nfy_vec_free(&r->streams);
    nfy_buf_release(&r->carry);
    nfy_buf_release(&r->scratch);
    nfy_buf_release(&r->utf8);
    free(r);
}

void nfy_prof_text_stats(const nfy_proflog_text *r, nfy_proflog_stats *st)
{
    *st = r->st;
}

/* ---- Line normalisation ------------------------------------------------ */

/* "[rank12]: ", "[default3]:", "[3] ", "[3]" (whole line). */
static bool strip_rank(nfy_str *line, int32_t *rank)
{
    const char *p = line->ptr;
    size_t n = line->len, i = 1;
    if (n < 3 || p[0] != '[')
        return false;
    bool named = false;
    if (n > 6 && !memcmp(p + 1, "rank", 4))
        i = 5, named = true;
    else if (n > 9 && !memcmp(p + 1, "default", 7))
        i = 8, named = true;
    size_t d0 = i;
    int64_t v = 0;
    while (i < n && p[i] >= '0' && p[i] <= '9' && i - d0 < 6)
        v = v * 10 + (p[i++] - '0');
    if (i == d0 || i >= n || p[i] != ']')
        return false;
    i++;
    if (i < n && p[i] == ':')
        i++;
    else if (named && !(i < n && p[i] == ' '))
        return false;
    else if (!named && i < n && p[i] != ' ')
        return false;
    if (i < n && p[i] == ' ')
        i++;
    *line = nfy_str_slice(*line, i, n);
    *rank = (int32_t)v;
    return true;
}

/* Copy line without ANSI escape sequences into r->scratch. */
static nfy_str strip_ansi(nfy_proflog_text *r, nfy_str l)
{
    nfy_buf_reset(&r->scratch);
    (void)nfy_buf_reserve(&r->scratch, l.len);
    for (size_t i = 0; i < l.len; i++) {
        if (l.ptr[i] != '\x1b') {
            (void)nfy_buf_addch(&r->scratch, l.ptr[i]);
            continue;
        }
        if (i + 1 < l.len && l.ptr[i + 1] == '[') {
            i += 2; /* CSI: parameters, then one final byte 0x40-0x7e */
            while (i < l.len && !(l.ptr[i] >= 0x40 && l.ptr[i] <= 0x7e))
                i++;
        } else if (i + 1 < l.len) {
            i++; /* two-byte escape */
        }
    }
    return nfy_buf_view(&r->scratch);
}

static nfy_prof_stream *stream_for(nfy_proflog_text *r, int32_t rank)
{
    if (r->last_stream < r->streams.len &&
        nfy_prof__stream_rank(r->streams.items[r->last_stream]) == rank)
        return r->streams.items[r->last_stream];
    for (size_t i = 0; i < r->streams.len; i++)
        if (nfy_prof__stream_rank(r->streams.items[i]) == rank) {
            r->last_stream = i;
            return r->streams.items[i];
        }
    if (r->streams.len >= MAX_STREAMS)
        return r->streams.items[0];
    nfy_vec_push(&r->streams, nfy_prof__stream_new(rank));
    r->last_stream = r->streams.len - 1;
    return r->streams.items[r->last_stream];
}

static const char *last_cr(nfy_str l)
{
    for (size_t i = l.len; i > 0; i--)
        if (l.ptr[i - 1] == '\r')
            return l.ptr + i - 1;
    return NULL;
}

static void handle_line(nfy_proflog_text *r, nfy_str l)
{
    r->lineno++;
    r->st.lines++;
    while (l.len && l.ptr[l.len - 1] == '\r')
        l.len--;
    if (l.len && memchr(l.ptr, '\x1b', l.len))
        l = strip_ansi(r, l);
    const char *cr = l.len && memchr(l.ptr, '\r', l.len) ? last_cr(l) : NULL;
    if (cr) /* a terminal shows what follows the last carriage return */
        l = nfy_str_slice(l, (size_t)(cr - l.ptr) + 1, l.len);
    int32_t rank = NFY_PROF_RANK_NONE;
    if (l.len && l.ptr[0] == '[')
        (void)strip_rank(&l, &rank);
    nfy_prof__stream_line(stream_for(r, rank), &r->ctx, l, r->lineno,
                          r->offset);
}

/* ---- UTF-8 line splitting ---------------------------------------------- */

static void cut_warning(nfy_proflog_text *r)
{
    if (r->opts.diags)
        nfy_diag_add_at(r->opts.diags, NFY_SEV_WARNING, "prof-long-line",
                        r->opts.path, r->lineno + 1, 0,
                        "line longer than %zu bytes; the rest is ignored",
                        r->max_line);
}

static void carry_add(nfy_proflog_text *r, const char *p, size_t n)
{
    size_t room = r->max_line - r->carry.len;
    if (n > room) {
        if (!r->carry_cut)
            cut_warning(r);
        r->carry_cut = true;
        n = room;
    }
    (void)nfy_buf_add(&r->carry, p, n);
}

static void finish_carry_line(nfy_proflog_text *r, size_t consumed)
{
    handle_line(r, nfy_buf_view(&r->carry));
    r->offset += consumed;
    nfy_buf_reset(&r->carry);
    r->carry_cut = false;
}

static void feed_utf8(nfy_proflog_text *r, const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && !r->ctx.stopped) {
        const char *nl = memchr(p + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - p) : n;
        if (!nl) {
            carry_add(r, p + i, end - i);
            return;
        }
        if (r->carry.len || r->carry_cut) {
            carry_add(r, p + i, end - i);
            finish_carry_line(r, r->carry.len + 1);
        } else {
            size_t len = end - i;
            if (len > r->max_line) {
                cut_warning(r);
                len = r->max_line;
            }
            handle_line(r, (nfy_str){p + i, len});
            r->offset += end - i + 1;
        }
        i = end + 1;
    }
}

/* ---- Encodings --------------------------------------------------------- */

static void put_utf8(nfy_buf *b, uint32_t cp)
{
    char o[4];
    size_t n;
    if (cp < 0x80)
        o[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        o[0] = (char)(0xc0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
    else if (cp < 0x10000)
        o[0] = (char)(0xe0 | cp >> 12),
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)),
        o[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
    else
        o[0] = (char)(0xf0 | cp >> 18),
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3f)),
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)),
        o[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
    (void)nfy_buf_add(b, o, n);
}

static void utf16_unit(nfy_proflog_text *r, uint32_t u)
{
    if (u >= 0xd800 && u <= 0xdbff) {
        if (r->high_surrogate)
            put_utf8(&r->utf8, 0xfffd);
        r->high_surrogate = u;
        return;
    }
    if (u >= 0xdc00 && u <= 0xdfff) {
        if (r->high_surrogate)
            put_utf8(&r->utf8, 0x10000 + ((r->high_surrogate - 0xd800) << 10) +
                                   (u - 0xdc00));
        else
            put_utf8(&r->utf8, 0xfffd);
        r->high_surrogate = 0;
        return;
    }
    if (r->high_surrogate)
        put_utf8(&r->utf8, 0xfffd);
    r->high_surrogate = 0;
    put_utf8(&r->utf8, u);
}

static void feed_utf16(nfy_proflog_text *r, const unsigned char *p, size_t n)
{
    nfy_buf_reset(&r->utf8);
    (void)nfy_buf_reserve(&r->utf8, n + n / 2 + 8);
    size_t i = 0;
    if (r->nhead == 1 && n) { /* odd byte left from the previous chunk */
        unsigned char pair[2] = {r->head[0], p[0]};
        utf16_unit(r, r->enc == ENC_UTF16LE
                          ? (uint32_t)(pair[0] | pair[1] << 8)
                          : (uint32_t)(pair[0] << 8 | pair[1]));
        r->nhead = 0;
        i = 1;
    }
    for (; i + 1 < n; i += 2)
        utf16_unit(r, r->enc == ENC_UTF16LE ? (uint32_t)(p[i] | p[i + 1] << 8)
                                            : (uint32_t)(p[i] << 8 | p[i + 1]));
    if (i < n) {
        r->head[0] = p[i];
        r->nhead = 1;
    }
    feed_utf8(r, r->utf8.data ? r->utf8.data : "", r->utf8.len);
}

/* Choose the encoding from the first bytes; returns BOM bytes to skip. */
static size_t sniff(nfy_proflog_text *r, const unsigned char *p, size_t n)
{
    if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
        r->enc = ENC_UTF8;
        return 3;
    }
    if (n >= 2 && p[0] == 0xff && p[1] == 0xfe) {
        r->enc = ENC_UTF16LE;
        return 2;
    }
    if (n >= 2 && p[0] == 0xfe && p[1] == 0xff) {
        r->enc = ENC_UTF16BE;
        return 2;
    }
    if (n >= 4 && p[0] && !p[1] && p[2] && !p[3])
        r->enc = ENC_UTF16LE;
    else if (n >= 4 && !p[0] && p[1] && !p[2] && p[3])
        r->enc = ENC_UTF16BE;
    else
        r->enc = ENC_UTF8;
    return 0;
}

static void feed_decoded(nfy_proflog_text *r, const unsigned char *p, size_t n)
{
    if (r->enc == ENC_UTF8)
        feed_utf8(r, (const char *)p, n);
    else
        feed_utf16(r, p, n);
}

nfy_status nfy_prof_text_feed(nfy_proflog_text *r, const void *data, size_t len)
{
    const unsigned char *p = data;
    r->st.bytes += len;
    if (r->enc == ENC_UNKNOWN) {
        while (r->nhead < 4 && len) {
            r->head[r->nhead++] = *p++;
            len--;
        }
        if (r->nhead < 4)
            return NFY_OK; /* wait for more bytes (or finish) */
        unsigned char h[4];
        memcpy(h, r->head, 4);
        size_t skip = sniff(r, h, 4);
        r->nhead = 0;
        feed_decoded(r, h + skip, 4 - skip);
    }
    if (len && !r->ctx.stopped)
        feed_decoded(r, p, len);
    return NFY_OK;
}

nfy_status nfy_prof_text_finish(nfy_proflog_text *r)
{
    if (r->enc == ENC_UNKNOWN) {
        unsigned char h[4];
        size_t n = r->nhead;
        memcpy(h, r->head, n);
        size_t skip = sniff(r, h, n);
        r->nhead = 0;
        feed_decoded(r, h + skip, n - skip);
    }
    if (r->enc != ENC_UTF8 && (r->nhead || r->high_surrogate)) {
        nfy_buf_reset(&r->utf8);
        put_utf8(&r->utf8, 0xfffd);
        r->nhead = 0;
        r->high_surrogate = 0;
        feed_utf8(r, r->utf8.data, r->utf8.len);
    }
    if ((r->carry.len || r->carry_cut) && !r->ctx.stopped)
        finish_carry_line(r, r->carry.len);
    for (size_t i = 0; i < r->streams.len && !r->ctx.stopped; i++)
        nfy_prof__stream_finish(r->streams.items[i], &r->ctx);
    return NFY_OK;
}

nfy_status nfy_prof_read_text_mem(const void *data, size_t len,
                                  const nfy_proflog_opts *opts)
{
    nfy_proflog_text *r = nfy_prof_text_new(opts);
    nfy_status st = nfy_prof_text_feed(r, data, len);
    if (st == NFY_OK)
        st = nfy_prof_text_finish(r);
    nfy_prof_text_free(r);
    return st;
}

nfy_status nfy_prof_read_text(FILE *in, const nfy_proflog_opts *opts)
{
    enum { CHUNK = 1 << 16 };
    char *buf = malloc(CHUNK);
    if (!buf)
        return NFY_ENOMEM;
    nfy_proflog_text *r = nfy_prof_text_new(opts);
    nfy_status st = NFY_OK;
    size_t n;
    while ((n = fread(buf, 1, CHUNK, in)) > 0)
        (void)nfy_prof_text_feed(r, buf, n);
    if (ferror(in))
        st = NFY_EIO;
    (void)nfy_prof_text_finish(r);
    nfy_prof_text_free(r);
    free(buf);
    return st;
}
