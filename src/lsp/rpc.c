/*
 * JSON-RPC transport of the language server: "Content-Length: N" headers,
 * a blank line, N bytes of JSON. Input is buffered so a burst of changes
 * can be read before any is diagnosed.
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lsp/lsp_internal.h"

void nfy__lsp_io_init(nfy__lsp_io *io, int in_fd, int out_fd)
{
    memset(io, 0, sizeof *io);
    io->in_fd = in_fd;
    io->out_fd = out_fd;
}

void nfy__lsp_io_release(nfy__lsp_io *io)
{
    free(io->buf);
    io->buf = NULL;
    io->len = io->cap = 0;
}

/* Read what is there (waiting up to timeout_ms); false on timeout. */
static bool fill(nfy__lsp_io *io, int timeout_ms)
{
    struct pollfd p = {io->in_fd, POLLIN, 0};
    int n;
    do
        n = poll(&p, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    if (n == 0)
        return false;
    if (io->cap - io->len < 65536) {
        io->cap = io->cap ? io->cap * 2 : 131072;
        io->buf = realloc(io->buf, io->cap);
        if (!io->buf)
            abort();
    }
    ssize_t got;
    do
        got = read(io->in_fd, io->buf + io->len, io->cap - io->len);
    while (got < 0 && errno == EINTR);
    if (got <= 0)
        io->eof = true;
    else
        io->len += (size_t)got;
    return true;
}

static void consume(nfy__lsp_io *io, size_t n)
{
    memmove(io->buf, io->buf + n, io->len - n);
    io->len -= n;
}

typedef enum { HDR_MORE, HDR_OK, HDR_BAD } hdr_state;

/* The header block at the buffer's start: its size and the body length. */
static hdr_state parse_header(const nfy__lsp_io *io, size_t *hdr_len,
                              size_t *body_len)
{
    const char *b = io->buf;
    const char *end = io->len ? memmem(b, io->len, "\r\n\r\n", 4) : NULL;
    if (!end)
        return io->len > 8192 ? HDR_BAD : HDR_MORE;
    *hdr_len = (size_t)(end - b) + 4;
    bool have = false;
    for (const char *line = b; line < end;) {
        const char *eol = memmem(line, (size_t)(end - line) + 2, "\r\n", 2);
        static const char key[] = "content-length:";
        if ((size_t)(eol - line) > sizeof key - 1 &&
            !strncasecmp(line, key, sizeof key - 1)) {
            char *stop;
            unsigned long long v = strtoull(line + sizeof key - 1, &stop, 10);
            while (stop < eol && (*stop == ' ' || *stop == '\t'))
                stop++;
            if (stop != eol || v > NFY__LSP_MAX_MESSAGE)
                return HDR_BAD;
            *body_len = (size_t)v;
            have = true;
        }
        line = eol + 2;
    }
    return have ? HDR_OK : HDR_BAD;
}

/* Drop input up to the next header after a malformed one. */
static void resync(nfy__lsp_io *io)
{
    const char *next =
        io->len > 1 ? memmem(io->buf + 1, io->len - 1, "Content-Length:", 15)
                    : NULL;
    consume(io, next ? (size_t)(next - io->buf) : io->len);
}

nfy__lsp_read_result nfy__lsp_read(nfy__lsp_io *io, int timeout_ms,
                                   json_t **msg)
{
    for (;;) {
        size_t hdr = 0, body = 0;
        hdr_state hs = parse_header(io, &hdr, &body);
        if (hs == HDR_BAD) {
            resync(io);
            return NFY__LSP_BAD;
        }
        if (hs == HDR_OK && io->len >= hdr + body) {
            json_error_t err;
            *msg =
                json_loadb(io->buf + hdr, body, JSON_REJECT_DUPLICATES, &err);
            consume(io, hdr + body);
            return *msg ? NFY__LSP_MSG : NFY__LSP_BAD;
        }
        if (io->eof)
            return NFY__LSP_EOF;
        if (!fill(io, timeout_ms))
            return NFY__LSP_TIMEOUT;
    }
}

bool nfy__lsp_input_pending(nfy__lsp_io *io)
{
    size_t hdr, body;
    if (parse_header(io, &hdr, &body) == HDR_OK && io->len >= hdr + body)
        return true;
    struct pollfd p = {io->in_fd, POLLIN, 0};
    return !io->eof && poll(&p, 1, 0) > 0;
}

static void write_all(nfy__lsp_io *io, const char *p, size_t n)
{
    while (n && !io->broken) {
        ssize_t w = write(io->out_fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            io->broken = true; /* EPIPE: the client went away */
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

void nfy__lsp_send_text(nfy__lsp_io *io, const char *body, size_t len)
{
    char hdr[64];
    int h = snprintf(hdr, sizeof hdr, "Content-Length: %zu\r\n\r\n", len);
    write_all(io, hdr, (size_t)h);
    write_all(io, body, len);
}

void nfy__lsp_send(nfy__lsp_io *io, json_t *msg)
{
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *body = json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(msg);
    if (!body)
        abort();
    nfy__lsp_send_text(io, body, strlen(body));
    free(body);
}
