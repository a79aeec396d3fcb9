/* A private copy of the project, taken before converting it, so the
 * cache key is over exactly the bytes converted. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

typedef struct {
    const char *dst;
    nfy_diags *diags;
    nfy_status st;
} snap_walk;

static const char *special_kind(mode_t mode)
{
    return S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" : "a device";
}

static nfy_status copy_file(const nfy_walk_entry *e, const char *to)
{
    int in, dirfd;
    struct stat st;
    const char *base;
    nfy_status rc = nfy_file_open_read(e->path, &in, &st);
    if (rc)
        return rc;
    rc = nfy_dir_open_parent(to, &dirfd, &base);
    if (!rc) {
        nfy_write_opts w = {.mode = st.st_mode & 0777, .flags = NFY_WRITE_NEW};
        rc = nfy_file_copy_fd_at(in, &st, dirfd, base, &w);
        close(dirfd);
    }
    close(in);
    return rc;
}

static nfy_status copy_entry(snap_walk *w, const nfy_walk_entry *e,
                             nfy_arena *a)
{
    const char *to = *e->rel ? nfy_path_join(a, w->dst, e->rel) : w->dst;
    switch (e->kind) {
    case NFY_WALK_DIR:
        if (!*e->rel)
            return NFY_OK;
        return mkdir(to, S_IRWXU) == 0 ? NFY_OK : nfy_status_from_errno(errno);
    case NFY_WALK_FILE:
        return copy_file(e, to);
    case NFY_WALK_SYMLINK:
        return nfy_symlink_copy(e->path, to);
    case NFY_WALK_SPECIAL:
        nfy_diag_add_at(w->diags, NFY_SEV_WARNING, "cache-special", e->path, 0,
                        0,
                        "%s, not a regular file: never opened, left out of "
                        "the run cache",
                        special_kind(e->mode));
        return NFY_OK;
    case NFY_WALK_ERROR:
        return nfy_status_from_errno(e->err);
    }
    return NFY_OK;
}

static int on_entry(void *ctx, const nfy_walk_entry *e)
{
    snap_walk *w = ctx;
    nfy_arena a = NFY_ARENA_INIT;
    nfy_status st = copy_entry(w, e, &a);
    nfy_arena_release(&a);
    if (!st)
        return 0;
    nfy_diag_add_at(w->diags, NFY_SEV_ERROR, "cache-read", e->path, 0, 0,
                    "cannot copy into the run cache: %s", nfy_status_str(st));
    w->st = st;
    return 1;
}

nfy_status nfy__runcache_snapshot(const char *project, const char *skip,
                                  const char *dst, nfy_diags *diags)
{
    if (mkdir(dst, S_IRWXU) != 0)
        return nfy_status_from_errno(errno);
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names, skip};
    snap_walk w = {dst, diags, NFY_OK};
    nfy_status st = nfy_walk(project, &wo, on_entry, &w, diags);
    return w.st ? w.st : st;
}
