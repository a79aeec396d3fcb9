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

static size_t buf_max(const nfy_buf *b)
{
    return b->max ? b->max : NFY_BUF_DEFAULT_MAX;
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
    if (extra > buf_max(b) || b->len > buf_max(b) - extra) {
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

nfy_status nfy_buf_add(nfy_buf *b, const void *data, size_t len)
{
    if (nfy_buf_reserve(b, len))
        return b->status;
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return NFY_OK;
}

nfy_status nfy_buf_addstr(nfy_buf *b, const char *s)
{
    return nfy_buf_add(b, s, strlen(s));
}

nfy_status nfy_buf_addch(nfy_buf *b, char c)
{
    return nfy_buf_add(b, &c, 1);
}

nfy_status nfy_buf_addview(nfy_buf *b, nfy_str s)
{
    return nfy_buf_add(b, s.ptr, s.len);
}

nfy_status nfy_buf_vaddf(nfy_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
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
