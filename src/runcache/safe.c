/* Whose cache it is: the root, the directories above it and each entry
 * must be the user's alone before any code in them runs (as ssh's
 * StrictModes and git's safe.directory decide). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

static nfy_status unsafe(nfy_diags *diags, const char *path, const char *why)
{
    nfy_diag_add_at(diags, NFY_SEV_ERROR, "cache-unsafe", path, 0, 0,
                    "%s: refusing to run code from the run cache (as ssh "
                    "and git refuse what another user could have written); "
                    "choose another cache with --cache DIR or "
                    "XDG_CACHE_HOME, or remove this one",
                    why);
    return NFY_EACCES;
}

nfy_status nfy__runcache_check_owned(const struct stat *st, const char *path,
                                     nfy_diags *diags)
{
    char why[128];
    uid_t me = geteuid();
    if (st->st_uid != me) {
        snprintf(why, sizeof why, "owned by uid %u, not by you (uid %u)",
                 (unsigned)st->st_uid, (unsigned)me);
        return unsafe(diags, path, why);
    }
    if (!S_ISLNK(st->st_mode) && (st->st_mode & (S_IWGRP | S_IWOTH))) {
        snprintf(why, sizeof why, "writable by %s (mode %04o)",
                 st->st_mode & S_IWOTH ? "everyone" : "its group",
                 (unsigned)(st->st_mode & 07777));
        return unsafe(diags, path, why);
    }
    return NFY_OK;
}

/* A directory above the root: the user's or root's, and writable by no
 * one else unless sticky (then no one else may rename what is ours). */
static nfy_status check_parent(const char *path, nfy_diags *diags)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return NFY_OK; /* the root itself was reached: nothing to judge */
    char why[160];
    if (st.st_uid != geteuid() && st.st_uid != 0) {
        snprintf(why, sizeof why,
                 "a directory above the cache is owned by uid %u, not by you "
                 "or root",
                 (unsigned)st.st_uid);
        return unsafe(diags, path, why);
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
        snprintf(why, sizeof why,
                 "a directory above the cache is writable by others (mode "
                 "%04o, not sticky)",
                 (unsigned)(st.st_mode & 07777));
        return unsafe(diags, path, why);
    }
    return NFY_OK;
}

static nfy_status check_parents(const char *real, nfy_diags *diags)
{
    char path[PATH_MAX];
    size_t n = strlen(real);
    if (n >= sizeof path)
        return NFY_ENAMETOOLONG;
    memcpy(path, real, n + 1);
    for (char *slash = strrchr(path, '/'); slash; slash = strrchr(path, '/')) {
        if (slash == path) {
            path[1] = '\0';
            return check_parent(path, diags);
        }
        *slash = '\0';
        nfy_status st = check_parent(path, diags);
        if (st)
            return st;
    }
    return NFY_OK;
}

static nfy_status open_failed(nfy_diags *diags, const char *root,
                              const char *what, nfy_status st)
{
    nfy_diag_add_at(diags, NFY_SEV_ERROR, "cache-write", root, 0, 0, "%s: %s",
                    what, nfy_status_str(st));
    return st;
}

nfy_status nfy__runcache_open_root(nfy_arena *a, const char *root, bool create,
                                   int *fd, const char **real, nfy_diags *diags)
{
    *fd = -1;
    if (create) {
        nfy_status st = nfy_mkdirs(root, S_IRWXU);
        if (st)
            return open_failed(diags, root, "cannot create", st);
    }
    int rfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rfd < 0)
        return open_failed(diags, root, "cannot open",
                           nfy_status_from_errno(errno));
    char buf[PATH_MAX];
    struct stat st, named;
    nfy_status rc =
        fstat(rfd, &st) == 0 ? NFY_OK : nfy_status_from_errno(errno);
    if (!rc && (!realpath(root, buf) || stat(buf, &named) != 0 ||
                named.st_dev != st.st_dev || named.st_ino != st.st_ino))
        rc = open_failed(diags, root, "cannot resolve", NFY_ENOENT);
    if (!rc)
        rc = nfy__runcache_check_owned(&st, root, diags);
    if (!rc)
        rc = check_parents(buf, diags);
    if (rc) {
        close(rfd);
        return rc;
    }
    *real = nfy_arena_strdup(a, buf);
    *fd = rfd;
    return NFY_OK;
}
