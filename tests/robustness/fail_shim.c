/*
 * LD_PRELOAD shim for tests/check_robustness.sh: injects the file-system
 * failures a test cannot cause otherwise (a full disk where no tmpfs can
 * be mounted, a read-only file system, a file vanishing between the walk
 * and the read). Built by the suite; never part of npuify.
 * An npuify temporary is a file named ".npuify-*" or an unnamed one
 * (O_TMPFILE), which npuify links under its name once complete.
 *   NFY_SHIM_WRITE_ERRNO=N   write() or copy_file_range() into an npuify
 *                            temporary fails with N
 *   NFY_SHIM_CREATE_ERRNO=N  creating an npuify temporary fails with N
 *   NFY_SHIM_LINK_ERRNO=N    linkat() (naming an unnamed file) fails with N
 *   NFY_SHIM_NO_TMPFILE=1    O_TMPFILE fails with EOPNOTSUPP (a file system
 *                            without it)
 *   NFY_SHIM_NO_COPY_RANGE=1 copy_file_range fails with EXDEV (two file
 *                            systems)
 *   NFY_SHIM_VANISH=NAME     a file named NAME is deleted just before open
 *   NFY_SHIM_NO_OPENAT2=1    openat2 fails with ENOSYS (an older kernel)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

enum { MAX_FD = 4096 };
static unsigned char temp_fd[MAX_FD];

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int env_errno(const char *name)
{
    const char *v = getenv(name);
    return v ? (int)strtol(v, NULL, 10) : 0;
}

static void maybe_vanish(int dirfd, const char *path)
{
    const char *v = getenv("NFY_SHIM_VANISH");
    if (v && !strcmp(base_of(path), v))
        unlinkat(dirfd, path, 0);
}

static int is_tmpfile(int flags)
{
    return (flags & O_TMPFILE) == O_TMPFILE;
}

static int is_temp(const char *path, int flags)
{
    return is_tmpfile(flags) || !strncmp(base_of(path), ".npuify-", 8);
}

static int after_open(int fd, const char *path, int flags)
{
    if (fd >= 0 && fd < MAX_FD)
        temp_fd[fd] = is_temp(path, flags);
    return fd;
}

static int refuse_create(const char *path, int flags)
{
    int err = env_errno("NFY_SHIM_CREATE_ERRNO");
    if (is_tmpfile(flags) && getenv("NFY_SHIM_NO_TMPFILE"))
        err = EOPNOTSUPP;
    if (err && ((flags & O_CREAT) || is_tmpfile(flags)) && is_temp(path, flags)) {
        errno = err;
        return 1;
    }
    return 0;
}

/* open's mode argument is there with O_CREAT and with O_TMPFILE. */
static int has_mode(int flags)
{
    return (flags & O_CREAT) || is_tmpfile(flags);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    static int (*real)(int, const char *, int, ...);
    if (!real)
        real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
    va_list ap;
    va_start(ap, flags);
    mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    if (refuse_create(path, flags))
        return -1;
    maybe_vanish(dirfd, path);
    return after_open(real(dirfd, path, flags, mode), path, flags);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    return openat(dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    return openat(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    return openat(AT_FDCWD, path, flags, mode);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    int err = env_errno("NFY_SHIM_WRITE_ERRNO");
    if (err && fd >= 0 && fd < MAX_FD && temp_fd[fd]) {
        errno = err;
        return -1;
    }
    return real(fd, buf, n);
}

ssize_t copy_file_range(int in, off64_t *off_in, int out, off64_t *off_out,
                        size_t n, unsigned flags)
{
    static ssize_t (*real)(int, off64_t *, int, off64_t *, size_t, unsigned);
    if (!real)
        real = (ssize_t(*)(int, off64_t *, int, off64_t *, size_t,
                           unsigned))dlsym(RTLD_NEXT, "copy_file_range");
    int err = env_errno("NFY_SHIM_WRITE_ERRNO");
    if (getenv("NFY_SHIM_NO_COPY_RANGE"))
        err = EXDEV;
    else if (!(out >= 0 && out < MAX_FD && temp_fd[out]))
        err = 0;
    if (err) {
        errno = err;
        return -1;
    }
    return real(in, off_in, out, off_out, n, flags);
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
           int flags)
{
    static int (*real)(int, const char *, int, const char *, int);
    if (!real)
        real = (int (*)(int, const char *, int, const char *, int))dlsym(
            RTLD_NEXT, "linkat");
    int err = env_errno("NFY_SHIM_LINK_ERRNO");
    if (err) {
        errno = err;
        return -1;
    }
    return real(olddirfd, oldpath, newdirfd, newpath, flags);
}

int close(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "close");
    if (fd >= 0 && fd < MAX_FD)
        temp_fd[fd] = 0;
    return real(fd);
}

long syscall(long number, ...)
{
    static long (*real)(long, ...);
    if (!real)
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
#ifdef SYS_openat2
    if (number == SYS_openat2 && getenv("NFY_SHIM_NO_OPENAT2")) {
        errno = ENOSYS;
        return -1;
    }
#endif
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
