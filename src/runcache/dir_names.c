/* The names in a directory opened by descriptor, read whole first (what
 * the cache does to a directory while reading it is not defined by
 * POSIX). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

nfy_status nfy__runcache_dir_names(int dirfd, bool sorted,
                                   bool (*keep)(const char *name),
                                   nfy__rc_names *out)
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
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            (keep && !keep(e->d_name)))
            continue;
        char *copy = strdup(e->d_name);
        if (!copy) {
            closedir(d);
            return NFY_ENOMEM;
        }
        nfy_vec_push(out, copy);
    }
    closedir(d);
    if (sorted && out->len)
        qsort(out->items, out->len, sizeof *out->items, by_name);
    return NFY_OK;
}

void nfy__runcache_names_free(nfy__rc_names *names)
{
    for (size_t i = 0; i < names->len; i++)
        free(names->items[i]);
    nfy_vec_free(names);
}
