/*
 * Directory walk in sorted order. Symbolic links are reported and never
 * followed, so the walk cannot loop; a directory reached twice (same device
 * and inode, as with bind mounts) is skipped. FIFOs, sockets and devices
 * are reported as such (never opened here). An entry that cannot be
 * examined or listed is reported as an error entry and the walk goes on.
 */
/* getdents64 is a GNU name. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"

typedef struct {
    dev_t dev;
    ino_t ino;
} dir_id;

typedef struct {
    const nfy_walk_opts *opts;
    nfy_walk_fn fn;
    void *ctx;
    NFY_VEC(dir_id) seen;
    struct stat skip_st;
    bool have_skip;
    bool stopped;
    char *dents; /* getdents64's buffer, one for the walk */
} walker;

enum { DENTS_BYTES = 32768 };

typedef NFY_VEC(char *) name_vec;

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool skipped_name(const walker *w, const char *name)
{
    const char *const *s = w->opts ? w->opts->skip_names : NULL;
    for (; s && *s; s++)
        if (!strcmp(*s, name))
            return true;
    return false;
}

static bool seen_before(walker *w, const struct stat *st)
{
    for (size_t i = 0; i < w->seen.len; i++)
        if (w->seen.items[i].dev == st->st_dev &&
            w->seen.items[i].ino == st->st_ino)
            return true;
    nfy_vec_push(&w->seen, ((dir_id){st->st_dev, st->st_ino}));
    return false;
}

/* Tell the caller about an entry that could not be examined or listed. */
static void report_error(walker *w, const char *path, const char *rel, int err)
{
    nfy_walk_entry e = {path, rel, NFY_WALK_ERROR, 0, 0, err};
    if (w->fn(w->ctx, &e))
        w->stopped = true;
}

/* One directory's names, by getdents64 on a plain descriptor: opendir
 * would also fstat it, and the walk's lstat already said what it is. */
static bool list_names(walker *w, int fd, name_vec *names)
{
    if (!w->dents && !(w->dents = malloc(DENTS_BYTES)))
        abort();
    for (;;) {
        ssize_t n = getdents64(fd, w->dents, DENTS_BYTES);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0;
        for (ssize_t at = 0; at < n;) {
            const struct dirent64 *de = (const void *)(w->dents + at);
            at += de->d_reclen;
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
                skipped_name(w, de->d_name))
                continue;
            size_t len = strlen(de->d_name);
            char *copy = malloc(len + 1);
            if (!copy)
                abort();
            memcpy(copy, de->d_name, len + 1);
            nfy_vec_push(names, copy);
        }
    }
}

static bool read_names(walker *w, const char *path, const char *rel,
                       name_vec *names)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || !list_names(w, fd, names)) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        report_error(w, path, rel, err);
        return false;
    }
    close(fd);
    if (names->len > 1)
        qsort(names->items, names->len, sizeof(char *), cmp_names);
    return true;
}

static void walk_dir(walker *w, const char *path, const char *rel);

static void visit(walker *w, const char *path, const char *rel)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        report_error(w, path, rel, errno);
        return;
    }
    if (w->have_skip && st.st_dev == w->skip_st.st_dev &&
        st.st_ino == w->skip_st.st_ino)
        return;
    nfy_walk_entry e = {path, rel, NFY_WALK_FILE, st.st_mode, st.st_size, 0};
    if (S_ISLNK(st.st_mode))
        e.kind = NFY_WALK_SYMLINK;
    else if (S_ISDIR(st.st_mode))
        e.kind = NFY_WALK_DIR;
    else if (!S_ISREG(st.st_mode))
        e.kind = NFY_WALK_SPECIAL; /* the caller says what it does with it */
    if (e.kind == NFY_WALK_DIR && seen_before(w, &st))
        return;
    if (w->fn(w->ctx, &e)) {
        w->stopped = true;
        return;
    }
    if (e.kind == NFY_WALK_DIR)
        walk_dir(w, path, rel);
}

static void walk_dir(walker *w, const char *path, const char *rel)
{
    name_vec names = {0};
    if (read_names(w, path, rel, &names)) {
        nfy_arena a = NFY_ARENA_INIT;
        for (size_t i = 0; i < names.len && !w->stopped; i++) {
            const char *child = nfy_path_join(&a, path, names.items[i]);
            const char *crel =
                *rel ? nfy_path_join(&a, rel, names.items[i]) : names.items[i];
            visit(w, child, crel);
        }
        nfy_arena_release(&a);
    }
    for (size_t i = 0; i < names.len; i++)
        free(names.items[i]);
    nfy_vec_free(&names);
}

nfy_status nfy_walk(const char *root, const nfy_walk_opts *opts, nfy_walk_fn fn,
                    void *ctx, nfy_diags *diags)
{
    walker w = {.opts = opts, .fn = fn, .ctx = ctx};
    (void)diags;
    if (opts && opts->skip_path && stat(opts->skip_path, &w.skip_st) == 0)
        w.have_skip = true;
    struct stat st;
    if (stat(root, &st) != 0)
        return nfy_status_from_errno(errno);
    if (S_ISDIR(st.st_mode)) {
        seen_before(&w, &st);
        walk_dir(&w, root, "");
    } else {
        const char *slash = strrchr(root, '/');
        nfy_walk_entry e = {root,          slash ? slash + 1 : root,
                            NFY_WALK_FILE, st.st_mode,
                            st.st_size,    0};
        fn(ctx, &e);
    }
    nfy_vec_free(&w.seen);
    free(w.dents);
    return NFY_OK;
}
