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
    nfy__rc_names names = {0};
    nfy_status rc = nfy__runcache_dir_names(dirfd, true, NULL, &names);
    for (size_t i = 0; !rc && !w->stopped && i < names.len; i++)
        rc = visit(w, dirfd, names.items[i], prefix, depth);
    nfy__runcache_names_free(&names);
    return rc;
}

nfy_status nfy__runcache_fdwalk(int dirfd, nfy__fdwalk_fn fn, void *ctx)
{
    walker w = {fn, ctx, false};
    return walk_dir(&w, dirfd, "", 0);
}
