/*
 * The convert driver: walks the input tree, routes each file to the
 * migration (Python, shell) or to a byte-for-byte copy, and carries out the
 * action (write a new tree, diff, check, rewrite in place). One file is in
 * memory at a time (per worker with --jobs), so memory is bounded by the
 * largest file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert/convert_internal.h"
#include "edit/edit.h"

/* rel is a skipped path or lies below one (the walk still descends into a
 * skipped directory). */
bool nfy__convert_skipped(const nfy__converter *c, const char *rel)
{
    for (const char *const *s = c->o->skip_rel; s && *s; s++) {
        size_t n = strlen(*s);
        if (!strncmp(*s, rel, n) && (rel[n] == '\0' || rel[n] == '/'))
            return true;
    }
    return false;
}

/* Rules that match a file by its base name (e.g. "*.cu" kernels). */
static void flag_file_rules(nfy__converter *c, const char *rel)
{
    if (!c->o->rules)
        return;
    const char *slash = strrchr(rel, '/');
    nfy_str base = nfy_str_from_cstr(slash ? slash + 1 : rel);
    for (size_t i = 0; i < nfy_rule_set_count(c->o->rules); i++) {
        const nfy_rule *r = nfy_rules_set_at(c->o->rules, i);
        if (r->match != NFY_MATCH_FILE ||
            nfy_rules_activity_in(r, &c->passes->env) == NFY_RULE_INACTIVE ||
            !nfy_rules_glob(r->pattern, base))
            continue;
        nfy_finding f = {.file = rel,
                         .rule = r->id,
                         .op = NFY_OPTYPE_UNSUPPORTED,
                         .safety = NFY_SAFETY_MANUAL,
                         .cat = NFY_CAT_CUDA_OP,
                         .api = rel,
                         .message = r->message};
        nfy_report_add_finding(c->rep, &f);
    }
}

static void copy_other(nfy__converter *c, const nfy_walk_entry *e, int in,
                       const struct stat *st, nfy_arena *a)
{
    flag_file_rules(c, e->rel);
    /* named, never skipped silently: convert reads no such file */
    const char *note = "not scanned: copied byte for byte";
    bool ok = c->o->action != NFY_CONVERT_WRITE ||
              nfy__convert_copy_out(c, e, in, st, a, &note);
    c->stats->files_error += !ok;
    nfy_report_add_file(c->rep, e->rel, ok ? NFY_FILE_COPIED : NFY_FILE_ERROR,
                        note);
}

/* Carry out the action for a scanned file; false when its output failed. */
static bool emit_script(nfy__converter *c, const nfy_walk_entry *e,
                        nfy_arena *a, const nfy_source *src, nfy_edit_set *set,
                        const nfy_buf *result, bool changed, const char **note)
{
    nfy_status st = NFY_OK;
    switch (c->o->action) {
    case NFY_CONVERT_WRITE:
        st = nfy__convert_write_out(c, e, a, changed ? result->data : src->data,
                                    changed ? result->len : src->len, note);
        break;
    case NFY_CONVERT_DIFF:
        if (changed && c->diff_out &&
            nfy_edit_set_diff(set, e->rel, result->data, result->len,
                              c->diff_out))
            nfy__convert_output_error(c, "(diff)", NFY_ELIMIT);
        break;
    case NFY_CONVERT_CHECK:
        break;
    case NFY_CONVERT_IN_PLACE:
        if (changed)
            st = nfy__convert_rewrite(c, e, a, result, note);
        break;
    }
    return st == NFY_OK;
}

/* A file that could not be loaded: too large is copied (from in, or by
 * its path when in is -1), else said once. */
static void load_failed(nfy__converter *c, const nfy_walk_entry *e, int in,
                        const struct stat *sst, nfy_arena *a, nfy_status st)
{
    c->stats->files_error++;
    if (st == NFY_ELIMIT) {
        nfy_diag_add_at(c->diags, NFY_SEV_ERROR, "convert-read", e->path, 0, 0,
                        "larger than %d MiB, not converted; copied unchanged",
                        NFY__MAX_SCRIPT_BYTES >> 20);
        const char *note = "too large to convert";
        if (c->o->action == NFY_CONVERT_WRITE)
            nfy__convert_copy_out(c, e, in, sst, a, &note);
        nfy_report_add_file(c->rep, e->rel, NFY_FILE_ERROR, note);
        return;
    }
    nfy__convert_error(c, "convert-read", e->path, "cannot read", st);
    nfy_report_add_file(c->rep, e->rel, NFY_FILE_ERROR,
                        nfy__convert_note(a, "cannot read", st));
}

/* The source read from in (sst its stat), named by its walk path (SRC as
 * given joined with the relative path): diagnostics name the file as the
 * user opens it from the current directory; findings keep the relative
 * path. */
static nfy_status load_script(nfy_source *src, const nfy_walk_entry *e, int in,
                              const struct stat *sst)
{
    nfy_buf b = NFY_BUF_INIT;
    nfy_status st =
        nfy_file_read_sized(in, sst->st_size, NFY__MAX_SCRIPT_BYTES, &b);
    if (!st)
        st = nfy_source_from_mem(src, e->path, b.data, b.len);
    nfy_buf_release(&b);
    return st;
}

static void convert_script(nfy__converter *c, const nfy_walk_entry *e,
                           nfy_file_kind kind, int fd, const struct stat *sst,
                           nfy_arena *a)
{
    nfy_source src;
    nfy_status st = load_script(&src, e, fd, sst);
    if (st) {
        load_failed(c, e, fd, sst, a, st);
        return;
    }
    c->stats->files_scanned++;
    nfy_source view;
    bool cr_view = nfy__convert_cr_view(&src, &view);
    const nfy_source *in = cr_view ? &view : &src;
    nfy_edit_set set;
    nfy_edit_set_init(&set, in);
    size_t errors_before = nfy_diags_count(c->diags, NFY_SEV_ERROR);
    nfy_buf result = NFY_BUF_INIT;
    const char *unparsed = NULL;
    bool changed = false;
    if (nfy__convert_file(c->passes, kind, in, e->rel, &set, c->rep, c->diags,
                          &result, &changed, &unparsed))
        nfy__convert_output_error(c, e->rel, NFY_ELIMIT);
    /* The diff stays over the view (its lines); files get the CRs back. */
    if (cr_view && c->o->action != NFY_CONVERT_DIFF)
        nfy__convert_cr_restore(&result);
    if (changed)
        c->stats->files_changed++;
    bool had_error = nfy_diags_count(c->diags, NFY_SEV_ERROR) > errors_before;
    const char *note = unparsed    ? unparsed
                       : had_error ? "input has errors, see diagnostics"
                                   : NULL;
    bool written = emit_script(c, e, a, &src, &set, &result, changed, &note);
    if (had_error || !written)
        c->stats->files_error++;
    nfy_report_add_file(c->rep, e->rel,
                        !written    ? NFY_FILE_ERROR
                        : changed   ? NFY_FILE_CONVERTED
                        : had_error ? NFY_FILE_ERROR
                                    : NFY_FILE_UNCHANGED,
                        note);
    nfy_buf_release(&result);
    nfy_edit_set_release(&set);
    if (cr_view)
        nfy_source_release(&view);
    nfy_source_release(&src);
}

/* One open of the input serves its head, its text and its copy. */
static void convert_file(nfy__converter *c, const nfy_walk_entry *e,
                         nfy_arena *a)
{
    int in;
    struct stat sst;
    nfy_status st = nfy_file_open_read(e->path, &in, &sst);
    const char *slash = strrchr(e->rel, '/');
    const char *base = slash ? slash + 1 : e->rel;
    char head[128];
    size_t head_len = 0;
    if (!st && nfy__convert_kind_needs_head(base))
        st = nfy_file_head_fd(in, head, sizeof head, &head_len);
    if (st) {
        load_failed(c, e, -1, NULL, a, st);
    } else {
        nfy_file_kind kind = nfy__convert_classify(base, head, head_len);
        if (kind == NFY_FILE_KIND_OTHER)
            copy_other(c, e, in, &sst, a);
        else
            convert_script(c, e, kind, in, &sst, a);
    }
    if (in >= 0)
        close(in);
}

static const char *special_kind(mode_t mode)
{
    return S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" : "a device";
}

void nfy__convert_entry(nfy__converter *c, const nfy_walk_entry *e)
{
    nfy_arena a = NFY_ARENA_INIT;
    c->stats->files_seen +=
        e->kind == NFY_WALK_FILE || e->kind == NFY_WALK_SYMLINK;
    switch (e->kind) {
    case NFY_WALK_DIR:
        if (c->o->action == NFY_CONVERT_WRITE)
            nfy__convert_make_dir(c, e, &a);
        break;
    case NFY_WALK_SYMLINK:
        nfy__convert_copy_link(c, e, &a);
        break;
    case NFY_WALK_SPECIAL: {
        const char *what = special_kind(e->mode);
        nfy_diag_add_at(
            c->diags, NFY_SEV_WARNING, "convert-special", e->path, 0, 0,
            "%s, not a regular file: never opened, not copied", what);
        nfy_report_add_file(c->rep, e->rel, NFY_FILE_SKIPPED,
                            nfy_arena_fmt(&a, "%s, not copied", what));
        break;
    }
    case NFY_WALK_ERROR:
        c->stats->files_error++;
        nfy__convert_error(c, "convert-read", e->path, "cannot read",
                           nfy_status_from_errno(e->err));
        nfy_report_add_file(c->rep, e->rel, NFY_FILE_ERROR,
                            nfy__convert_note(&a, "cannot read",
                                              nfy_status_from_errno(e->err)));
        break;
    case NFY_WALK_FILE:
        if (!nfy__convert_stale_temp(c, e))
            convert_file(c, e, &a);
        break;
    }
    nfy_arena_release(&a);
}

bool nfy__convert_stopping(const nfy__converter *c)
{
    return c->o->stop && *c->o->stop;
}

static int on_entry(void *ctx, const nfy_walk_entry *e)
{
    nfy__converter *c = ctx;
    /* A single file is named as the user gave it (diagnostics, report),
     * not by its base name: there is no root to be relative to. */
    nfy_walk_entry single;
    if (c->single_file && e->kind != NFY_WALK_DIR) {
        single = *e;
        single.rel = c->o->src;
        while (single.rel[0] == '.' && single.rel[1] == '/')
            single.rel += 2;
        single.path = single.rel;
        e = &single;
    }
    if (nfy__convert_stopping(c))
        return 1;
    if (!nfy__convert_skipped(c, e->rel)) {
        nfy__convert_entry(c, e);
        if (c->o->progress)
            c->o->progress(c->o->progress_user, e->rel);
    }
    /* The entry's findings are final: keep them compact. */
    nfy_report_seal(c->rep);
    return 0;
}

nfy_status nfy_convert_run_with(const nfy_convert_opts *opts,
                                const nfy_convert_hooks *hooks, nfy_report *rep,
                                nfy_buf *diff_out, nfy_convert_stats *stats,
                                nfy_diags *diags)
{
    nfy_arena a = NFY_ARENA_INIT;
    memset(stats, 0, sizeof *stats);
    nfy_status st = nfy__convert_check_paths(opts, &a, diags);
    if (st) {
        nfy_arena_release(&a);
        return st;
    }
    struct stat sst;
    nfy__convert_setup setup;
    nfy__convert_setup_init(&setup, opts, hooks);
    if (opts->mode == NFY_CONVERT_MODE_AUTO || opts->distributed)
        setup.passes.mo.entries = nfy__convert_auto_entries(opts, &a);
    nfy_convert_passes *passes = &setup.passes;
    nfy_migrate_modules modules;
    nfy_mig_modules_init(&modules);
    nfy_mig_project_init(&passes->proj);
    nfy__converter c = {.o = opts,
                        .passes = passes,
                        .rep = rep,
                        .diff_out = diff_out,
                        .stats = stats,
                        .diags = diags,
                        .dst = opts->dst,
                        .root_fd = -1};
    if (stat(opts->src, &sst) == 0 && !S_ISDIR(sst.st_mode)) {
        c.single_file = true;
        c.dst = nfy__convert_single_dst(&a, opts);
        /* In place through a link: rewrite the file it names, keep it. */
        char real[PATH_MAX];
        c.target =
            realpath(opts->src, real) ? nfy_arena_strdup(&a, real) : opts->src;
    } else {
        if (opts->rules) {
            nfy__convert_project_modules(opts, &modules);
            passes->mo.modules = &modules;
        }
        if (opts->action == NFY_CONVERT_WRITE)
            st = nfy_mkdirs(opts->dst, 0755);
        if (st)
            nfy__convert_output_error(&c, opts->dst, st);
    }
    /* The output root, opened once: every output directory is reached
     * from it without following links. */
    const char *root = opts->action == NFY_CONVERT_IN_PLACE ? opts->src
                       : opts->action == NFY_CONVERT_WRITE  ? opts->dst
                                                            : NULL;
    if (!c.single_file && root && !c.write_rc)
        c.root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names,
                        opts->action == NFY_CONVERT_WRITE ? opts->dst : NULL};
    /* One file has nothing to share out; a capped diags would count errors
     * differently per file (see parallel.c). */
    bool parallel = opts->jobs > 1 && !c.single_file && !diags->max;
    c.cache_dirs = !parallel && !c.single_file;
    c.kept_max = nfy__convert_kept_budget(parallel ? opts->jobs : 1);
    if (opts->action == NFY_CONVERT_WRITE)
        c.umask_known = nfy_umask_get(&c.umask);
    if (!c.write_rc) {
        st = parallel ? nfy__convert_parallel(&c, &wo, opts->jobs)
                      : nfy_walk(opts->src, &wo, on_entry, &c, diags);
        if (st && !c.write_rc)
            c.write_rc = st;
    }
    nfy__convert_forget_dir(&c);
    if (c.root_fd >= 0)
        close(c.root_fd);
    if (opts->rules)
        nfy_mig_project_finish(&passes->proj, &passes->mo, rep);
    if (opts->rules && opts->distributed && !c.single_file)
        nfy__convert_write_launcher(opts, passes->hooks.decisions, rep, diags);
    nfy_mig_project_release(&passes->proj);
    nfy_mig_modules_release(&modules);
    nfy_arena_release(&a);
    return c.write_rc;
}
