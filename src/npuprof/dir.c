/*
 * Find the profile's files: the given directory may be a *_ascend_pt
 * directory, its ASCEND_PROFILER_OUTPUT/, or a directory holding one
 * *_ascend_pt (the profiler's dir_name). kernel_details.csv is read
 * before the db, so the db adds its tasks only when the CSV is absent.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "npuprof/npuprof.h"

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool holds_files(nfy_arena *a, const char *dir)
{
    static const char *const names[] = {"kernel_details.csv",
                                        "op_statistic.csv", "trace_view.json"};
    for (size_t i = 0; i < 3; i++)
        if (is_file(nfy_path_join(a, dir, names[i])))
            return true;
    return false;
}

/* The first (by name) entry of dir that ends with suffix and starts with
 * prefix; NULL when none. count gets how many matched. */
static char *first_entry(nfy_arena *a, const char *dir, const char *prefix,
                         const char *suffix, bool want_dir, size_t *count)
{
    DIR *dp = opendir(dir);
    *count = 0;
    if (!dp)
        return NULL;
    char *best = NULL;
    struct dirent *de;
    nfy_str pre = nfy_str_from_cstr(prefix), suf = nfy_str_from_cstr(suffix);
    while ((de = readdir(dp)) != NULL) {
        nfy_str n = nfy_str_from_cstr(de->d_name);
        if (!nfy_str_starts_with(n, pre) || !nfy_str_ends_with(n, suf))
            continue;
        char *full = nfy_path_join(a, dir, de->d_name);
        if (want_dir ? !is_dir(full) : !is_file(full))
            continue;
        (*count)++;
        if (!best || strcmp(full, best) < 0)
            best = full;
    }
    closedir(dp);
    return best;
}

/* The directory holding the files, or NULL. */
static const char *files_dir(nfy_arena *a, const char *dir, nfy_diags *d)
{
    const char *out = nfy_path_join(a, dir, "ASCEND_PROFILER_OUTPUT");
    if (is_dir(out))
        return out;
    if (holds_files(a, dir))
        return dir;
    size_t n;
    char *pt = first_entry(a, dir, "", "_ascend_pt", true, &n);
    if (!pt)
        return NULL;
    if (n > 1)
        nfy_diag_add_at(d, NFY_SEV_WARNING, "npu-ranks", dir, 0, 0,
                        "%zu *_ascend_pt directories (one per rank?); "
                        "reading only %s",
                        n, pt);
    out = nfy_path_join(a, pt, "ASCEND_PROFILER_OUTPUT");
    return is_dir(out) ? out : NULL;
}

bool nfy_npuprof_is_profile_dir(const char *dir)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_diags quiet;
    nfy_diags_init(&quiet);
    bool yes = is_dir(dir) && files_dir(&a, dir, &quiet) != NULL;
    nfy_diags_release(&quiet);
    nfy_arena_release(&a);
    return yes;
}

static char *find_db(nfy_arena *a, const char *base)
{
    size_t n;
    char *db =
        first_entry(a, base, "ascend_pytorch_profiler", ".db", false, &n);
    if (!db)
        db = first_entry(a, base, "analysis", ".db", false, &n);
    return db;
}

nfy_status nfy_npuprof_read_dir(nfy_npu_profile *p, const char *dir,
                                nfy_diags *d)
{
    nfy_arena a = NFY_ARENA_INIT;
    const char *base = files_dir(&a, dir, d);
    if (!base) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "npu-input", dir, 0, 0,
                        "no ASCEND_PROFILER_OUTPUT, kernel_details.csv, "
                        "op_statistic.csv or trace_view.json here: not an "
                        "Ascend PyTorch Profiler directory");
        nfy_arena_release(&a);
        return NFY_ENOENT;
    }
    p->src.dir = nfy_arena_strdup(&p->arena, base);
    nfy_status st = NFY_OK, s;
    const char *kd = nfy_path_join(&a, base, "kernel_details.csv");
    const char *os = nfy_path_join(&a, base, "op_statistic.csv");
    const char *tv = nfy_path_join(&a, base, "trace_view.json");
    const char *db = find_db(&a, base);
    if (is_file(kd) &&
        (s = nfy_npuprof_read_kernel_details(p, kd, d)) != NFY_OK)
        st = s;
    if (is_file(os) && (s = nfy_npuprof_read_op_statistic(p, os, d)) != NFY_OK)
        st = s;
    if (is_file(tv) && (s = nfy_npuprof_read_trace_view(p, tv, d)) != NFY_OK)
        st = s;
    if (db && (s = nfy_npuprof_read_db(p, db, d)) != NFY_OK)
        st = s;
    if (!p->src.kernel_details && !p->src.op_statistic && !p->src.trace_view &&
        !p->src.db) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "npu-input", base, 0, 0,
                        "none of kernel_details.csv, op_statistic.csv, "
                        "trace_view.json, *.db found");
        st = NFY_ENOENT;
    }
    nfy_arena_release(&a);
    return st;
}
