/* The run cache's content key: every file of the project, by SHA-256. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

nfy_status nfy__runcache_hash_fd(int fd, uint8_t digest[NFY_SHA256_BYTES])
{
    nfy_sha256 s;
    nfy_sha256_init(&s);
    char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return nfy_status_from_errno(errno);
        nfy_sha256_add(&s, chunk, (size_t)n);
    }
    nfy_sha256_finish(&s, digest);
    return NFY_OK;
}

/* A project this big is most likely a home or temporary directory the
 * script happens to live in, not the code: copying it is not wanted. */
enum { MAX_PROJECT_FILES = 20000 };
#define MAX_PROJECT_BYTES ((off_t)2 << 30)

typedef struct {
    size_t files;
    off_t bytes;
    nfy_sha256 *key;
    nfy_buf *manifest;
    nfy_diags *diags;
    nfy_status st;
} key_walk;

/* One field of the key: its length first, so no two field lists that
 * differ can concatenate to the same bytes. */
static void add_field(nfy_sha256 *s, const char *text, size_t n)
{
    uint8_t len[8];
    for (unsigned i = 0; i < 8; i++)
        len[i] = (uint8_t)((uint64_t)n >> (8 * i));
    nfy_sha256_add(s, len, sizeof len);
    nfy_sha256_add(s, text, n);
}

/* Only a regular file is opened (O_NONBLOCK + fstat): one that became a
 * FIFO since the walk cannot block the run. */
static nfy_status file_digest(const char *path,
                              uint8_t digest[NFY_SHA256_BYTES])
{
    int fd;
    struct stat st;
    nfy_status rc = nfy_file_open_read(path, &fd, &st);
    if (rc)
        return rc;
    rc = nfy__runcache_hash_fd(fd, digest);
    close(fd);
    return rc;
}

static nfy_status entry_digest(const nfy_walk_entry *e,
                               uint8_t digest[NFY_SHA256_BYTES])
{
    if (e->kind == NFY_WALK_FILE)
        return file_digest(e->path, digest);
    char target[PATH_MAX];
    ssize_t n = readlink(e->path, target, sizeof target);
    if (n < 0)
        return nfy_status_from_errno(errno);
    nfy_sha256 s;
    nfy_sha256_init(&s);
    nfy_sha256_add(&s, target, (size_t)n);
    nfy_sha256_finish(&s, digest);
    return NFY_OK;
}

static int on_entry(void *ctx, const nfy_walk_entry *e)
{
    key_walk *w = ctx;
    if (e->kind == NFY_WALK_SPECIAL)
        return 0; /* never copied (the snapshot names it) */
    if (e->kind == NFY_WALK_ERROR) {
        nfy_diag_add_at(w->diags, NFY_SEV_ERROR, "cache-read", e->path, 0, 0,
                        "cannot read for the cache key: %s",
                        nfy_status_str(nfy_status_from_errno(e->err)));
        w->st = nfy_status_from_errno(e->err);
        return 1;
    }
    const char *kind = e->kind == NFY_WALK_DIR    ? "d"
                       : e->kind == NFY_WALK_FILE ? "f"
                                                  : "l";
    add_field(w->key, kind, 1);
    add_field(w->key, e->rel, strlen(e->rel));
    if (e->kind == NFY_WALK_DIR)
        return 0;
    w->bytes += e->size;
    if (++w->files > MAX_PROJECT_FILES || w->bytes > MAX_PROJECT_BYTES) {
        nfy_diag_add_at(w->diags, NFY_SEV_ERROR, "cache-size", e->path, 0, 0,
                        "the project has over %d files or 2 GiB: it is not "
                        "copied into the run cache (name the code directory "
                        "with --project DIR)",
                        MAX_PROJECT_FILES);
        w->st = NFY_ELIMIT;
        return 1;
    }
    uint8_t digest[NFY_SHA256_BYTES];
    nfy_status st = entry_digest(e, digest);
    if (st) {
        nfy_diag_add_at(w->diags, NFY_SEV_ERROR, "cache-read", e->path, 0, 0,
                        "cannot read for the cache key: %s",
                        nfy_status_str(st));
        w->st = st;
        return 1;
    }
    char hex[NFY_SHA256_HEX];
    nfy_sha256_hex(digest, hex);
    add_field(w->key, hex, NFY_SHA256_HEX - 1);
    if (nfy_buf_addf(w->manifest, "%s\t%s\n", hex, e->rel)) {
        w->st = NFY_ENOMEM;
        return 1;
    }
    return 0;
}

nfy_status nfy__runcache_key(const nfy_runcache_opts *opts,
                             const char *walk_root, const char *project,
                             char key[NFY_SHA256_HEX], nfy_buf *manifest,
                             nfy_diags *diags)
{
    nfy_sha256 s;
    nfy_sha256_init(&s);
    const char *fields[] = {
        "npuify-runcache/2", opts->tool_version ? opts->tool_version : "",
        opts->mode == NFY_CONVERT_MODE_AUTO ? "auto" : "manual",
        opts->torch_version ? opts->torch_version : "", project};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        add_field(&s, fields[i], strlen(fields[i]));
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names, opts->cache_root};
    key_walk w = {0, 0, &s, manifest, diags, NFY_OK};
    nfy_status st = nfy_walk(walk_root, &wo, on_entry, &w, diags);
    if (w.st)
        return w.st;
    if (st)
        return st;
    uint8_t digest[NFY_SHA256_BYTES];
    nfy_sha256_finish(&s, digest);
    nfy_sha256_hex(digest, key);
    return NFY_OK;
}
