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
 */
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

nfy_status nfy_file_read(const char *path, size_t max, nfy_buf *out)
{
    struct stat st;
    int fd = open_regular(path, &st);
    if (fd < 0)
        return nfy_status_from_errno(errno);
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

nfy_status nfy_file_head(const char *path, char *buf, size_t cap, size_t *got)
{
    struct stat st;
    *got = 0;
    int fd = open_regular(path, &st);
    if (fd < 0)
        return nfy_status_from_errno(errno);
    nfy_status rc = NFY_OK;
    while (*got < cap) {
        ssize_t n = read(fd, buf + *got, cap - *got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? nfy_status_from_errno(errno) : NFY_OK;
            break;
        }
        *got += (size_t)n;
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

/*
 * Six characters of mkstemp's alphabet. The first try mixes the clock and
 * the pid (no system call); after a collision the kernel's randomness is
 * used. A guessed name only costs a retry: the file is created with O_EXCL.
 */
static void random_suffix(char *dst, int attempt)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "abcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)dst;
    if (attempt > 0 && getrandom(&x, sizeof x, GRND_NONBLOCK) != sizeof x)
        x += (uint64_t)attempt * 0x9E3779B97F4A7C15u;
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

/* Fill a fresh temporary (from data, or streamed from in), then rename it
 * over dirfd/name. Nothing is left behind on failure. */
static nfy_status finish_temp(int dirfd, const char *name, int in,
                              const void *data, size_t len,
                              const struct stat *like, nfy_write_opts *w)
{
    nfy_file_stream fs;
    nfy_status rc = stream_start(&fs, dirfd, name, *w);
    if (rc)
        return rc;
    if (in < 0) {
        rc = write_all(fs.fd, data, len);
    } else {
        char block[65536];
        for (;;) {
            ssize_t n = read(in, block, sizeof block);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                rc = n < 0 ? nfy_status_from_errno(errno) : NFY_OK;
                break;
            }
            rc = write_all(fs.fd, block, (size_t)n);
            if (rc)
                break;
        }
    }
    rc = stream_finish(&fs, like, rc);
    *w = fs.w;
    return rc;
}

nfy_status nfy_file_write_at(int dirfd, const char *name, const void *data,
                             size_t len, nfy_write_opts *w)
{
    return finish_temp(dirfd, name, -1, data, len, NULL, w);
}

nfy_status nfy_file_copy_at(const char *src, int dirfd, const char *name,
                            nfy_write_opts *w)
{
    struct stat st;
    int in = open_regular(src, &st);
    if (in < 0)
        return nfy_status_from_errno(errno);
    nfy_status rc = finish_temp(dirfd, name, in, NULL, 0, &st, w);
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

nfy_status nfy_file_copy_atomic(const char *src, const char *dst)
{
    int fd;
    const char *base;
    nfy_status rc = nfy_dir_open_parent(dst, &fd, &base);
    if (rc)
        return rc;
    nfy_write_opts w = {.mode = 0644};
    rc = nfy_file_copy_at(src, fd, base, &w);
    close(fd);
    return rc;
}

nfy_status nfy_symlink_copy(const char *src, const char *dst)
{
    int fd;
    const char *base;
    nfy_status rc = nfy_dir_open_parent(dst, &fd, &base);
    if (rc)
        return rc;
    rc = nfy_symlink_copy_at(src, fd, base);
    close(fd);
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
