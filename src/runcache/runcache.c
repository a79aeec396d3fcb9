/* The run cache: find or build a converted copy, publish it atomically. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report.h"
#include "runcache/runcache_internal.h"

nfy_status nfy_runcache_root(nfy_arena *a, const char *override,
                             const char **out, nfy_diags *diags)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (override && *override)
        *out = nfy_arena_strdup(a, override);
    else if (xdg && xdg[0] == '/')
        *out = nfy_arena_fmt(a, "%s/npuify", xdg);
    else if (home && home[0] == '/')
        *out = nfy_arena_fmt(a, "%s/.cache/npuify", home);
    else {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "cache-root", NULL, 0, 0,
                        "no cache directory: set XDG_CACHE_HOME or HOME");
        return NFY_EUSAGE;
    }
    return *out ? NFY_OK : NFY_ENOMEM;
}

static nfy_status fail(nfy_diags *diags, const char *path, const char *what,
                       nfy_status st)
{
    nfy_diag_add_at(diags, NFY_SEV_ERROR, "cache-write", path, 0, 0, "%s: %s",
                    what, nfy_status_str(st));
    return st;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static nfy_status convert_into(const nfy_runcache_opts *opts,
                               const char *project, const char *tmp,
                               nfy_arena *a, nfy_convert_stats *stats,
                               nfy_diags *diags)
{
    nfy_convert_opts co = {0};
    co.src = project;
    co.dst = nfy_path_join(a, tmp, "tree");
    co.action = NFY_CONVERT_WRITE;
    co.mode = opts->mode;
    co.torch_version = opts->torch_version;
    co.rules = opts->rules;
    co.jobs = 1;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_meta meta = {opts->tool_version,
                            "run",
                            project,
                            opts->torch_version,
                            opts->mode == NFY_CONVERT_MODE_AUTO ? "auto"
                                                                : "manual",
                            NULL};
    nfy_report_set_meta(&rep, &meta);
    nfy_status st = nfy_convert_run(&co, &rep, NULL, stats, diags);
    if (!st)
        st = nfy_report_write(&rep, nfy_path_join(a, tmp, "report"),
                              NFY_REPORT_JSON | NFY_REPORT_MD, diags);
    nfy_report_release(&rep);
    return st;
}

static nfy_status write_text(nfy_arena *a, const char *dir, const char *name,
                             nfy_str text)
{
    return nfy_file_write_atomic_flags(nfy_path_join(a, dir, name), text.ptr,
                                       text.len, 0644, 0);
}

/* Build the entry in a fresh temporary directory, then rename it to its
 * key; losing the race to another run is success (same bytes). */
static nfy_status build(const nfy_runcache_opts *opts, nfy_arena *a,
                        nfy_runcache_entry *out, const nfy_buf *manifest,
                        nfy_diags *diags)
{
    char *tmp = nfy_arena_fmt(a, "%s/.tmp-XXXXXX", opts->cache_root);
    if (!mkdtemp(tmp))
        return fail(diags, tmp, "cannot create", nfy_status_from_errno(errno));
    nfy_status st =
        convert_into(opts, out->project, tmp, a, &out->stats, diags);
    if (!st)
        st = write_text(a, tmp, "manifest.tsv", nfy_buf_view(manifest));
    if (!st)
        st = write_text(a, tmp, "project", nfy_str_from_cstr(out->project));
    if (!st && rename(tmp, out->entry) != 0) {
        int err = errno;
        if ((err == EEXIST || err == ENOTEMPTY) && is_dir(out->tree))
            out->reused = true;
        else
            st = fail(diags, out->entry, "cannot publish",
                      nfy_status_from_errno(err));
    }
    if (st || out->reused)
        (void)nfy__runcache_rmtree(tmp);
    return st;
}

nfy_status nfy_runcache_prepare(const nfy_runcache_opts *opts, nfy_arena *a,
                                nfy_runcache_entry *out, nfy_diags *diags)
{
    memset(out, 0, sizeof *out);
    char real[PATH_MAX];
    if (!realpath(opts->project, real) || !is_dir(real)) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "cache-project", opts->project, 0,
                        0, "not a project directory");
        return NFY_ENOENT;
    }
    out->project = nfy_arena_strdup(a, real);
    nfy_status st = nfy_mkdirs(opts->cache_root, 0700);
    if (st)
        return fail(diags, opts->cache_root, "cannot create", st);
    char cache_real[PATH_MAX];
    size_t n = strlen(real);
    if (realpath(opts->cache_root, cache_real) &&
        !strncmp(cache_real, real, n) &&
        (cache_real[n] == '/' || cache_real[n] == '\0')) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "cache-inside", opts->cache_root,
                        0, 0,
                        "the run cache lies inside the project %s: set "
                        "XDG_CACHE_HOME elsewhere or name the code directory "
                        "with --project",
                        real);
        return NFY_EUSAGE;
    }
    nfy_buf manifest = NFY_BUF_INIT;
    st = nfy__runcache_key(opts, out->project, out->key, &manifest, diags);
    if (!st) {
        out->entry = nfy_path_join(a, opts->cache_root, out->key);
        out->tree = nfy_path_join(a, out->entry, "tree");
        if (is_dir(out->tree))
            out->reused = true;
        else
            st = build(opts, a, out, &manifest, diags);
    }
    nfy_buf_release(&manifest);
    return st;
}

nfy_status nfy_runcache_clean(const char *cache_root, nfy_diags *diags)
{
    nfy_status st = nfy__runcache_rmtree(cache_root);
    if (st)
        return fail(diags, cache_root, "cannot remove", st);
    return NFY_OK;
}
