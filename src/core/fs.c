/*
 * Files: whole-file reads with a size cap, atomic writes (temporary file in
 * the same directory, fsync, rename) so no user file is ever half-written,
 * mkdir -p and path joining.
 *
 * Every write goes through a directory descriptor: the *_at functions
 * create a temporary with a short fixed-length name (".npuify-XXXXXX", so
 * the name of the file written can never make the temporary's too long)
 * next to the target and rename it over the target. nfy_dir_open_beneath
 * reaches a directory below a root without following any symbolic link,
 * so a writer never writes through a link planted in its output.
 *
 * A file that is expected to be new (NFY_WRITE_NEW, a fresh output tree)
 * is written unnamed (O_TMPFILE) and linked under its name once complete:
 * a crash or SIGKILL leaves it complete or absent and never a temporary;
 * where the name is taken it is replaced by a rename as above, and where
 * the file system cannot do it the temporary is used.
 */
/* O_TMPFILE, copy_file_range and linkat's AT_EMPTY_PATH are GNU names. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/htab.h"

static const char temp_prefix[] = ".npuify-";
enum { TEMP_PREFIX_LEN = sizeof temp_prefix - 1, TEMP_RANDOM_LEN = 6 };

/* mkstemp's alphabet, so names made by earlier versions match too. */
static bool is_temp_char(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
           (ch >= '0' && ch <= '9');
}

bool nfy_is_temp_name(const char *name)
{
    size_t n = strlen(name);
    if (n < TEMP_PREFIX_LEN + TEMP_RANDOM_LEN || name[0] != '.')
        return false;
    const char *tail = name + n - TEMP_RANDOM_LEN;
    if (memcmp(tail - TEMP_PREFIX_LEN, temp_prefix, TEMP_PREFIX_LEN))
        return false;
    for (int i = 0; i < TEMP_RANDOM_LEN; i++)
        if (!is_temp_char(tail[i]))
            return false;
    return true;
}

/* Open the regular file path for reading; a FIFO or device is refused
 * before a single byte is read (O_NONBLOCK: opening a FIFO cannot hang). */
static int open_regular(const char *path, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    bool ok = fstat(fd, st) == 0;
    if (!ok || !S_ISREG(st->st_mode)) {
        int err = !ok ? errno : S_ISDIR(st->st_mode) ? EISDIR : ENODEV;
        close(fd);
        errno = err;
        return -1;
    }
    return fd; /* O_NONBLOCK changes nothing for a regular file */
}

nfy_status nfy_file_open_read(const char *path, int *fd, struct stat *st)
{
    *fd = open_regular(path, st);
    return *fd < 0 ? nfy_status_from_errno(errno) : NFY_OK;
}

/* Read until the end: size is what fstat said (-1: unknown). The first
 * read asks for one byte more than that; a read that stops short exactly
 * at size is the end (a regular file's read is short only there), so a
 * whole file costs one read, not a second one that returns 0. A file that
 * grew is read on to its new end. */
static nfy_status read_to_end(int fd, off_t size, size_t max, nfy_buf *out)
{
    size_t start = out->len;
    size_t want = 65536;
    if (size >= 0 && max < SIZE_MAX)
        want = ((uintmax_t)size < max ? (size_t)size : max) + 1;
    for (;;) {
        if (nfy_buf_reserve(out, want))
            return out->status;
        ssize_t n = read(fd, out->data + out->len, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return nfy_status_from_errno(errno);
        if (n == 0)
            return NFY_OK;
        out->len += (size_t)n;
        out->data[out->len] = '\0';
        if (out->len - start > max)
            return NFY_ELIMIT;
        if ((size_t)n < want && size >= 0 && out->len - start == (size_t)size)
            return NFY_OK;
        want = 65536;
    }
}

nfy_status nfy_file_read_sized(int fd, off_t size, size_t max, nfy_buf *out)
{
    return read_to_end(fd, size, max, out);
}

nfy_status nfy_file_read(const char *path, size_t max, nfy_buf *out)
{
    int fd;
    struct stat st;
    nfy_status rc = nfy_file_open_read(path, &fd, &st);
    if (rc)
        return rc;
    rc = read_to_end(fd, st.st_size, max, out);
    close(fd);
    return rc;
}

nfy_status nfy_file_head_fd(int fd, char *buf, size_t cap, size_t *got)
{
    *got = 0;
    while (*got < cap) {
        ssize_t n = pread(fd, buf + *got, cap - *got, (off_t)*got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? nfy_status_from_errno(errno) : NFY_OK;
        *got += (size_t)n;
    }
    return NFY_OK;
}

nfy_status nfy_file_head(const char *path, char *buf, size_t cap, size_t *got)
{
    int fd;
    struct stat st;
    *got = 0;
    nfy_status rc = nfy_file_open_read(path, &fd, &st);
    if (rc)
        return rc;
    rc = nfy_file_head_fd(fd, buf, cap, got);
    close(fd);
    return rc;
}

/* The process's umask, read without changing it (Linux 4.7+). */
bool nfy_umask_get(mode_t *out)
{
    char text[1024];
    size_t got;
    if (nfy_file_head("/proc/self/status", text, sizeof text - 1, &got))
        return false;
    text[got] = '\0';
    const char *p = strstr(text, "\nUmask:");
    if (!p)
        return false;
    char *end;
    unsigned long v = strtoul(p + 7, &end, 8);
    if (end == p + 7 || v > 0777)
        return false;
    *out = (mode_t)v;
    return true;
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

/*
 * Six characters of mkstemp's alphabet. The first try mixes the clock and
 * an address (which ASLR makes differ between processes): no system call;
 * after a collision the kernel's randomness is used. A guessed name only
 * costs a retry: the file is created with O_EXCL.
 */
static void random_suffix(char *dst, int attempt)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "abcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)(uintptr_t)dst << 16);
    if (attempt > 0 && getrandom(&x, sizeof x, GRND_NONBLOCK) != sizeof x)
        x += (uint64_t)attempt * NFY_HASH_GOLDEN;
    for (int i = 0; i < TEMP_RANDOM_LEN; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        dst[i] = alphabet[(x >> 33) % (sizeof alphabet - 1)];
    }
    dst[TEMP_RANDOM_LEN] = '\0';
}

enum { TEMP_NAME_SIZE = TEMP_PREFIX_LEN + TEMP_RANDOM_LEN + 1 };

/* A new temporary in dirfd: an empty file, or a link to target. */
static int temp_create_at(int dirfd, char name[TEMP_NAME_SIZE],
                          const char *link_target)
{
    for (int tries = 0; tries < 64; tries++) {
        memcpy(name, temp_prefix, TEMP_PREFIX_LEN);
        random_suffix(name + TEMP_PREFIX_LEN, tries);
        if (link_target) {
            if (symlinkat(link_target, dirfd, name) == 0)
                return 0;
        } else {
            int fd = openat(
                dirfd, name,
                O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
            if (fd >= 0)
                return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

/* Owner and mode the new file takes over: from like, else from what it
 * replaces; a new file gets w->mode and the writer as owner. */
static void settle_attrs(int fd, int dirfd, const char *name,
                         const struct stat *like, nfy_write_opts *w)
{
    struct stat old;
    if (!like && fstatat(dirfd, name, &old, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(old.st_mode))
        like = &old;
    mode_t mode = like ? like->st_mode & 07777 : w->mode;
    if (like && (w->flags & NFY_WRITE_KEEP_OWNER)) {
        struct stat now;
        if (fstat(fd, &now) == 0 &&
            (now.st_uid != like->st_uid || now.st_gid != like->st_gid) &&
            fchown(fd, like->st_uid, like->st_gid) != 0) {
            w->owner_lost = true;
            w->owner_errno = errno;
            /* Set-id bits must not pass to another owner. */
            mode &= 0777;
        }
    }
    if (fchmod(fd, mode) != 0)
        w->mode_lost = true;
}

static nfy_status stream_start(nfy_file_stream *fs, int dirfd, const char *name,
                               nfy_write_opts w)
{
    _Static_assert(sizeof fs->tmp >= TEMP_NAME_SIZE, "temporary name room");
    fs->dirfd = dirfd;
    fs->name = name;
    fs->w = w;
    fs->fd = temp_create_at(dirfd, fs->tmp, NULL);
    return fs->fd < 0 ? nfy_status_from_errno(errno) : NFY_OK;
}

nfy_status nfy_file_stream_write(nfy_file_stream *fs, const void *data,
                                 size_t len)
{
    return write_all(fs->fd, data, len);
}

/* Give the temporary its attributes, flush it and rename it over the
 * target; on failure remove it. */
static nfy_status stream_finish(nfy_file_stream *fs, const struct stat *like,
                                nfy_status rc)
{
    if (!rc)
        settle_attrs(fs->fd, fs->dirfd, fs->name, like, &fs->w);
    if (!rc && (fs->w.flags & NFY_WRITE_SYNC) && fsync(fs->fd) != 0)
        rc = nfy_status_from_errno(errno);
    if (close(fs->fd) != 0 && !rc)
        rc = nfy_status_from_errno(errno);
    fs->fd = -1;
    if (!rc && renameat(fs->dirfd, fs->tmp, fs->dirfd, fs->name) != 0)
        rc = nfy_status_from_errno(errno);
    if (rc)
        unlinkat(fs->dirfd, fs->tmp, 0);
    return rc;
}

/* in's bytes from offset off on, through a buffer (in's own offset is
 * not used, so the copy can be tried again from 0). size as in copy_fd:
 * a short read that ends there is the end. */
static nfy_status copy_by_buffer(int in, off_t off, off_t size, int out)
{
    char block[65536];
    for (;;) {
        ssize_t n = pread(in, block, sizeof block, off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? nfy_status_from_errno(errno) : NFY_OK;
        off += n;
        nfy_status rc = write_all(out, block, (size_t)n);
        if (rc || ((size_t)n < sizeof block && off == size))
            return rc;
    }
}

/* copy_file_range cannot copy between these two files (another file
 * system, an old kernel, a filter): the buffer copy can. */
static bool copy_range_refused(int err)
{
    return err == EXDEV || err == EINVAL || err == ENOSYS ||
           err == EOPNOTSUPP || err == EBADF || err == EPERM;
}

/* All of in (from offset 0) appended to out: in the kernel (a reflink or
 * an in-kernel copy, no bytes through user space) where it can be. size
 * is what fstat said (-1: unknown); a copy that stops short exactly there
 * is the end, as in read_to_end, so no last call that copies nothing. */
static nfy_status copy_fd(int in, off_t size, int out)
{
    off_t off = 0;
    for (;;) {
        size_t want = size > off ? (size_t)(size - off) + 1 : 1u << 30;
        ssize_t n = copy_file_range(in, &off, out, NULL, want, 0);
        if (n > 0 && (size_t)n < want && off == size)
            return NFY_OK;
        if (n > 0)
            continue;
        if (n == 0 && off > 0)
            return NFY_OK;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && !copy_range_refused(errno))
            return nfy_status_from_errno(errno);
        /* Refused, or nothing at offset 0: an empty file, or one whose
         * size says nothing (procfs); the buffer copy tells them apart. */
        return copy_by_buffer(in, off, size, out);
    }
}

/* The size fstat gave for the copied file, or -1. */
static off_t known_size(const struct stat *like)
{
    return like && S_ISREG(like->st_mode) ? like->st_size : -1;
}

/* Fill a fresh temporary (from data, or copied from in), then rename it
 * over dirfd/name. Nothing is left behind on failure. */
static nfy_status finish_temp(int dirfd, const char *name, int in,
                              const void *data, size_t len,
                              const struct stat *like, nfy_write_opts *w)
{
    nfy_file_stream fs;
    nfy_status rc = stream_start(&fs, dirfd, name, *w);
    if (rc)
        return rc;
    rc = in < 0 ? write_all(fs.fd, data, len)
                : copy_fd(in, known_size(like), fs.fd);
    rc = stream_finish(&fs, like, rc);
    *w = fs.w;
    return rc;
}

/* Link the unnamed (O_TMPFILE) file fd as dirfd/name: by the descriptor
 * itself (root, or any user on Linux 6.10+: no path lookup), else through
 * /proc, which any user may. */
static int link_unnamed(int fd, int dirfd, const char *name)
{
    if (linkat(fd, "", dirfd, name, AT_EMPTY_PATH) == 0)
        return 0;
    if (errno != ENOENT)
        return -1;
    char proc[32];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW);
}

/* The name is taken (a file of an earlier run, a planted link): the file
 * takes over what it replaces (as a temporary would) and is linked under
 * a temporary name that is renamed over name. */
static nfy_status replace_by_unnamed(int fd, int dirfd, const char *name,
                                     const struct stat *like, nfy_write_opts *w)
{
    settle_attrs(fd, dirfd, name, like, w);
    char tmp[TEMP_NAME_SIZE];
    for (int tries = 0; tries < 64; tries++) {
        memcpy(tmp, temp_prefix, TEMP_PREFIX_LEN);
        random_suffix(tmp + TEMP_PREFIX_LEN, tries);
        if (link_unnamed(fd, dirfd, tmp) != 0) {
            if (errno == EEXIST)
                continue;
            return nfy_status_from_errno(errno);
        }
        if (renameat(dirfd, tmp, dirfd, name) == 0)
            return NFY_OK;
        nfy_status rc = nfy_status_from_errno(errno);
        unlinkat(dirfd, tmp, 0);
        return rc;
    }
    return NFY_EEXIST;
}

/* Errors that say this file system (or kernel) has no unnamed files or
 * cannot link them: the temporary does the job instead. */
static bool unnamed_refused(int err)
{
    return err == EOPNOTSUPP || err == EISDIR || err == EINVAL;
}

static bool link_refused(int err)
{
    return err == ENOENT || err == EPERM || err == EOPNOTSUPP || err == EINVAL;
}

/* Finish the filled unnamed file fd: its mode, a flush, its name. Returns
 * false (nothing linked) where it cannot be linked here. */
static bool link_new(int fd, int dirfd, const char *name, mode_t mode,
                     const struct stat *like, nfy_write_opts *w, nfy_status *rc)
{
    if (!(w->flags & NFY_WRITE_MODE_AT_OPEN) && fchmod(fd, mode) != 0)
        w->mode_lost = true;
    if ((w->flags & NFY_WRITE_SYNC) && fsync(fd) != 0) {
        *rc = nfy_status_from_errno(errno);
        return true;
    }
    if (link_unnamed(fd, dirfd, name) == 0)
        return true;
    if (errno == EEXIST) {
        *rc = replace_by_unnamed(fd, dirfd, name, like, w);
        return true;
    }
    if (link_refused(errno))
        return false;
    *rc = nfy_status_from_errno(errno);
    return true;
}

/*
 * NFY_WRITE_NEW: the file is filled unnamed and appears under its name
 * only once complete; nothing of it is left if the process dies first.
 * False where the file system cannot (the caller then uses a temporary);
 * else true with the outcome in *rc.
 */
static bool write_new(int dirfd, const char *name, int in, const void *data,
                      size_t len, const struct stat *like, nfy_write_opts *w,
                      nfy_status *rc)
{
    mode_t mode = like ? like->st_mode & 07777 : w->mode;
    if (mode != w->mode)
        w->flags &= ~(unsigned)NFY_WRITE_MODE_AT_OPEN;
    bool at_open = w->flags & NFY_WRITE_MODE_AT_OPEN;
    int fd = openat(dirfd, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC,
                    at_open ? mode : 0600);
    if (fd < 0) {
        *rc = nfy_status_from_errno(errno);
        return !unnamed_refused(errno);
    }
    *rc = in < 0 ? write_all(fd, data, len) : copy_fd(in, known_size(like), fd);
    bool done = *rc || link_new(fd, dirfd, name, mode, like, w, rc);
    if (close(fd) != 0 && done && !*rc) {
        /* The data may not all have reached the file: take it back. */
        *rc = nfy_status_from_errno(errno);
        unlinkat(dirfd, name, 0);
    }
    return done;
}

static nfy_status write_file(int dirfd, const char *name, int in,
                             const void *data, size_t len,
                             const struct stat *like, nfy_write_opts *w)
{
    nfy_status rc;
    if ((w->flags & NFY_WRITE_NEW) &&
        write_new(dirfd, name, in, data, len, like, w, &rc))
        return rc;
    return finish_temp(dirfd, name, in, data, len, like, w);
}

nfy_status nfy_file_write_at(int dirfd, const char *name, const void *data,
                             size_t len, nfy_write_opts *w)
{
    return write_file(dirfd, name, -1, data, len, NULL, w);
}

nfy_status nfy_file_copy_fd_at(int in, const struct stat *st, int dirfd,
                               const char *name, nfy_write_opts *w)
{
    return write_file(dirfd, name, in, NULL, 0, st, w);
}

nfy_status nfy_file_copy_at(const char *src, int dirfd, const char *name,
                            nfy_write_opts *w)
{
    struct stat st;
    int in = open_regular(src, &st);
    if (in < 0)
        return nfy_status_from_errno(errno);
    nfy_status rc = nfy_file_copy_fd_at(in, &st, dirfd, name, w);
    close(in);
    return rc;
}

nfy_status nfy_symlink_copy_at(const char *src, int dirfd, const char *name)
{
    char target[4096];
    ssize_t n = readlink(src, target, sizeof target - 1);
    if (n < 0)
        return nfy_status_from_errno(errno);
    target[n] = '\0';
    char tmp[TEMP_NAME_SIZE];
    if (temp_create_at(dirfd, tmp, target) != 0)
        return nfy_status_from_errno(errno);
    if (renameat(dirfd, tmp, dirfd, name) != 0) {
        nfy_status rc = nfy_status_from_errno(errno);
        unlinkat(dirfd, tmp, 0);
        return rc;
    }
    return NFY_OK;
}

nfy_status nfy_mkdir_at(int dirfd, const char *name, mode_t mode)
{
    if (mkdirat(dirfd, name, mode) == 0)
        return NFY_OK;
    if (errno != EEXIST)
        return nfy_status_from_errno(errno);
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return nfy_status_from_errno(errno);
    if (S_ISLNK(st.st_mode))
        return NFY_ESYMLINK;
    return S_ISDIR(st.st_mode) ? NFY_OK : NFY_ENOTDIR;
}

/* Open dirfd/part as a directory, never through a symbolic link. */
static nfy_status open_dir_step(int dirfd, const char *part, int *out)
{
    *out = openat(dirfd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (*out >= 0)
        return NFY_OK;
    int err = errno;
    struct stat st;
    if (fstatat(dirfd, part, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(st.st_mode))
        return NFY_ESYMLINK;
    return nfy_status_from_errno(err);
}

/* The component walk: each part opened with O_NOFOLLOW from the last. */
static nfy_status open_by_parts(int rootfd, const char *rel, int *out)
{
    int fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return nfy_status_from_errno(errno);
    for (const char *p = rel; *p;) {
        size_t n = strcspn(p, "/");
        char part[NAME_MAX + 1];
        if (n > NAME_MAX) {
            close(fd);
            return NFY_ENAMETOOLONG;
        }
        memcpy(part, p, n);
        part[n] = '\0';
        int next = fd;
        nfy_status rc = n ? open_dir_step(fd, part, &next) : NFY_OK;
        if (n)
            close(fd);
        if (rc)
            return rc;
        fd = next;
        p += n + strspn(p + n, "/");
    }
    *out = fd;
    return NFY_OK;
}

nfy_status nfy_dir_open_beneath_fd(int rootfd, const char *rel, int *out)
{
#ifdef SYS_openat2
    /* One call for the whole path where the kernel has openat2 (5.6+). */
    struct open_how how = {.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
                           .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH |
                                      RESOLVE_NO_MAGICLINKS};
    long fd = syscall(SYS_openat2, rootfd, *rel ? rel : ".", &how, sizeof how);
    if (fd >= 0) {
        *out = (int)fd;
        return NFY_OK;
    }
    /* Not there (old kernel, seccomp): the walk below; else its answer. */
    if (errno != ENOSYS && errno != EPERM && errno != EINVAL && errno != E2BIG)
        return errno == ELOOP ? NFY_ESYMLINK : nfy_status_from_errno(errno);
#endif
    return open_by_parts(rootfd, rel, out);
}

nfy_status nfy_dir_open_beneath(const char *root, const char *rel, int *out)
{
    int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rootfd < 0)
        return nfy_status_from_errno(errno);
    nfy_status rc = nfy_dir_open_beneath_fd(rootfd, rel, out);
    close(rootfd);
    return rc;
}

/* The directory part of path ("." or "/" when it has none) and its base. */
nfy_status nfy_dir_open_parent(const char *path, int *fd, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!**base)
        return NFY_EISDIR;
    char dir[PATH_MAX];
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n >= sizeof dir)
        return NFY_ENAMETOOLONG;
    if (slash && n == 0)
        n = 1; /* "/name" */
    memcpy(dir, slash ? path : ".", slash ? n : 1);
    dir[slash ? n : 1] = '\0';
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return *fd < 0 ? nfy_status_from_errno(errno) : NFY_OK;
}

nfy_status nfy_file_write_atomic(const char *path, const void *data, size_t len,
                                 mode_t mode)
{
    return nfy_file_write_atomic_flags(path, data, len, mode, NFY_WRITE_SYNC);
}

nfy_status nfy_file_write_atomic_flags(const char *path, const void *data,
                                       size_t len, mode_t mode, unsigned flags)
{
    int fd;
    const char *base;
    nfy_status rc = nfy_dir_open_parent(path, &fd, &base);
    if (rc)
        return rc;
    nfy_write_opts w = {.mode = mode, .flags = flags};
    rc = nfy_file_write_at(fd, base, data, len, &w);
    close(fd);
    return rc;
}

nfy_status nfy_file_stream_open(nfy_file_stream *fs, const char *path,
                                nfy_write_opts w)
{
    int dirfd;
    const char *base;
    nfy_status rc = nfy_dir_open_parent(path, &dirfd, &base);
    if (rc)
        return rc;
    rc = stream_start(fs, dirfd, base, w);
    if (rc)
        close(dirfd);
    return rc;
}

nfy_status nfy_file_stream_commit(nfy_file_stream *fs)
{
    nfy_status rc = stream_finish(fs, NULL, NFY_OK);
    close(fs->dirfd);
    return rc;
}

void nfy_file_stream_abort(nfy_file_stream *fs)
{
    (void)stream_finish(fs, NULL, NFY_EIO); /* any error: remove it */
    close(fs->dirfd);
}

/* fn(src, dirfd, base) in dst's parent directory, base being dst's name. */
static nfy_status in_parent_of(const char *dst, const char *src,
                               nfy_status (*fn)(const char *, int,
                                                const char *))
{
    int fd;
    const char *base;
    nfy_status rc = nfy_dir_open_parent(dst, &fd, &base);
    if (rc)
        return rc;
    rc = fn(src, fd, base);
    close(fd);
    return rc;
}

static nfy_status copy_0644_at(const char *src, int dirfd, const char *base)
{
    nfy_write_opts w = {.mode = 0644};
    return nfy_file_copy_at(src, dirfd, base, &w);
}

nfy_status nfy_file_copy_atomic(const char *src, const char *dst)
{
    return in_parent_of(dst, src, copy_0644_at);
}

nfy_status nfy_symlink_copy(const char *src, const char *dst)
{
    return in_parent_of(dst, src, nfy_symlink_copy_at);
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
    if (!rc && stat(path, &st) != 0)
        rc = nfy_status_from_errno(errno);
    else if (!rc && !S_ISDIR(st.st_mode))
        rc = NFY_ENOTDIR;
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
