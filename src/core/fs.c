/*
 * Files: whole-file reads with a size cap, atomic writes (temporary file in
 * the same directory, fsync, rename) so no user file is ever half-written,
 * mkdir -p and path joining.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npuify/core.h"

nfy_status nfy_file_read(const char *path, size_t max, nfy_buf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return nfy_status_from_errno(errno);
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return NFY_EIO;
    }
    nfy_status rc = NFY_OK;
    size_t start = out->len;
    for (;;) {
        if (nfy_buf_reserve(out, 65536)) {
            rc = out->status;
            break;
        }
        ssize_t n = read(fd, out->data + out->len, 65536);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = nfy_status_from_errno(errno);
            break;
        }
        if (n == 0)
            break;
        out->len += (size_t)n;
        out->data[out->len] = '\0';
        if (out->len - start > max) {
            rc = NFY_ELIMIT;
            break;
        }
    }
    close(fd);
    return rc;
}

static nfy_status write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return nfy_status_from_errno(errno);
        p += n;
        len -= (size_t)n;
    }
    return NFY_OK;
}

/* Template "DIR/.BASE.npuify-XXXXXX" next to path, heap allocated. */
static char *temp_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    size_t n = dirlen + strlen(base) + 32;
    char *t = malloc(n);
    if (!t)
        return NULL;
    snprintf(t, n, "%.*s.%s.npuify-XXXXXX", (int)dirlen, path, base);
    return t;
}

nfy_status nfy_file_write_atomic(const char *path, const void *data, size_t len,
                                 mode_t mode)
{
    return nfy_file_write_atomic_flags(path, data, len, mode, NFY_WRITE_SYNC);
}

nfy_status nfy_file_write_atomic_flags(const char *path, const void *data,
                                       size_t len, mode_t mode, unsigned flags)
{
    struct stat st;
    if (stat(path, &st) == 0)
        mode = st.st_mode & 07777;
    char *tmp = temp_template(path);
    if (!tmp)
        return NFY_ENOMEM;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        nfy_status rc = nfy_status_from_errno(errno);
        free(tmp);
        return rc;
    }
    nfy_status rc = write_all(fd, data, len);
    if (!rc && fchmod(fd, mode) != 0)
        rc = nfy_status_from_errno(errno);
    if (!rc && (flags & NFY_WRITE_SYNC) && fsync(fd) != 0)
        rc = nfy_status_from_errno(errno);
    if (close(fd) != 0 && !rc)
        rc = nfy_status_from_errno(errno);
    if (!rc && rename(tmp, path) != 0)
        rc = nfy_status_from_errno(errno);
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

nfy_status nfy_mkdirs(const char *path, mode_t mode)
{
    size_t n = strlen(path);
    char *p = malloc(n + 1);
    if (!p)
        return NFY_ENOMEM;
    memcpy(p, path, n + 1);
    nfy_status rc = NFY_OK;
    for (size_t i = 1; i <= n && !rc; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char saved = p[i];
        p[i] = '\0';
        if (mkdir(p, mode) != 0 && errno != EEXIST)
            rc = nfy_status_from_errno(errno);
        p[i] = saved;
    }
    struct stat st;
    if (!rc && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)))
        rc = NFY_EIO;
    free(p);
    return rc;
}

char *nfy_path_join(nfy_arena *a, const char *dir, const char *name)
{
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    if (!*name)
        return nfy_arena_strndup(a, dir, dl);
    if (!dl)
        return nfy_arena_strndup(a, name, strlen(name));
    return nfy_arena_fmt(a, "%.*s/%s", (int)dl, dir, name);
}

static nfy_status copy_fd(int in, int out)
{
    char block[65536];
    for (;;) {
        ssize_t n = read(in, block, sizeof block);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return nfy_status_from_errno(errno);
        if (n == 0)
            return NFY_OK;
        nfy_status rc = write_all(out, block, (size_t)n);
        if (rc)
            return rc;
    }
}

nfy_status nfy_file_copy_atomic(const char *src, const char *dst)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return nfy_status_from_errno(errno);
    struct stat st;
    if (fstat(in, &st) != 0) {
        close(in);
        return NFY_EIO;
    }
    char *tmp = temp_template(dst);
    int out = tmp ? mkstemp(tmp) : -1;
    if (out < 0) {
        nfy_status rc = tmp ? nfy_status_from_errno(errno) : NFY_ENOMEM;
        free(tmp);
        close(in);
        return rc;
    }
    nfy_status rc = copy_fd(in, out);
    close(in);
    if (!rc && fchmod(out, st.st_mode & 07777) != 0)
        rc = nfy_status_from_errno(errno);
    if (close(out) != 0 && !rc)
        rc = nfy_status_from_errno(errno);
    if (!rc && rename(tmp, dst) != 0)
        rc = nfy_status_from_errno(errno);
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

nfy_status nfy_symlink_copy(const char *src, const char *dst)
{
    char target[4096];
    ssize_t n = readlink(src, target, sizeof target - 1);
    if (n < 0)
        return nfy_status_from_errno(errno);
    target[n] = '\0';
    char *tmp = temp_template(dst);
    if (!tmp)
        return NFY_ENOMEM;
    /* mkstemp gives a unique name; replace the file by the link. */
    int fd = mkstemp(tmp);
    nfy_status rc = fd < 0 ? nfy_status_from_errno(errno) : NFY_OK;
    if (fd >= 0)
        close(fd);
    if (!rc && (unlink(tmp) != 0 || symlink(target, tmp) != 0))
        rc = nfy_status_from_errno(errno);
    if (!rc && rename(tmp, dst) != 0) {
        rc = nfy_status_from_errno(errno);
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

bool nfy_dir_nonempty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    bool any = false;
    struct dirent *de;
    while (!any && (de = readdir(d)) != NULL)
        any = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(d);
    return any;
}
