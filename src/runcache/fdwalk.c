/* A sorted walk by directory descriptor that never follows a link. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

enum { MAX_DEPTH = 512 };

typedef NFY_VEC(char *) name_list;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static nfy_status sorted_names(int dirfd, name_list *out)
{
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        return nfy_status_from_errno(err);
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *copy = strdup(e->d_name);
        if (!copy) {
            closedir(d);
            return NFY_ENOMEM;
        }
        nfy_vec_push(out, copy);
    }
    closedir(d);
    if (out->len)
        qsort(out->items, out->len, sizeof *out->items, by_name);
    return NFY_OK;
}

typedef struct {
    nfy__fdwalk_fn fn;
    void *ctx;
    bool stopped;
} walker;

static nfy_status walk_dir(walker *w, int dirfd, const char *prefix, int depth);

static nfy_status visit(walker *w, int dirfd, const char *name,
                        const char *prefix, int depth)
{
    char rel[PATH_MAX];
    int n =
        snprintf(rel, sizeof rel, "%s%s%s", prefix, *prefix ? "/" : "", name);
    if (n < 0 || (size_t)n >= sizeof rel)
        return NFY_ENAMETOOLONG;
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return nfy_status_from_errno(errno);
    int r = w->fn(w->ctx, dirfd, name, rel, &st);
    if (r == 1)
        w->stopped = true;
    if (r || !S_ISDIR(st.st_mode))
        return NFY_OK;
    int fd =
        openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ELOOP ? NFY_ESYMLINK : nfy_status_from_errno(errno);
    nfy_status rc = walk_dir(w, fd, rel, depth + 1);
    close(fd);
    return rc;
}

static nfy_status walk_dir(walker *w, int dirfd, const char *prefix, int depth)
{
    if (depth > MAX_DEPTH)
        return NFY_ELIMIT;
    name_list names = {0};
    nfy_status rc = sorted_names(dirfd, &names);
    for (size_t i = 0; !rc && !w->stopped && i < names.len; i++)
        rc = visit(w, dirfd, names.items[i], prefix, depth);
    for (size_t i = 0; i < names.len; i++)
        free(names.items[i]);
    nfy_vec_free(&names);
    return rc;
}

nfy_status nfy__runcache_fdwalk(int dirfd, nfy__fdwalk_fn fn, void *ctx)
{
    walker w = {fn, ctx, false};
    return walk_dir(&w, dirfd, "", 0);
}
