/* Removal inside the cache by directory descriptor: no link is followed,
 * so nothing outside what is removed can be reached. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

/* A tree deeper than this is not one the cache made. */
enum { MAX_DEPTH = 512 };

static nfy_status remove_at(int dirfd, const char *name, int depth);

static nfy_status rm_contents(int dirfd, int depth)
{
    if (depth > MAX_DEPTH)
        return NFY_ELIMIT;
    /* ours, but maybe copied read-only from the project */
    (void)fchmod(dirfd, S_IRWXU);
    nfy__rc_names names = {0};
    nfy_status st = nfy__runcache_dir_names(dirfd, false, NULL, &names);
    for (size_t i = 0; !st && i < names.len; i++)
        st = remove_at(dirfd, names.items[i], depth + 1);
    nfy__runcache_names_free(&names);
    return st;
}

static nfy_status remove_at(int dirfd, const char *name, int depth)
{
    if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
        return NFY_OK;
    if (errno != EISDIR && errno != EPERM)
        return nfy_status_from_errno(errno);
    int fd =
        openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? NFY_OK : nfy_status_from_errno(errno);
    nfy_status st = rm_contents(fd, depth);
    close(fd);
    if (!st && unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
        st = nfy_status_from_errno(errno);
    return st;
}

nfy_status nfy__runcache_remove_at(int dirfd, const char *name)
{
    return remove_at(dirfd, name, 0);
}

nfy_status nfy__runcache_rm_contents(int dirfd)
{
    return rm_contents(dirfd, 0);
}

bool nfy__runcache_is_tmp_name(const char *name)
{
    size_t n = sizeof NFY__RC_TMP_PREFIX - 1;
    if (strncmp(name, NFY__RC_TMP_PREFIX, n) || strlen(name) != n + 6)
        return false;
    for (const char *p = name + n; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return false;
    return true;
}
