/*
 * The convert driver: walks the input tree, routes each file to the
 * migration (Python, shell) or to a byte-for-byte copy, and carries out the
 * action (write a new tree, diff, check, rewrite in place). One file is in
 * memory at a time (per worker with --jobs), so memory is bounded by the
 * largest file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "convert/convert_internal.h"
#include "npuify/edit.h"

/* Python and shell files larger than this are copied, not migrated. */

bool nfy__convert_skipped(const nfy__converter *c, const char *rel)
{
    for (const char *const *s = c->o->skip_rel; s && *s; s++)
        if (!strcmp(*s, rel))
            return true;
    return false;
}

static void output_error(nfy__converter *c, const char *path, nfy_status st)
{
    nfy_diag_add_at(c->diags, NFY_SEV_ERROR, "convert-write", path, 0, 0,
                    "cannot write: %s", nfy_status_str(st));
    if (!c->write_rc)
        c->write_rc = NFY_EIO;
}

static const char *out_path(nfy__converter *c, nfy_arena *a, const char *rel)
{
    return c->single_file ? c->dst : nfy_path_join(a, c->dst, rel);
}

/* Rules that match a file by its base name (e.g. "*.cu" kernels). */
static void flag_file_rules(nfy__converter *c, const char *rel)
{
    if (!c->o->rules)
        return;
    const char *slash = strrchr(rel, '/');
    nfy_str base = nfy_str_from_cstr(slash ? slash + 1 : rel);
    for (size_t i = 0; i < nfy_rule_set_count(c->o->rules); i++) {
        const nfy_rule *r = nfy_rule_set_at(c->o->rules, i);
        if (r->match != NFY_MATCH_FILE ||
            nfy_rule_activity_in(r, &c->passes->env) == NFY_RULE_INACTIVE ||
            !nfy_rule_glob(r->pattern, base))
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

static void copy_other(nfy__converter *c, const nfy_walk_entry *e, nfy_arena *a)
{
    flag_file_rules(c, e->rel);
    nfy_report_add_file(c->rep, e->rel, NFY_FILE_COPIED, NULL);
    if (c->o->action != NFY_CONVERT_WRITE)
        return;
    const char *dst = out_path(c, a, e->rel);
    nfy_status st = nfy_file_copy_atomic(e->path, dst);
    if (st)
        output_error(c, dst, st);
}

static void backup_original(nfy__converter *c, const nfy_walk_entry *e,
                            nfy_arena *a)
{
    const char *bak = nfy_arena_fmt(a, "%s.orig", e->path);
    struct stat st;
    if (lstat(bak, &st) == 0) {
        nfy_report_logf(c->rep, e->rel, "kept the existing backup %s", bak);
        return;
    }
    nfy_status rc = nfy_file_copy_atomic(e->path, bak);
    if (rc)
        output_error(c, bak, rc);
}

/* Carry out the action for a scanned file whose result is new/new_len. */
static void emit_script(nfy__converter *c, const nfy_walk_entry *e,
                        nfy_arena *a, const nfy_source *src, nfy_edit_set *set,
                        const nfy_buf *result, bool changed)
{
    const char *dst;
    nfy_status st = NFY_OK;
    switch (c->o->action) {
    case NFY_CONVERT_WRITE:
        dst = out_path(c, a, e->rel);
        /* A fresh output tree needs no per-file flush; in-place does. */
        st = nfy_file_write_atomic_flags(
            dst, changed ? result->data : src->data,
            changed ? result->len : src->len, e->mode & 07777, 0);
        if (st)
            output_error(c, dst, st);
        break;
    case NFY_CONVERT_DIFF:
        if (changed && c->diff_out &&
            nfy_edit_set_diff(set, e->rel, result->data, result->len,
                              c->diff_out))
            output_error(c, "(diff)", NFY_ELIMIT);
        break;
    case NFY_CONVERT_CHECK:
        break;
    case NFY_CONVERT_IN_PLACE:
        if (!changed)
            break;
        if (c->o->backup)
            backup_original(c, e, a);
        st = nfy_file_write_atomic(e->path, result->data, result->len,
                                   e->mode & 07777);
        if (st)
            output_error(c, e->path, st);
        break;
    }
}

static void convert_script(nfy__converter *c, const nfy_walk_entry *e,
                           nfy_file_kind kind, nfy_arena *a)
{
    nfy_source src;
    nfy_status st = nfy_source_load(&src, e->path, NFY__MAX_SCRIPT_BYTES);
    if (st) {
        nfy_diag_add_at(c->diags, NFY_SEV_ERROR, "convert-read", e->rel, 0, 0,
                        "cannot read: %s; copied unchanged",
                        nfy_status_str(st));
        c->stats->files_error++;
        nfy_report_add_file(c->rep, e->rel, NFY_FILE_ERROR, nfy_status_str(st));
        copy_other(c, e, a);
        return;
    }
    /* The display path of diagnostics is the relative one. */
    free((char *)src.path);
    src.path = strdup(e->rel);
    c->stats->files_scanned++;
    nfy_edit_set set;
    nfy_edit_set_init(&set, &src);
    size_t errors_before = nfy_diags_count(c->diags, NFY_SEV_ERROR);
    nfy__convert_edits(c->passes, kind, &src, e->rel, &set, c->rep, c->diags);
    nfy_buf result = NFY_BUF_INIT;
    if (nfy_edit_set_apply(&set, c->diags, &result))
        output_error(c, e->rel, NFY_ELIMIT);
    bool changed = result.len != src.len ||
                   (src.len && memcmp(result.data, src.data, src.len));
    if (changed)
        c->stats->files_changed++;
    bool had_error = nfy_diags_count(c->diags, NFY_SEV_ERROR) > errors_before;
    if (had_error)
        c->stats->files_error++;
    nfy_report_add_file(c->rep, e->rel,
                        changed     ? NFY_FILE_CONVERTED
                        : had_error ? NFY_FILE_ERROR
                                    : NFY_FILE_UNCHANGED,
                        had_error ? "input has errors, see diagnostics" : NULL);
    emit_script(c, e, a, &src, &set, &result, changed);
    nfy_buf_release(&result);
    nfy_edit_set_release(&set);
    nfy_source_release(&src);
}

static void convert_file(nfy__converter *c, const nfy_walk_entry *e,
                         nfy_arena *a)
{
    char head[128];
    size_t head_len = 0;
    FILE *f = fopen(e->path, "rb");
    if (f) {
        head_len = fread(head, 1, sizeof head, f);
        fclose(f);
    }
    const char *slash = strrchr(e->rel, '/');
    nfy_file_kind kind =
        nfy__convert_classify(slash ? slash + 1 : e->rel, head, head_len);
    if (kind == NFY_FILE_KIND_OTHER)
        copy_other(c, e, a);
    else
        convert_script(c, e, kind, a);
}

void nfy__convert_entry(nfy__converter *c, const nfy_walk_entry *e)
{
    nfy_arena a = NFY_ARENA_INIT;
    c->stats->files_seen += e->kind != NFY_WALK_DIR;
    if (e->kind == NFY_WALK_DIR) {
        if (c->o->action == NFY_CONVERT_WRITE) {
            const char *dst = out_path(c, &a, e->rel);
            /* Parents come first in the walk, so one mkdir is enough. */
            nfy_status st = mkdir(dst, 0755) == 0 || errno == EEXIST
                                ? NFY_OK
                                : nfy_mkdirs(dst, 0755);
            if (st)
                output_error(c, dst, st);
        }
    } else if (e->kind == NFY_WALK_SYMLINK) {
        nfy_report_add_file(c->rep, e->rel, NFY_FILE_COPIED,
                            "symbolic link, copied as a link");
        if (c->o->action == NFY_CONVERT_WRITE) {
            const char *dst = out_path(c, &a, e->rel);
            nfy_status st = nfy_symlink_copy(e->path, dst);
            if (st)
                output_error(c, dst, st);
        }
    } else {
        convert_file(c, e, &a);
    }
    nfy_arena_release(&a);
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
        e = &single;
    }
    if (!nfy__convert_skipped(c, e->rel))
        nfy__convert_entry(c, e);
    return 0;
}

/* For a single input file, -o may name a directory to put it in. */
static const char *single_dst(nfy_arena *a, const nfy_convert_opts *o)
{
    struct stat st;
    if (o->dst && stat(o->dst, &st) == 0 && S_ISDIR(st.st_mode)) {
        const char *slash = strrchr(o->src, '/');
        return nfy_path_join(a, o->dst, slash ? slash + 1 : o->src);
    }
    return o->dst;
}

nfy_status nfy_convert_run(const nfy_convert_opts *opts, nfy_report *rep,
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
    nfy_convert_passes passes;
    memset(&passes, 0, sizeof passes);
    passes.o = opts;
    passes.mo.rules = opts->rules;
    passes.mo.torch_version = opts->torch_version;
    passes.mo.flags =
        (opts->unsafe ? NFY_MIGRATE_UNSAFE : 0) |
        (opts->mode == NFY_CONVERT_MODE_AUTO ? NFY_MIGRATE_AUTO : 0) |
        (opts->amp ? NFY_MIGRATE_AMP : 0) |
        (opts->amp_apex ? NFY_MIGRATE_AMP_APEX : 0) |
        (opts->distributed ? NFY_MIGRATE_DISTRIBUTED : 0);
    passes.mo.model = opts->model;
    if (nfy_migrate_rule_env(&passes.mo, &passes.env) != NFY_OK)
        passes.env.torch_version = opts->torch_version; /* file: diagnosed */
    if (opts->mode == NFY_CONVERT_MODE_AUTO || opts->distributed)
        passes.mo.entries = nfy__auto_entries(opts, &a);
    nfy_migrate_project_init(&passes.proj);
    nfy__converter c = {opts,  &passes, rep,       diff_out, stats,
                        diags, false,   opts->dst, NFY_OK};
    if (stat(opts->src, &sst) == 0 && !S_ISDIR(sst.st_mode)) {
        c.single_file = true;
        c.dst = single_dst(&a, opts);
    } else if (opts->action == NFY_CONVERT_WRITE) {
        st = nfy_mkdirs(opts->dst, 0755);
        if (st)
            output_error(&c, opts->dst, st);
    }
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names,
                        opts->action == NFY_CONVERT_WRITE ? opts->dst : NULL};
    if (!c.write_rc) {
        /* One file has nothing to share out; a capped diags would count
         * errors differently per file (see parallel.c). */
        st = opts->jobs > 1 && !c.single_file && !diags->max
                 ? nfy__convert_parallel(&c, &wo, opts->jobs)
                 : nfy_walk(opts->src, &wo, on_entry, &c, diags);
        if (st && !c.write_rc)
            c.write_rc = st;
    }
    if (opts->rules)
        nfy_migrate_project_finish(&passes.proj, &passes.mo, rep);
    if (opts->rules && opts->distributed && !c.single_file)
        nfy__write_launcher(opts, rep, diags);
    nfy_migrate_project_release(&passes.proj);
    nfy_arena_release(&a);
    return c.write_rc;
}
