/* Recursive removal of a directory the cache owns (never followed links). */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>

#include "runcache/runcache_internal.h"

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path) && errno != ENOENT ? -1 : 0;
}

nfy_status nfy__runcache_rmtree(const char *path)
{
    if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0)
        return NFY_OK;
    return errno == ENOENT ? NFY_OK : nfy_status_from_errno(errno);
}
