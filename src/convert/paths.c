/*
 * Path checks for convert: where the output may go. Input and output must
 * not overlap (output inside the input would be walked and converted
 * again; input inside the output would be overwritten), both compared by
 * their real paths, and an existing non-empty output is only reused with
 * --force. Only a regular file or a directory is an input.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convert/convert_internal.h"

/*
 * Absolute, symlink-free form of path even when its tail does not exist
 * yet: the longest existing prefix is resolved with realpath and the rest
 * appended as written (with "." and ".." folded lexically).
 */
char *nfy__convert_abspath(nfy_arena *a, const char *path)
{
    char *work = nfy_arena_strndup(a, path, strlen(path));
    const char *tail = "";
    for (;;) {
        char resolved[PATH_MAX];
        if (realpath(*work ? work : ".", resolved))
            return *tail ? nfy_path_join(a, resolved, tail)
                         : nfy_arena_strndup(a, resolved, strlen(resolved));
        char *slash = strrchr(work, '/');
        const char *base = slash ? slash + 1 : work;
        if (strcmp(base, ".") && strcmp(base, ".."))
            tail = *tail ? nfy_path_join(a, base, tail)
                         : nfy_arena_strndup(a, base, strlen(base));
        if (!slash)
            work[0] = '\0';
        else if (slash == work)
            work[1] = '\0';
        else
            *slash = '\0';
        if (!*work) {
            if (realpath(".", resolved))
                return nfy_path_join(a, resolved, tail);
            return NULL;
        }
    }
}

bool nfy__convert_path_is_inside(const char *inner, const char *outer)
{
    size_t n = strlen(outer);
    if (strncmp(inner, outer, n))
        return false;
    return inner[n] == '\0' || inner[n] == '/' || (n == 1 && outer[0] == '/');
}

/* Say why the pair is refused; nothing has been read or written. */
NFY_PRINTF(4, 5)
static nfy_status reject(nfy_diags *diags, const char *path, const char *code,
                         const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nfy_diag_add_at(diags, NFY_SEV_ERROR, code, path, 0, 0, "%s", msg);
    return NFY_EUSAGE;
}

const char *nfy__convert_single_dst(nfy_arena *a, const nfy_convert_opts *o)
{
    struct stat st;
    if (o->dst && stat(o->dst, &st) == 0 && S_ISDIR(st.st_mode)) {
        const char *slash = strrchr(o->src, '/');
        return nfy_path_join(a, o->dst, slash ? slash + 1 : o->src);
    }
    return o->dst;
}

/* A tree: SRC and DST must not overlap either way (realpath of both). */
static nfy_status check_tree(const nfy_convert_opts *o, const char *src_abs,
                             const char *dst_abs, nfy_diags *diags)
{
    if (nfy__convert_path_is_inside(dst_abs, src_abs))
        return reject(diags, o->dst, "convert-dst",
                      "output lies inside the input '%s'; choose an output "
                      "outside it",
                      o->src);
    if (nfy__convert_path_is_inside(src_abs, dst_abs))
        return reject(diags, o->dst, "convert-dst",
                      "the input '%s' lies inside the output; its files "
                      "would be overwritten; choose an output outside it",
                      o->src);
    if (!o->force && nfy_dir_nonempty(o->dst))
        return reject(diags, o->dst, "convert-dst",
                      "output directory exists and is not empty; use "
                      "--force to write into it");
    return NFY_OK;
}

static nfy_status check_file(const nfy_convert_opts *o, nfy_arena *a,
                             const char *src_abs, nfy_diags *diags)
{
    const char *dst = nfy__convert_single_dst(a, o);
    const char *dst_abs = nfy__convert_abspath(a, dst);
    if (!dst_abs)
        return NFY_EIO;
    if (!strcmp(src_abs, dst_abs))
        return reject(diags, dst, "convert-dst",
                      "output is the input file; use --in-place");
    struct stat st;
    if (!o->force && lstat(dst, &st) == 0 && !S_ISDIR(st.st_mode))
        return reject(diags, dst, "convert-dst",
                      "output file exists; use --force to replace it");
    return NFY_OK;
}

nfy_status nfy__convert_check_paths(const nfy_convert_opts *o, nfy_arena *a,
                                    nfy_diags *diags)
{
    struct stat st;
    if (stat(o->src, &st) != 0)
        return reject(diags, o->src, "convert-src", "cannot read input: %s",
                      nfy_status_str(nfy_status_from_errno(errno)));
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
        return reject(diags, o->src, "convert-src",
                      "not a regular file or directory (%s); nothing read",
                      S_ISFIFO(st.st_mode)   ? "a FIFO"
                      : S_ISSOCK(st.st_mode) ? "a socket"
                                             : "a device");
    if (o->action != NFY_CONVERT_WRITE)
        return NFY_OK;
    if (!o->dst)
        return reject(diags, o->src, "convert-dst",
                      "no output given: use -o DST, --in-place, --diff "
                      "or --check");
    const char *src_abs = nfy__convert_abspath(a, o->src);
    const char *dst_abs = nfy__convert_abspath(a, o->dst);
    if (!src_abs || !dst_abs)
        return NFY_EIO;
    return S_ISDIR(st.st_mode) ? check_tree(o, src_abs, dst_abs, diags)
                               : check_file(o, a, src_abs, diags);
}
