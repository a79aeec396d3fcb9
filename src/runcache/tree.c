/* The converted tree's own manifest (tree.tsv): written once when the
 * entry is built, checked before every run, so an entry edited or
 * replaced since it was built is never run. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

#define PYCACHE "__pycache__"

static long long ns_of(const struct timespec *t)
{
    return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static nfy_status digest_at(int dirfd, const char *name, const struct stat *st,
                            char hex[NFY_SHA256_HEX])
{
    uint8_t digest[NFY_SHA256_BYTES];
    nfy_sha256 s;
    if (S_ISLNK(st->st_mode)) {
        char target[PATH_MAX];
        ssize_t n = readlinkat(dirfd, name, target, sizeof target);
        if (n < 0)
            return nfy_status_from_errno(errno);
        nfy_sha256_init(&s);
        nfy_sha256_add(&s, target, (size_t)n);
        nfy_sha256_finish(&s, digest);
    } else {
        int fd =
            openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return nfy_status_from_errno(errno);
        struct stat now;
        nfy_status rc = fstat(fd, &now) != 0 ? nfy_status_from_errno(errno)
                        : !S_ISREG(now.st_mode)
                            ? NFY_ENOTREG
                            : nfy__runcache_hash_fd(fd, digest);
        close(fd);
        if (rc)
            return rc;
    }
    nfy_sha256_hex(digest, hex);
    return NFY_OK;
}

static char kind_of(const struct stat *st)
{
    return S_ISDIR(st->st_mode)   ? 'd'
           : S_ISLNK(st->st_mode) ? 'l'
           : S_ISREG(st->st_mode) ? 'f'
                                  : '?';
}

/* rel with '\\', TAB and newline escaped: one line per entry. */
static nfy_status add_escaped(nfy_buf *out, const char *rel)
{
    nfy_status st = NFY_OK;
    for (const char *p = rel; *p && !st; p++)
        st = *p == '\\'   ? nfy_buf_add(out, "\\\\", 2)
             : *p == '\t' ? nfy_buf_add(out, "\\t", 2)
             : *p == '\n' ? nfy_buf_add(out, "\\n", 2)
                          : nfy_buf_add(out, p, 1);
    return st;
}

typedef struct {
    nfy_buf *out;
    nfy_status st;
} recorder;

static int record_one(void *ctx, int dirfd, const char *name, const char *rel,
                      const struct stat *seen)
{
    recorder *r = ctx;
    struct stat st = *seen;
    char kind = kind_of(&st);
    if (kind == '?' || (kind == 'd' && !strcmp(name, PYCACHE)))
        return 2;
    if (kind != 'l' && (st.st_mode & (S_IWGRP | S_IWOTH))) {
        if (fchmodat(dirfd, name, st.st_mode & 07755, 0) != 0 ||
            fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            r->st = nfy_status_from_errno(errno);
            return 1;
        }
    }
    char hex[NFY_SHA256_HEX] = "-";
    if (kind != 'd' && (r->st = digest_at(dirfd, name, &st, hex)))
        return 1;
    bool file = kind == 'f';
    r->st = nfy_buf_addf(
        r->out, "%c\t%lld\t%lld\t%lld\t%" PRIuMAX "\t%s\t", kind,
        file ? (long long)st.st_size : 0, file ? ns_of(&st.st_mtim) : 0,
        file ? ns_of(&st.st_ctim) : 0, file ? (uintmax_t)st.st_ino : 0, hex);
    if (!r->st)
        r->st = add_escaped(r->out, rel);
    if (!r->st)
        r->st = nfy_buf_add(r->out, "\n", 1);
    return r->st ? 1 : 0;
}

nfy_status nfy__runcache_tree_record(int treefd, nfy_buf *out)
{
    recorder r = {out, NFY_OK};
    nfy_status st = nfy__runcache_fdwalk(treefd, record_one, &r);
    return r.st ? r.st : st;
}

/* ---- checking ----------------------------------------------------------- */

typedef struct {
    char kind;
    long long size, mtime, ctime;
    uintmax_t ino;
    char hex[NFY_SHA256_HEX];
    char rel[PATH_MAX];
} tree_line;

static bool parse_line(nfy_str line, tree_line *t)
{
    char buf[PATH_MAX + 256];
    if (line.len >= sizeof buf)
        return false;
    memcpy(buf, line.ptr, line.len);
    buf[line.len] = '\0';
    int at = 0;
    if (sscanf(buf, "%c\t%lld\t%lld\t%lld\t%" SCNuMAX "\t%64s\t%n", &t->kind,
               &t->size, &t->mtime, &t->ctime, &t->ino, t->hex, &at) != 6 ||
        at == 0)
        return false;
    size_t n = 0;
    for (const char *p = buf + at; *p; p++) {
        char c = *p;
        if (c == '\\' && p[1])
            c = *++p == 't' ? '\t' : *p == 'n' ? '\n' : *p;
        if (n + 1 >= sizeof t->rel)
            return false;
        t->rel[n++] = c;
    }
    t->rel[n] = '\0';
    return n > 0;
}

typedef struct {
    int fd;
    char *rel;
} open_dir;

typedef NFY_VEC(open_dir) dir_stack;

/* Close the directories the entry is not in; false when its directory
 * is not open (it was not there). */
static bool enter_parent(dir_stack *stack, const char *rel, const char **name)
{
    const char *slash = strrchr(rel, '/');
    size_t plen = slash ? (size_t)(slash - rel) : 0;
    *name = slash ? slash + 1 : rel;
    while (stack->len > 1) {
        const char *top = nfy_vec_last(stack)->rel;
        if (strlen(top) == plen && !strncmp(top, rel, plen))
            return true;
        close(nfy_vec_last(stack)->fd);
        stack->len--;
    }
    return plen == 0;
}

typedef struct {
    const char *tree_path;
    nfy_arena *a;
    nfy_diags *diags;
    dir_stack stack;
} checker;

/* NFY_OK and *same: as built; NFY_EACCES: not the user's alone. */
static nfy_status check_one(checker *c, const tree_line *t, bool *same)
{
    *same = false;
    const char *name;
    if (!enter_parent(&c->stack, t->rel, &name))
        return NFY_OK;
    int dirfd = nfy_vec_last(&c->stack)->fd;
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return NFY_OK;
    nfy_status rc = nfy__runcache_check_owned(
        &st, nfy_path_join(c->a, c->tree_path, t->rel), c->diags);
    if (rc || kind_of(&st) != t->kind)
        return rc;
    if (t->kind == 'd') {
        int fd = openat(dirfd, name,
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
            open_dir d = {fd, nfy_arena_strdup(c->a, t->rel)};
            nfy_vec_push(&c->stack, d);
            *same = true;
        }
        return NFY_OK;
    }
    if (t->kind == 'f' && st.st_size == t->size &&
        ns_of(&st.st_mtim) == t->mtime && ns_of(&st.st_ctim) == t->ctime &&
        (uintmax_t)st.st_ino == t->ino) {
        *same = true; /* the fast path: as written, by every stamp */
        return NFY_OK;
    }
    char hex[NFY_SHA256_HEX];
    *same = digest_at(dirfd, name, &st, hex) == NFY_OK && !strcmp(hex, t->hex);
    return NFY_OK;
}

nfy_status nfy__runcache_tree_check(int treefd, nfy_str manifest,
                                    const char *tree_path, nfy_arena *a,
                                    nfy__tree_state *state, const char **what,
                                    nfy_diags *diags)
{
    *state = NFY__TREE_INTACT;
    *what = NULL;
    checker c = {tree_path, a, diags, {0}};
    open_dir root = {treefd, ""};
    nfy_vec_push(&c.stack, root);
    nfy_status rc = NFY_OK;
    tree_line t;
    while (manifest.len && !rc && !*what) {
        const char *nl = memchr(manifest.ptr, '\n', manifest.len);
        size_t n = nl ? (size_t)(nl - manifest.ptr) : manifest.len;
        nfy_str line = {manifest.ptr, n};
        manifest.ptr += n + (nl != NULL);
        manifest.len -= n + (nl != NULL);
        bool same = false;
        if (!parse_line(line, &t)) {
            *what = "tree.tsv";
            break;
        }
        rc = check_one(&c, &t, &same);
        if (!rc && !same)
            *what = nfy_arena_strdup(a, t.rel);
    }
    for (size_t i = 1; i < c.stack.len; i++)
        close(c.stack.items[i].fd);
    nfy_vec_free(&c.stack);
    if (*what)
        *state = NFY__TREE_CHANGED;
    return rc;
}
