/* Locate the NPU emulator relative to the npuify binary. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/verify.h"

static bool exists(nfy_arena *a, const char *dir, const char *name)
{
    struct stat st;
    return stat(nfy_path_join(a, dir, name), &st) == 0;
}

static bool try_pair(nfy_arena *a, const char *emu, const char *data,
                     nfy_verify_paths *out)
{
    char re[PATH_MAX], rd[PATH_MAX];
    if (!realpath(emu, re) || !realpath(data, rd))
        return false;
    if (!exists(a, re, "torch_npu/__init__.py") ||
        !exists(a, re, "npuify_verify.py") ||
        !exists(a, rd, "torch_npu_apis.txt"))
        return false;
    out->emu = nfy_arena_strdup(a, re);
    out->data = nfy_arena_strdup(a, rd);
    return true;
}

bool nfy_cli_verify_find(nfy_arena *a, nfy_verify_paths *out)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = '\0';
    const char *share = nfy_arena_fmt(a, "%s/../share/npuify", exe);
    const char *src = nfy_arena_fmt(a, "%s/../..", exe);
    return try_pair(a, nfy_path_join(a, share, "npu_emu"),
                    nfy_path_join(a, share, "npu"), out) ||
           try_pair(a, nfy_path_join(a, src, "tools/npu_emu"),
                    nfy_path_join(a, src, "data/npu"), out);
}
