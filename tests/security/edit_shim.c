/*
 * LD_PRELOAD shim for tests/check_security.sh: edits a file while npuify
 * runs. Just before the Nth open of the path NFY_SHIM_EDIT_PATH (exactly
 * that string), its contents are replaced with those of
 * NFY_SHIM_EDIT_FROM, as an editor saving at that moment would. The
 * Nth is NFY_SHIM_EDIT_AT (default 2: the first read after the cache key
 * was computed).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int opens;

static int real_openat(int dirfd, const char *path, int flags, mode_t mode)
{
    static int (*fn)(int, const char *, int, ...);
    if (!fn)
        fn = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
    return fn(dirfd, path, flags, mode);
}

static void maybe_edit(const char *path)
{
    const char *want = getenv("NFY_SHIM_EDIT_PATH");
    const char *from = getenv("NFY_SHIM_EDIT_FROM");
    const char *at = getenv("NFY_SHIM_EDIT_AT");
    if (!want || !from || strcmp(path, want))
        return;
    if (++opens != (at ? atoi(at) : 2))
        return;
    int in = real_openat(AT_FDCWD, from, O_RDONLY, 0);
    int out = real_openat(AT_FDCWD, want, O_WRONLY | O_TRUNC, 0);
    char buf[65536];
    ssize_t n;
    while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            break;
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
}

static mode_t mode_of(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE
               ? (mode_t)va_arg(ap, int)
               : 0;
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_of(flags, ap);
    va_end(ap);
    maybe_edit(path);
    return real_openat(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_of(flags, ap);
    va_end(ap);
    maybe_edit(path);
    return real_openat(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_of(flags, ap);
    va_end(ap);
    if (path[0] == '/')
        maybe_edit(path);
    return real_openat(dirfd, path, flags, mode);
}
