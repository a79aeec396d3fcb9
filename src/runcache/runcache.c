/* The run cache: find an entry and check it, or build one from a private
 * snapshot of the project and publish it atomically. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

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

typedef struct {
    const nfy_runcache_opts *opts;
    nfy_arena *a;
    int rootfd;
    const char *root; /* its real path */
    const char *project;
    nfy_diags *diags;
} cache;

static nfy_status convert_into(const cache *c, const char *tmp,
                               nfy_convert_stats *stats)
{
    const nfy_runcache_opts *opts = c->opts;
    nfy_convert_opts co = {0};
    co.src = nfy_path_join(c->a, tmp, "src");
    co.dst = nfy_path_join(c->a, tmp, "tree");
    co.action = NFY_CONVERT_WRITE;
    co.mode = opts->mode;
    co.torch_version = opts->torch_version;
    co.rules = opts->rules;
    co.jobs = 1;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_meta meta = {opts->tool_version,
                            "run",
                            c->project,
                            opts->torch_version,
                            opts->mode == NFY_CONVERT_MODE_AUTO ? "auto"
                                                                : "manual",
                            NULL};
    nfy_report_set_meta(&rep, &meta);
    nfy_status st = nfy_convert_run(&co, &rep, NULL, stats, c->diags);
    if (!st)
        st = nfy_report_write(&rep, nfy_path_join(c->a, tmp, "report"),
                              NFY_REPORT_JSON | NFY_REPORT_MD, c->diags);
    nfy_report_release(&rep);
    return st;
}

static nfy_status write_text(nfy_arena *a, const char *dir, const char *name,
                             nfy_str text)
{
    return nfy_file_write_atomic_flags(nfy_path_join(a, dir, name), text.ptr,
                                       text.len, 0600, 0);
}

/* The path of the first line where two manifests differ. */
static const char *first_difference(nfy_arena *a, nfy_str x, nfy_str y)
{
    size_t i = 0, line = 0;
    while (i < x.len && i < y.len && x.ptr[i] == y.ptr[i])
        if (x.ptr[i++] == '\n')
            line = i;
    nfy_str rest = i < x.len ? x : y;
    const char *start = rest.ptr + line;
    const char *end = memchr(start, '\n', rest.len - line);
    const char *tab = memchr(
        start, '\t', (size_t)((end ? end : rest.ptr + rest.len) - start));
    if (!tab)
        return "?";
    return nfy_arena_strndup(
        a, tab + 1, (size_t)((end ? end : rest.ptr + rest.len) - tab - 1));
}

/* Re-read the project once converted: a file changed meanwhile is said
 * (the entry stays true to the bytes converted, under their own key). */
static void recheck_sources(const cache *c, const char *key,
                            const nfy_buf *converted)
{
    char now[NFY_SHA256_HEX];
    nfy_buf live = NFY_BUF_INIT;
    nfy_diags quiet;
    nfy_diags_init(&quiet);
    nfy_status st =
        nfy__runcache_key(c->opts, c->project, c->project, now, &live, &quiet);
    nfy_diags_release(&quiet);
    if (!st && strcmp(now, key)) {
        const char *rel = first_difference(c->a, nfy_buf_view(converted),
                                           nfy_buf_view(&live));
        nfy_diag_add_at(c->diags, NFY_SEV_WARNING, "cache-race",
                        nfy_path_join(c->a, c->project, rel), 0, 0,
                        "changed while the project was converted: this run "
                        "uses the bytes read before; the next run converts "
                        "the new ones");
    }
    nfy_buf_release(&live);
}

/* Links pointed for Python, the tree made the user's alone and listed
 * with its stamps and hashes (tree.tsv), the side files written. */
static nfy_status finish_entry(const cache *c, const char *tmp,
                               const nfy_buf *manifest)
{
    int treefd;
    nfy_status st = nfy_dir_open_beneath(tmp, "tree", &treefd);
    if (st)
        return fail(c->diags, tmp, "cannot open", st);
    nfy_buf list = NFY_BUF_INIT;
    st = nfy__runcache_fix_links(treefd, c->project, c->diags);
    if (!st)
        st = nfy__runcache_tree_record(treefd, &list);
    close(treefd);
    if (!st)
        st = write_text(c->a, tmp, "tree.tsv", nfy_buf_view(&list));
    if (!st)
        st = write_text(c->a, tmp, "manifest.tsv", nfy_buf_view(manifest));
    if (!st)
        st = write_text(c->a, tmp, "project", nfy_str_from_cstr(c->project));
    nfy_buf_release(&list);
    return st ? fail(c->diags, tmp, "cannot write the entry", st) : NFY_OK;
}

/* Build into a fresh locked temporary from a snapshot of the project and
 * rename it to the key of the bytes converted; losing the race to
 * another run is success (its entry is checked like any other). */
static nfy_status build(const cache *c, nfy_runcache_entry *out)
{
    char *tmp = nfy_arena_fmt(c->a, "%s/" NFY__RC_TMP_PREFIX "XXXXXX", c->root);
    if (!mkdtemp(tmp))
        return fail(c->diags, tmp, "cannot create",
                    nfy_status_from_errno(errno));
    int lockfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lockfd >= 0)
        (void)flock(lockfd, LOCK_EX);
    nfy_buf manifest = NFY_BUF_INIT;
    const char *snap = nfy_path_join(c->a, tmp, "src");
    nfy_status st =
        nfy__runcache_snapshot(c->project, c->opts->cache_root, snap, c->diags);
    if (!st)
        st = nfy__runcache_key(c->opts, snap, c->project, out->key, &manifest,
                               c->diags);
    if (!st)
        st = convert_into(c, tmp, &out->stats);
    if (!st)
        st = nfy__runcache_remove_at(lockfd, "src");
    if (!st) {
        recheck_sources(c, out->key, &manifest);
        st = finish_entry(c, tmp, &manifest);
    }
    const char *base = strrchr(tmp, '/') + 1;
    if (!st && renameat(c->rootfd, base, c->rootfd, out->key) != 0 &&
        errno != EEXIST && errno != ENOTEMPTY)
        st = fail(c->diags, nfy_path_join(c->a, c->root, out->key),
                  "cannot publish", nfy_status_from_errno(errno));
    (void)nfy__runcache_remove_at(c->rootfd, base); /* gone once published */
    if (lockfd >= 0)
        close(lockfd);
    nfy_buf_release(&manifest);
    return st;
}

/* Read a small regular file of the entry, no link followed. */
static nfy_status read_at(int dirfd, const char *name, nfy_buf *out,
                          struct stat *st)
{
    int fd =
        openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return nfy_status_from_errno(errno);
    nfy_status rc = fstat(fd, st) != 0 ? nfy_status_from_errno(errno)
                    : !S_ISREG(st->st_mode)
                        ? NFY_ENOTREG
                        : nfy_file_read_sized(fd, st->st_size, 256u << 20, out);
    close(fd);
    return rc;
}

typedef enum { ENTRY_MISSING, ENTRY_INTACT, ENTRY_CHANGED } entry_state;

/* The entry of key: absent, as built, or changed (*what says where);
 * NFY_EACCES when any part of it is not the user's alone. */
static nfy_status check_entry(const cache *c, const char *key,
                              entry_state *state, const char **what)
{
    const char *entry = nfy_path_join(c->a, c->root, key);
    struct stat st;
    *what = "the entry";
    *state = ENTRY_CHANGED;
    if (fstatat(c->rootfd, key, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        *state = ENTRY_MISSING;
        return NFY_OK;
    }
    nfy_status rc = nfy__runcache_check_owned(&st, entry, c->diags);
    if (rc || !S_ISDIR(st.st_mode))
        return rc;
    int efd =
        openat(c->rootfd, key, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (efd < 0)
        return NFY_OK;
    nfy_buf list = NFY_BUF_INIT;
    int treefd = -1;
    *what = "tree.tsv";
    if (read_at(efd, "tree.tsv", &list, &st) == NFY_OK &&
        !(rc = nfy__runcache_check_owned(
              &st, nfy_path_join(c->a, entry, "tree.tsv"), c->diags))) {
        *what = "tree";
        if (nfy_dir_open_beneath_fd(efd, "tree", &treefd) == NFY_OK &&
            fstat(treefd, &st) == 0)
            rc = nfy__runcache_check_owned(
                &st, nfy_path_join(c->a, entry, "tree"), c->diags);
    }
    if (!rc && treefd >= 0) {
        nfy__tree_state ts;
        rc = nfy__runcache_tree_check(treefd, nfy_buf_view(&list),
                                      nfy_path_join(c->a, entry, "tree"), c->a,
                                      &ts, what, c->diags);
        if (!rc && ts == NFY__TREE_INTACT)
            *state = ENTRY_INTACT;
        if (*what)
            *what = nfy_path_join(c->a, "tree", *what);
    }
    if (treefd >= 0)
        close(treefd);
    close(efd);
    nfy_buf_release(&list);
    return rc;
}

/* Move a changed entry out of the way (under a temporary name, locked, so
 * a run killed meanwhile leaves a stale temporary), then remove it. */
static void discard_entry(const cache *c, const char *key)
{
    struct stat st;
    if (fstatat(c->rootfd, key, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        (void)unlinkat(c->rootfd, key, 0);
        return;
    }
    int fd =
        openat(c->rootfd, key, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    (void)flock(fd, LOCK_EX);
    /* another run may have replaced it meanwhile: that entry is checked
     * again, never removed under a run using it */
    struct stat locked, now;
    bool same = fstat(fd, &locked) == 0 &&
                fstatat(c->rootfd, key, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
                now.st_dev == locked.st_dev && now.st_ino == locked.st_ino;
    char *tmp = nfy_arena_fmt(c->a, "%s/" NFY__RC_TMP_PREFIX "XXXXXX", c->root);
    if (same && mkdtemp(tmp)) {
        const char *base = strrchr(tmp, '/') + 1;
        if (renameat(c->rootfd, key, c->rootfd, base) != 0)
            (void)unlinkat(c->rootfd, base, AT_REMOVEDIR);
        else
            (void)nfy__runcache_remove_at(c->rootfd, base);
    }
    close(fd);
}

static nfy_status refuse_inside(const cache *c)
{
    size_t n = strlen(c->project);
    if (strncmp(c->root, c->project, n) ||
        (c->root[n] != '/' && c->root[n] != '\0'))
        return NFY_OK;
    nfy_diag_add_at(c->diags, NFY_SEV_ERROR, "cache-inside",
                    c->opts->cache_root, 0, 0,
                    "the run cache lies inside the project %s: set "
                    "XDG_CACHE_HOME elsewhere or name the code directory "
                    "with --project",
                    c->project);
    return NFY_EUSAGE;
}

/* Check the entry of out->key; build it when absent or changed (then
 * check what was published). */
static nfy_status find_or_build(cache *c, nfy_runcache_entry *out)
{
    bool built = false;
    for (int round = 0; round < 4; round++) {
        entry_state state;
        const char *what;
        nfy_status st = check_entry(c, out->key, &state, &what);
        if (st)
            return st;
        if (state == ENTRY_INTACT) {
            out->entry = nfy_path_join(c->a, c->root, out->key);
            out->tree = nfy_path_join(c->a, out->entry, "tree");
            out->reused = !built;
            return NFY_OK;
        }
        if (state == ENTRY_CHANGED) {
            nfy_diag_add_at(c->diags, NFY_SEV_WARNING, "cache-changed",
                            nfy_path_join(c->a, c->root, out->key), 0, 0,
                            "%s changed after the entry was built: it is "
                            "removed and built again",
                            what);
            discard_entry(c, out->key);
            continue; /* gone now, or replaced by another run's */
        }
        if ((st = build(c, out)))
            return st;
        built = true;
    }
    return fail(c->diags, c->root, "cannot build a stable entry", NFY_EIO);
}

nfy_status nfy_runcache_prepare(const nfy_runcache_opts *opts, nfy_arena *a,
                                nfy_runcache_entry *out, nfy_diags *diags)
{
    memset(out, 0, sizeof *out);
    char real[PATH_MAX];
    struct stat pst;
    if (!realpath(opts->project, real) || stat(real, &pst) != 0 ||
        !S_ISDIR(pst.st_mode)) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "cache-project", opts->project, 0,
                        0, "not a project directory");
        return NFY_ENOENT;
    }
    out->project = nfy_arena_strdup(a, real);
    cache c = {opts, a, -1, NULL, out->project, diags};
    nfy_status st = nfy__runcache_open_root(a, opts->cache_root, true,
                                            &c.rootfd, &c.root, diags);
    if (st)
        return st;
    st = refuse_inside(&c);
    if (!st) {
        nfy__runcache_remove_stale(c.rootfd);
        nfy_buf manifest = NFY_BUF_INIT;
        st = nfy__runcache_key(opts, out->project, out->project, out->key,
                               &manifest, diags);
        nfy_buf_release(&manifest);
    }
    if (!st)
        st = find_or_build(&c, out);
    close(c.rootfd);
    return st;
}

static bool is_entry_name(const char *name)
{
    size_t n = 0;
    for (; name[n]; n++)
        if (!((name[n] >= '0' && name[n] <= '9') ||
              (name[n] >= 'a' && name[n] <= 'f')))
            return false;
    return n == NFY_SHA256_HEX - 1 || nfy__runcache_is_tmp_name(name);
}

/* What the cache made (entries, temporaries) is removed from the
 * directory the root names, through a link too; anything else there is
 * left, and the root itself goes when it is a directory left empty. */
nfy_status nfy_runcache_clean(const char *cache_root, nfy_diags *diags)
{
    struct stat lst;
    if (lstat(cache_root, &lst) != 0 && errno == ENOENT)
        return NFY_OK;
    int fd = open(cache_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    nfy__rc_names names = {0};
    nfy_status st =
        fd < 0 ? nfy_status_from_errno(errno)
               : nfy__runcache_dir_names(fd, false, is_entry_name, &names);
    if (st) {
        if (fd >= 0)
            close(fd);
        return fail(diags, cache_root, "cannot remove", st);
    }
    for (size_t i = 0; !st && i < names.len; i++)
        st = nfy__runcache_remove_at(fd, names.items[i]);
    nfy__runcache_names_free(&names);
    close(fd);
    if (st)
        return fail(diags, cache_root, "cannot remove", st);
    if (S_ISDIR(lst.st_mode) && rmdir(cache_root) != 0 && errno != ENOTEMPTY &&
        errno != EEXIST)
        return fail(diags, cache_root, "cannot remove",
                    nfy_status_from_errno(errno));
    return NFY_OK;
}
