/*
 * Path checks for convert: where the output may go. The output must not lie
 * inside the input (it would be walked and converted again), and an existing
 * non-empty output directory is only reused with --force.
 */
#include <errno.h>
#include <limits.h>
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

bool nfy__path_is_inside(const char *inner, const char *outer)
{
    size_t n = strlen(outer);
    if (strncmp(inner, outer, n))
        return false;
    return inner[n] == '\0' || inner[n] == '/' || (n == 1 && outer[0] == '/');
}

nfy_status nfy__convert_check_paths(const nfy_convert_opts *o, nfy_arena *a,
                                    nfy_diags *diags)
{
    struct stat st;
    if (stat(o->src, &st) != 0) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-src", o->src, 0, 0,
                        "cannot read input: %s", strerror(errno));
        return NFY_EUSAGE;
    }
    if (o->action != NFY_CONVERT_WRITE)
        return NFY_OK;
    if (!o->dst) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-dst", o->src, 0, 0,
                        "no output given: use -o DST, --in-place, --diff "
                        "or --check");
        return NFY_EUSAGE;
    }
    const char *src_abs = nfy__convert_abspath(a, o->src);
    const char *dst_abs = nfy__convert_abspath(a, o->dst);
    if (!src_abs || !dst_abs)
        return NFY_EIO;
    if (S_ISDIR(st.st_mode) && nfy__path_is_inside(dst_abs, src_abs)) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-dst", o->dst, 0, 0,
                        "output lies inside the input '%s'; choose an output "
                        "outside it",
                        o->src);
        return NFY_EUSAGE;
    }
    if (!S_ISDIR(st.st_mode) && !strcmp(src_abs, dst_abs)) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-dst", o->dst, 0, 0,
                        "output is the input file; use --in-place");
        return NFY_EUSAGE;
    }
    struct stat dst_st;
    if (!S_ISDIR(st.st_mode) && !o->force && stat(o->dst, &dst_st) == 0 &&
        !S_ISDIR(dst_st.st_mode)) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-dst", o->dst, 0, 0,
                        "output file exists; use --force to replace it");
        return NFY_EUSAGE;
    }
    if (S_ISDIR(st.st_mode) && !o->force && nfy_dir_nonempty(o->dst)) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-dst", o->dst, 0, 0,
                        "output directory exists and is not empty; use "
                        "--force to write into it");
        return NFY_EUSAGE;
    }
    return NFY_OK;
}
