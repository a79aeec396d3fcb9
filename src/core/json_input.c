/*
 * Byte source for the streaming JSON lexer: a file descriptor or a memory
 * block, inflated on the fly when it starts with the gzip magic (1f 8b).
 * zlib's inflate with gzip headers (windowBits 16+15) is used instead of
 * gzread so that memory input (tests, fuzzing) and stdin share the path;
 * concatenated gzip members are read one after the other, as gunzip does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json_lex.h"

static void input_zero(nfy_json_input *in)
{
    memset(in, 0, sizeof *in);
    in->fd = -1;
}

/* Raw bytes from the fd or memory; 0 at the end or on error. */
static size_t raw_read(nfy_json_input *in, unsigned char *dst, size_t cap)
{
    if (in->fd < 0) {
        size_t n = in->mem_len - in->mem_pos;
        if (n > cap)
            n = cap;
        if (n)
            memcpy(dst, in->mem + in->mem_pos, n);
        in->mem_pos += n;
        return n;
    }
    for (;;) {
        ssize_t n = read(in->fd, dst, cap);
        if (n >= 0)
            return (size_t)n;
        if (errno != EINTR) {
            in->status = nfy_status_from_errno(errno);
            return 0;
        }
    }
}

/* Peek at the first two bytes to decide on gzip, keeping them for inflate
 * (or, for plain input, putting the position back). */
static nfy_status detect_gzip(nfy_json_input *in)
{
    unsigned char magic[2];
    size_t got = 0;
    if (in->fd < 0) {
        in->gzip = in->mem_len >= 2 && in->mem[0] == 0x1f && in->mem[1] == 0x8b;
    } else {
        while (got < 2) {
            size_t n = raw_read(in, magic + got, 2 - got);
            if (!n)
                break;
            got += n;
        }
        if (in->status)
            return in->status;
        in->gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    }
    in->zin = malloc(NFY_JSON_CHUNK);
    if (!in->zin)
        return NFY_ENOMEM;
    /* Bytes already taken from a descriptor are replayed from zin. */
    memcpy(in->zin, magic, got);
    in->z.next_in = in->zin;
    in->z.avail_in = (uInt)got;
    if (in->gzip && inflateInit2(&in->z, 16 + MAX_WBITS) != Z_OK)
        return NFY_ENOMEM;
    return NFY_OK;
}

nfy_status nfy_json_input_open(nfy_json_input *in, const char *path)
{
    input_zero(in);
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0)
            return nfy_status_from_errno(errno);
        in->own_fd = true;
        struct stat st;
        if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
            nfy_json_input_close(in);
            return NFY_EIO;
        }
    }
    nfy_status st = detect_gzip(in);
    if (st)
        nfy_json_input_close(in);
    return st;
}

void nfy_json_input_mem(nfy_json_input *in, const void *data, size_t len)
{
    input_zero(in);
    in->mem = data;
    in->mem_len = len;
    if (detect_gzip(in))
        in->status = NFY_ENOMEM;
}

/* Plain input: replay the peeked bytes, then read straight into dst. */
static size_t plain_read(nfy_json_input *in, unsigned char *dst, size_t cap)
{
    size_t n = 0;
    while (in->z.avail_in && n < cap) {
        dst[n++] = *in->z.next_in++;
        in->z.avail_in--;
    }
    if (n < cap && !in->eof) {
        size_t got = raw_read(in, dst + n, cap - n);
        if (!got)
            in->eof = true;
        n += got;
    }
    return n;
}

static bool gz_refill(nfy_json_input *in)
{
    if (in->z.avail_in || in->eof)
        return in->z.avail_in > 0;
    size_t got = raw_read(in, in->zin, NFY_JSON_CHUNK);
    if (!got) {
        in->eof = true;
        return false;
    }
    in->z.next_in = in->zin;
    in->z.avail_in = (uInt)got;
    return true;
}

static size_t gz_read(nfy_json_input *in, unsigned char *dst, size_t cap)
{
    in->z.next_out = dst;
    in->z.avail_out = (uInt)cap;
    while (in->z.avail_out && !in->zdone && !in->status) {
        if (!gz_refill(in)) {
            if (in->z.avail_out == cap)
                in->status = NFY_ESYNTAX; /* gzip stream cut short */
            break;
        }
        int rc = inflate(&in->z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            /* Another member may follow (cat a.gz b.gz). */
            if (!gz_refill(in))
                in->zdone = true;
            else if (inflateReset(&in->z) != Z_OK)
                in->status = NFY_EINTERNAL;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            in->status = rc == Z_MEM_ERROR ? NFY_ENOMEM : NFY_ESYNTAX;
        } else if (rc == Z_BUF_ERROR && in->eof) {
            in->status = NFY_ESYNTAX;
        }
    }
    return cap - in->z.avail_out;
}

size_t nfy_json_input_read(nfy_json_input *in, unsigned char *dst, size_t cap)
{
    if (in->status || cap == 0)
        return 0;
    if (cap > NFY_JSON_CHUNK * 16)
        cap = NFY_JSON_CHUNK * 16;
    if (in->max_read && cap > in->max_read)
        cap = in->max_read;
    return in->gzip ? gz_read(in, dst, cap) : plain_read(in, dst, cap);
}

bool nfy_json_input_rewind(nfy_json_input *in)
{
    if (in->fd >= 0) {
        struct stat st;
        if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
            lseek(in->fd, 0, SEEK_SET) != 0)
            return false;
    } else {
        in->mem_pos = 0;
    }
    in->eof = false;
    in->zdone = false;
    in->status = NFY_OK;
    in->z.avail_in = 0;
    if (in->gzip && inflateReset(&in->z) != Z_OK)
        return false;
    return true;
}

void nfy_json_input_close(nfy_json_input *in)
{
    if (in->gzip)
        inflateEnd(&in->z);
    if (in->own_fd && in->fd >= 0)
        close(in->fd);
    free(in->zin);
    input_zero(in);
}
