/* Temporaries of killed builds: found by their free lock, removed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

/* A builder locks its temporary right after mkdtemp: one this old that
 * nobody holds is left over. */
enum { STALE_AFTER_S = 10 };

static bool is_stale(int rootfd, const char *name, time_t now, int *lockfd)
{
    struct stat st;
    if (fstatat(rootfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR(st.st_mode) || now - st.st_mtime < STALE_AFTER_S)
        return false;
    int fd =
        openat(rootfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd); /* a live builder holds it */
        return false;
    }
    *lockfd = fd;
    return true;
}

void nfy__runcache_remove_stale(int rootfd)
{
    nfy__rc_names names = {0};
    if (nfy__runcache_dir_names(rootfd, false, nfy__runcache_is_tmp_name,
                                &names)) {
        nfy__runcache_names_free(&names);
        return;
    }
    time_t now = time(NULL);
    for (size_t i = 0; i < names.len; i++) {
        int lockfd;
        if (is_stale(rootfd, names.items[i], now, &lockfd)) {
            (void)nfy__runcache_remove_at(rootfd, names.items[i]);
            close(lockfd);
        }
    }
    nfy__runcache_names_free(&names);
}
