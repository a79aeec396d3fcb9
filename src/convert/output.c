/*
 * Where convert's output goes and how it is written: a directory below the
 * output root opened without following links, atomic writes and copies,
 * in-place rewrites behind a backup, directories, links, and stale
 * temporaries of interrupted runs. Every failure is said once, on the
 * path that failed, with its reason.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert/convert_internal.h"

/* An error on one side of one file: said once, with the reason. */
void nfy__convert_error(nfy__converter *c, const char *code, const char *path,
                        const char *what, nfy_status st)
{
    nfy_diag_add_at(c->diags, NFY_SEV_ERROR, code, path, 0, 0, "%s: %s", what,
                    nfy_status_str(st));
}

void nfy__convert_output_error(nfy__converter *c, const char *path,
                               nfy_status st)
{
    nfy__convert_error(c, "convert-write", path, "cannot write", st);
    if (!c->write_rc)
        c->write_rc = NFY_EIO;
}

/* Where an entry's output goes: a directory descriptor and a name in it. */
typedef struct {
    int dirfd;
    const char *name;
    const char *shown; /* the path for messages */
    bool kept;         /* dirfd is the converter's kept directory */
} out_target;

static void drop_kept(nfy__converter *c)
{
    nfy__kept_dir *k = &c->kept[--c->kept_len];
    close(k->fd);
    free(k->rel);
}

void nfy__convert_forget_dir(nfy__converter *c)
{
    while (c->kept_len)
        drop_kept(c);
}

/* kept is dir or a directory above it ("" is the root, above all). */
static bool kept_covers(const char *kept, const char *dir)
{
    size_t n = strlen(kept);
    return !n || (!strncmp(kept, dir, n) && (!dir[n] || dir[n] == '/'));
}

/* Keep dirfd open as rel's for the entries after this one, where there is
 * room (else it is closed after its entry). */
size_t nfy__convert_kept_budget(unsigned threads)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY)
        return NFY__KEPT_DIRS;
    enum { PER_ENTRY_FDS = 4 };
    rlim_t share = rl.rlim_cur / 2 / (threads ? threads : 1);
    if (share <= PER_ENTRY_FDS)
        return 0;
    share -= PER_ENTRY_FDS;
    return share > NFY__KEPT_DIRS ? NFY__KEPT_DIRS : (size_t)share;
}

static void keep_dir(nfy__converter *c, const char *rel, out_target *t)
{
    if (c->kept_len >= c->kept_max)
        return;
    size_t n = strlen(rel);
    char *copy = malloc(n + 1);
    if (!copy)
        return;
    memcpy(copy, rel, n + 1);
    c->kept[c->kept_len++] = (nfy__kept_dir){t->dirfd, copy};
    t->kept = true;
}

/*
 * The output directory dir from the kept ones: those not on its path are
 * closed; it is the deepest kept one, or is opened beneath that one (the
 * walk is depth-first, so a directory's later entries find it still open
 * after its subdirectories). Beneath a directory reached without links,
 * as from the root, no link is followed.
 */
static nfy_status open_kept(nfy__converter *c, const char *dir, out_target *t)
{
    while (c->kept_len && !kept_covers(c->kept[c->kept_len - 1].rel, dir))
        drop_kept(c);
    const nfy__kept_dir *top = c->kept_len ? &c->kept[c->kept_len - 1] : NULL;
    if (top && !strcmp(top->rel, dir)) {
        t->dirfd = top->fd;
        t->kept = true;
        return NFY_OK;
    }
    size_t n = top ? strlen(top->rel) : 0;
    const char *below = dir + n + (n > 0);
    nfy_status st =
        nfy_dir_open_beneath_fd(top ? top->fd : c->root_fd, below, &t->dirfd);
    if (!st)
        keep_dir(c, dir, t);
    return st;
}

/*
 * Open the directory an output lands in. Below the output root (DST, or
 * SRC in place) no symbolic link is followed, so a link planted in the
 * output can never make npuify write elsewhere.
 */
static nfy_status out_open(nfy__converter *c, nfy_arena *a,
                           const nfy_walk_entry *e, out_target *t)
{
    bool in_place = c->o->action == NFY_CONVERT_IN_PLACE;
    if (c->single_file) {
        t->shown = in_place ? e->path : c->dst;
        return nfy_dir_open_parent(in_place ? c->target : c->dst, &t->dirfd,
                                   &t->name);
    }
    const char *root = in_place ? c->o->src : c->dst;
    t->shown = in_place ? e->path : nfy_path_join(a, c->dst, e->rel);
    const char *slash = strrchr(e->rel, '/');
    t->name = slash ? slash + 1 : e->rel;
    const char *dir =
        slash ? nfy_arena_strndup(a, e->rel, (size_t)(slash - e->rel)) : "";
    if (c->cache_dirs && c->root_fd >= 0)
        return open_kept(c, dir, t);
    return c->root_fd >= 0 ? nfy_dir_open_beneath_fd(c->root_fd, dir, &t->dirfd)
                           : nfy_dir_open_beneath(root, dir, &t->dirfd);
}

static void out_close(out_target *t)
{
    if (t->dirfd >= 0 && !t->kept)
        close(t->dirfd);
    t->dirfd = -1;
}

/* A file of a fresh output tree: written unnamed and linked when complete,
 * with its mode given at creation where the umask lets it through. */
static nfy_write_opts new_file_opts(const nfy__converter *c, mode_t mode)
{
    nfy_write_opts w = {.mode = mode, .flags = NFY_WRITE_NEW};
    if (c->umask_known && !(mode & (c->umask | 07000)))
        w.flags |= NFY_WRITE_MODE_AT_OPEN;
    return w;
}

const char *nfy__convert_note(nfy_arena *a, const char *what, nfy_status st)
{
    return nfy_arena_fmt(a, "%s: %s", what, nfy_status_str(st));
}

/* Copy a file byte for byte to the output; false (said) on failure. */
bool nfy__convert_copy_out(nfy__converter *c, const nfy_walk_entry *e, int in,
                           const struct stat *sst, nfy_arena *a,
                           const char **note)
{
    out_target t = {-1, NULL, NULL, false};
    nfy_status st = out_open(c, a, e, &t);
    nfy_write_opts w = new_file_opts(c, e->mode & 07777);
    if (!st)
        st = in >= 0 ? nfy_file_copy_fd_at(in, sst, t.dirfd, t.name, &w)
                     : nfy_file_copy_at(e->path, t.dirfd, t.name, &w);
    out_close(&t);
    if (!st)
        return true;
    nfy__convert_output_error(c, t.shown ? t.shown : e->rel, st);
    *note = nfy__convert_note(a, "cannot write", st);
    return false;
}

nfy_status nfy__convert_write_out(nfy__converter *c, const nfy_walk_entry *e,
                                  nfy_arena *a, const char *data, size_t len,
                                  const char **note)
{
    out_target t = {-1, NULL, NULL, false};
    nfy_status st = out_open(c, a, e, &t);
    /* A fresh output tree needs no per-file flush; in place does. */
    nfy_write_opts w = new_file_opts(c, e->mode & 07777);
    if (!st)
        st = nfy_file_write_at(t.dirfd, t.name, data, len, &w);
    out_close(&t);
    if (st) {
        nfy__convert_output_error(c, t.shown ? t.shown : e->rel, st);
        *note = nfy__convert_note(a, "cannot write", st);
    }
    return st;
}

/* FILE.orig beside the file; an existing one is kept (never replaced). */
static nfy_status backup_original(nfy__converter *c, const nfy_walk_entry *e,
                                  nfy_arena *a, const out_target *t)
{
    const char *bak = nfy_arena_fmt(a, "%s.orig", t->name);
    struct stat st;
    if (fstatat(t->dirfd, bak, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        nfy_report_logf(c->rep, e->rel, "kept the existing backup %s.orig",
                        t->shown);
        return NFY_OK;
    }
    nfy_write_opts w = {.flags = NFY_WRITE_SYNC | NFY_WRITE_KEEP_OWNER};
    return nfy_file_copy_at(c->single_file ? c->target : e->path, t->dirfd, bak,
                            &w);
}

static void owner_warning(nfy__converter *c, const char *path,
                          const nfy_write_opts *w)
{
    if (w->owner_lost)
        nfy_diag_add_at(c->diags, NFY_SEV_WARNING, "convert-owner", path, 0, 0,
                        "owner and group not kept (%s); set-id bits dropped",
                        nfy_status_str(nfy_status_from_errno(w->owner_errno)));
}

/* Rewrite a file in place: no backup, no rewrite. */
nfy_status nfy__convert_rewrite(nfy__converter *c, const nfy_walk_entry *e,
                                nfy_arena *a, const nfy_buf *result,
                                const char **note)
{
    out_target t = {-1, NULL, NULL, false};
    nfy_status st = out_open(c, a, e, &t);
    if (st) {
        nfy__convert_output_error(c, t.shown ? t.shown : e->path, st);
        *note = nfy__convert_note(a, "cannot write", st);
        return st;
    }
    if (c->o->backup && (st = backup_original(c, e, a, &t))) {
        nfy__convert_error(
            c, "convert-backup", nfy_arena_fmt(a, "%s.orig", t.shown),
            "cannot write the backup, so the file is left unchanged", st);
        *note = nfy__convert_note(a, "no backup, left unchanged", st);
    } else {
        /* The mode is kept from the file replaced; e's if it vanished. */
        nfy_write_opts w = {.mode = e->mode & 07777,
                            .flags = NFY_WRITE_SYNC | NFY_WRITE_KEEP_OWNER};
        st = nfy_file_write_at(t.dirfd, t.name, result->data, result->len, &w);
        if (st) {
            nfy__convert_output_error(c, t.shown, st);
            *note = nfy__convert_note(a, "cannot write", st);
        } else {
            owner_warning(c, t.shown, &w);
        }
    }
    if (st && !c->write_rc)
        c->write_rc = NFY_EIO;
    out_close(&t);
    return st;
}

void nfy__convert_make_dir(nfy__converter *c, const nfy_walk_entry *e,
                           nfy_arena *a)
{
    out_target t = {-1, NULL, NULL, false};
    nfy_status st = out_open(c, a, e, &t);
    if (!st)
        st = nfy_mkdir_at(t.dirfd, t.name, 0755);
    out_close(&t);
    /* Files below fail on their own (each said once, on its path). */
    if (st)
        nfy__convert_output_error(c, t.shown ? t.shown : e->rel, st);
}

void nfy__convert_copy_link(nfy__converter *c, const nfy_walk_entry *e,
                            nfy_arena *a)
{
    const char *note = "symbolic link, copied as a link";
    bool ok = true;
    if (c->o->action == NFY_CONVERT_WRITE) {
        out_target t = {-1, NULL, NULL, false};
        nfy_status st = out_open(c, a, e, &t);
        if (!st)
            st = nfy_symlink_copy_at(e->path, t.dirfd, t.name);
        out_close(&t);
        if (st) {
            nfy__convert_output_error(c, t.shown ? t.shown : e->rel, st);
            note = nfy__convert_note(a, "cannot write", st);
            ok = false;
        }
    }
    c->stats->files_error += !ok;
    nfy_report_add_file(c->rep, e->rel, ok ? NFY_FILE_COPIED : NFY_FILE_ERROR,
                        note);
}

/* A temporary of an interrupted npuify run, in the tree rewritten in place:
 * removed; in any other run it is not part of the project. */
/* One file in place: the temporaries a killed run left beside it. */
static void remove_temps_beside(nfy__converter *c, const nfy_walk_entry *e)
{
    int fd;
    const char *base;
    if (nfy_dir_open_parent(c->target, &fd, &base))
        return;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *de;
    struct stat st;
    while ((de = readdir(d)) != NULL)
        if (nfy_is_temp_name(de->d_name) &&
            fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode) && unlinkat(fd, de->d_name, 0) == 0)
            nfy_report_logf(c->rep, e->rel,
                            "removed %s, a temporary file left by an "
                            "interrupted run",
                            de->d_name);
    closedir(d);
}

bool nfy__convert_stale_temp(nfy__converter *c, const nfy_walk_entry *e)
{
    if (c->single_file) {
        if (c->o->action == NFY_CONVERT_IN_PLACE)
            remove_temps_beside(c, e);
        return false;
    }
    const char *slash = strrchr(e->rel, '/');
    if (!nfy_is_temp_name(slash ? slash + 1 : e->rel))
        return false;
    if (c->o->action == NFY_CONVERT_IN_PLACE && unlink(e->path) == 0)
        nfy_report_logf(c->rep, e->rel,
                        "removed a temporary file left by an interrupted run");
    return true;
}
