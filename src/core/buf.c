/*
 * nfy_buf: a growable byte buffer with a size cap and a sticky error, so
 * report writers can append freely and check once at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/fatal.h"

void nfy_buf_init(nfy_buf *b, size_t max)
{
    *b = (nfy_buf)NFY_BUF_INIT;
    b->max = max;
}

void nfy_buf_release(nfy_buf *b)
{
    free(b->data);
    size_t max = b->max;
    nfy_buf_init(b, max);
}

void nfy_buf_reset(nfy_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
    b->status = NFY_OK;
}

nfy_status nfy_buf_flush(nfy_buf *b)
{
    if (b->status || !b->sink || !b->len)
        return b->status;
    b->status = b->sink(b->sink_ctx, b->data, b->len);
    b->len = 0;
    b->data[0] = '\0';
    return b->status;
}

nfy_status nfy_buf_reserve(nfy_buf *b, size_t extra)
{
    if (b->status)
        return b->status;
    if (b->sink && b->len + extra >= NFY_BUF_SINK_AT && nfy_buf_flush(b))
        return b->status;
    if (extra > nfy__buf_max(b) || b->len > nfy__buf_max(b) - extra) {
        b->status = NFY_ELIMIT;
        return b->status;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return NFY_OK;
    size_t ncap = b->cap ? b->cap : 64;
    while (ncap < need)
        ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
    char *p = realloc(b->data, ncap);
    if (!p)
        nfy__fatal("out of memory");
    b->data = p;
    b->cap = ncap;
    return NFY_OK;
}

nfy_status nfy__buf_add_slow(nfy_buf *b, const void *data, size_t len)
{
    if (nfy_buf_reserve(b, len))
        return b->status;
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return NFY_OK;
}

nfy_status nfy_buf_addu(nfy_buf *b, unsigned long long v)
{
    char digits[24];
    char *p = digits + sizeof digits;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return nfy_buf_add(b, p, (size_t)(digits + sizeof digits - p));
}

/*
 * Formats straight into the spare room when it is large enough, which is
 * the common case: one vsnprintf instead of a measuring one and a writing
 * one. When it is not (or a flush or an error is due), the partial text
 * is undone and the bytes go in as reserve decides.
 */
nfy_status nfy_buf_vaddf(nfy_buf *b, const char *fmt, va_list ap)
{
    size_t room = b->data ? b->cap - b->len : 0;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n >= 0 && nfy__buf_fits(b, (size_t)n)) {
        b->len += (size_t)n;
        return NFY_OK;
    }
    if (room)
        b->data[b->len] = '\0';
    if (n < 0)
        return NFY_OK;
    if (nfy_buf_reserve(b, (size_t)n))
        return b->status;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return NFY_OK;
}

nfy_status nfy_buf_addf(nfy_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nfy_status st = nfy_buf_vaddf(b, fmt, ap);
    va_end(ap);
    return st;
}

const char *nfy_buf_cstr(const nfy_buf *b)
{
    return b->data ? b->data : "";
}

nfy_str nfy_buf_view(const nfy_buf *b)
{
    return (nfy_str){nfy_buf_cstr(b), b->len};
}

char *nfy_buf_take(nfy_buf *b, size_t *len_out)
{
    char *p = b->data;
    if (!p) {
        p = malloc(1);
        if (!p)
            nfy__fatal("out of memory");
        p[0] = '\0';
    }
    if (len_out)
        *len_out = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    b->status = NFY_OK;
    return p;
}
