/*
 * Public face of the migration passes (src/migrate/migrate.h): checks the
 * options, runs the passes of one file (ctx.c) in a per-file arena, turns
 * their notes and the kept edits into report findings, and keeps the
 * project-level facts (AMP anywhere?) for nfy_mig_project_finish.
 */
#include "migrate/migrate.h"

#include <string.h>

#include "apidb/apidb.h"
#include "migrate/mig.h"
#include "migrate/run.h"

/* Kind of api in msFmkTransplt's affinity table ("function", "class",
 * "torch"), or NULL. */
static const char *affinity_kind(const char *api)
{
    nfy_apidb_affinity a;
    return api != NULL && nfy_apidb_affinity_find(nfy_str_from_cstr(api), &a)
               ? a.kind
               : NULL;
}

static void add_notes(nfy_report *rep, const nfy_source *src,
                      const char *relpath, const mig_note_vec *notes)
{
    for (size_t i = 0; i < notes->len; i++) {
        const mig_note *n = &notes->items[i];
        nfy_finding f = {0};
        f.file = relpath;
        nfy_report_finding_locate(&f, src, n->span);
        f.rule = n->rule;
        f.op = n->op;
        f.safety = n->safety;
        f.cat = n->cat;
        f.api = n->api;
        f.message = n->message;
        f.after = n->after;
        f.npu_api = n->npu_api;
        f.value_set_id = n->vset_id;
        f.value_set = n->vset_name;
        if (f.cat == NFY_CAT_AFFINITY_API) { /* the fused API is the after */
            f.api_type = affinity_kind(n->api);
            if (f.after == NULL)
                f.after = n->npu_api;
        }
        nfy_report_add_finding(rep, &f);
    }
}

/* The value set tag of the edit starting at start, or NULL. */
static const mig_vtag *vtag_at(const mig_vtag_vec *tags, uint32_t start)
{
    for (size_t i = 0; i < tags->len; i++) {
        if (tags->items[i].start == start)
            return &tags->items[i];
    }
    return NULL;
}

static void add_changes(nfy_report *rep, const nfy_migrate_opts *opts,
                        const nfy_source *src, const char *relpath,
                        const nfy_edit_set *set, const mig_vtag_vec *tags,
                        nfy_arena *a)
{
    for (size_t i = 0; i < set->edits.len; i++) {
        const nfy_edit *e = &set->edits.items[i];
        nfy_finding f = {0};
        f.file = relpath;
        nfy_report_finding_locate(&f, src, e->span);
        f.rule = e->rule;
        f.op = e->span.start == e->span.end ? NFY_OPTYPE_INSERT
               : e->text.len == 0           ? NFY_OPTYPE_DELETE
                                            : NFY_OPTYPE_MODIFY;
        f.safety = nfy__mig_rule_safety(opts->rules, e->rule);
        f.cat = NFY_CAT_CHANGE;
        f.message = e->note;
        f.before = nfy_arena_strndup(a, src->data + e->span.start,
                                     e->span.end - e->span.start);
        f.after = e->text.ptr;
        const mig_vtag *vt = vtag_at(tags, e->span.start);
        if (vt != NULL) {
            f.value_set_id = vt->id;
            f.value_set = vt->name;
        }
        nfy_report_add_finding(rep, &f);
    }
}

static bool listed(const char *const *list, const char *relpath)
{
    for (size_t i = 0; list != NULL && relpath != NULL && list[i]; i++)
        if (strcmp(list[i], relpath) == 0)
            return true;
    return false;
}

static void usage_diag(const nfy_migrate_opts *opts, nfy_diags *diags)
{
    if (diags != NULL)
        nfy_diag_add(diags, NFY_SEV_ERROR, "migrate-usage", NULL, 0, 0, "%s",
                     opts == NULL || opts->rules == NULL
                         ? "no rule set given"
                         : "unknown --torch-version");
}

static const char *or_empty_hint(const char *hint)
{
    return hint ? hint : "";
}

nfy_status nfy_mig_file(const nfy_migrate_opts *opts, const nfy_source *src,
                        const char *relpath, nfy_edit_set *edits,
                        nfy_report *report, nfy_migrate_info *info,
                        nfy_diags *diags)
{
    nfy_migrate_run *run = NULL;
    nfy_status st = nfy_mig_run_new(opts, &run);
    if (st != NFY_OK) {
        if (info != NULL)
            *info = (nfy_migrate_info){0};
        usage_diag(opts, diags);
        return st;
    }
    st = nfy_mig_file_in(run, src, relpath, edits, report, info, diags);
    nfy_mig_run_free(run);
    return st;
}

nfy_status nfy_mig_file_in(nfy_migrate_run *run, const nfy_source *src,
                           const char *relpath, nfy_edit_set *edits,
                           nfy_report *report, nfy_migrate_info *info,
                           nfy_diags *diags)
{
    const nfy_migrate_opts *opts = &run->opts;
    nfy_migrate_info mi = {0};
    if (info != NULL)
        *info = mi;
    mig_params p = {opts->rules,
                    run->version,
                    opts->flags,
                    run->env,
                    listed(opts->entries, relpath),
                    relpath,
                    opts->observer,
                    report,
                    opts->entries != NULL && opts->entries[0] != NULL,
                    opts->model,
                    run};
    nfy_arena arena;
    nfy_arena_init(&arena);
    mig_note_vec notes = {0};
    mig_vtag_vec vtags = {0};
    nfy_status st =
        nfy__mig_python(&p, src, edits, &notes, &vtags, &mi, &arena, diags);
    (void)nfy_edit_set_normalize(edits, diags);
    if (report != NULL) {
        add_notes(report, src, relpath, &notes);
        add_changes(report, opts, src, relpath, edits, &vtags, &arena);
    }
    mi.edits = edits->edits.len;
    mi.findings = notes.len;
    if (info != NULL)
        *info = mi;
    nfy_vec_free(&notes);
    nfy_vec_free(&vtags);
    nfy_arena_release(&arena);
    return st;
}

nfy_status nfy_mig_project_file(nfy_migrate_project *p,
                                const nfy_migrate_opts *opts,
                                const nfy_source *src, const char *relpath,
                                nfy_edit_set *edits, nfy_report *report,
                                nfy_diags *diags)
{
    nfy_migrate_info info;
    nfy_status st;
    if (p->run == NULL && nfy_mig_run_new(opts, &p->run) != NFY_OK)
        st = nfy_mig_file(opts, src, relpath, edits, report, &info,
                          diags); /* diagnosed there */
    else
        st = nfy_mig_file_in(p->run, src, relpath, edits, report, &info, diags);
    nfy_mig_project_add(p, relpath, &info);
    return st;
}

/* ---- project
 * ----------------------------------------------------------------- */

void nfy_mig_project_init(nfy_migrate_project *p)
{
    memset(p, 0, sizeof *p);
    nfy_arena_init(&p->arena);
}

void nfy_mig_project_release(nfy_migrate_project *p)
{
    nfy_mig_run_free(p->run);
    nfy_arena_release(&p->arena);
    memset(p, 0, sizeof *p);
}

/* Keep the smallest path (any file order gives the same answer). */
static void keep_first(nfy_migrate_project *p, const char **slot,
                       uint32_t *line, const char *rel, uint32_t rel_line)
{
    if (rel == NULL)
        return;
    if (*slot == NULL || strcmp(rel, *slot) < 0) {
        *slot = nfy_arena_strndup(&p->arena, rel, strlen(rel));
        if (line != NULL)
            *line = rel_line;
    }
}

void nfy_mig_project_add(nfy_migrate_project *p, const char *relpath,
                         const nfy_migrate_info *info)
{
    p->files++;
    if (info == NULL || !info->scanned)
        return;
    p->torch_files += info->uses_torch;
    p->cuda_files += info->uses_cuda;
    if (info->uses_torch)
        keep_first(p, &p->first_torch_file, NULL, relpath, 0);
    if (info->uses_amp || info->amp_inserted) {
        p->amp_files++;
        keep_first(p, &p->first_amp_file, &p->first_amp_line, relpath,
                   info->amp_line);
    }
    if (info->fp16_line)
        keep_first(p, &p->first_fp16_file, &p->first_fp16_line, relpath,
                   info->fp16_line);
}

void nfy_mig_project_merge(nfy_migrate_project *dst,
                           const nfy_migrate_project *src)
{
    dst->files += src->files;
    dst->torch_files += src->torch_files;
    dst->amp_files += src->amp_files;
    dst->cuda_files += src->cuda_files;
    keep_first(dst, &dst->first_torch_file, NULL, src->first_torch_file, 0);
    keep_first(dst, &dst->first_amp_file, &dst->first_amp_line,
               src->first_amp_file, src->first_amp_line);
    keep_first(dst, &dst->first_fp16_file, &dst->first_fp16_line,
               src->first_fp16_file, src->first_fp16_line);
}

nfy_status nfy_mig_rule_env(const nfy_migrate_opts *opts, nfy_rule_env *out)
{
    nfy_status st = NFY_OK;
    const char *ver = nfy__mig_version_canon(opts->torch_version, &st);
    if (ver == NULL)
        return st != NFY_OK ? st : NFY_EUSAGE;
    nfy__mig_rule_env(opts->flags, ver, out);
    return NFY_OK;
}

/* A project-wide finding of rule id: advice about api, done by hand. */
static void add_advice(nfy_report *report, const char *id, const char *api,
                       const char *message)
{
    nfy_finding f = {0};
    f.rule = id;
    f.op = NFY_OPTYPE_NONE;
    f.safety = NFY_SAFETY_MANUAL;
    f.cat = NFY_CAT_PERFORMANCE_ADVICE;
    f.api = api;
    f.message = message;
    nfy_report_add_finding(report, &f);
}

/* msFmkTransplt's global advice rows (File = NA): run-time settings. */
static void global_advice(const nfy_migrate_opts *opts, const nfy_rule_env *env,
                          nfy_report *report)
{
    const char *id, *msg, *hint, *from, *note;
    if (!nfy__mig_pass_rule(opts->rules, env, NFY_PASS_GLOBAL_ADVICE, &id, &msg,
                            &hint))
        return;
    nfy_arena a;
    nfy_arena_init(&a);
    for (size_t i = 0; nfy__mig_pass_rule_row(
             opts->rules, env, NFY_PASS_GLOBAL_ADVICE, i, &from, &note);
         i++) {
        add_advice(report, id, from,
                   note ? nfy_arena_fmt(&a, "%s: %s", msg, note) : msg);
    }
    nfy_arena_release(&a);
}

void nfy_mig_project_finish(const nfy_migrate_project *p,
                            const nfy_migrate_opts *opts, nfy_report *report)
{
    const char *id, *msg, *hint;
    nfy_rule_env env;
    if (report == NULL || opts == NULL || opts->rules == NULL ||
        p->torch_files == 0 || nfy_mig_rule_env(opts, &env) != NFY_OK)
        return;
    global_advice(opts, &env, report);
    if (p->amp_files > 0 ||
        !nfy__mig_pass_rule(opts->rules, &env, NFY_PASS_AMP_MISSING, &id, &msg,
                            &hint))
        return;
    nfy_arena a;
    nfy_arena_init(&a);
    const char *fid, *fmsg, *fhint, *text;
    if (p->first_fp16_file &&
        nfy__mig_pass_rule(opts->rules, &env, NFY_PASS_AMP_MANUAL_FP16, &fid,
                           &fmsg, &fhint))
        /* fp16 by hand is not "no mixed precision": say what was found */
        text = nfy_arena_fmt(
            &a,
            "no torch AMP (autocast/GradScaler) found, but %s (%s:%u, %s). %s",
            fmsg, p->first_fp16_file, p->first_fp16_line, fid,
            or_empty_hint(nfy__mig_hint_in_env(&a, &env, fhint)));
    else
        text = nfy_arena_fmt(
            &a, "%s (%zu %s torch, none uses AMP). %s", msg, p->torch_files,
            nfy_plural(p->torch_files, "file uses", "files use"),
            or_empty_hint(nfy__mig_hint_in_env(&a, &env, hint)));
    add_advice(report, id, "AMP", text);
    nfy_arena_release(&a);
}

void nfy_mig_launcher_note(const nfy_migrate_opts *opts, nfy_report *report,
                           const char *detail)
{
    const char *id, *msg, *hint;
    nfy_rule_env env;
    if (report == NULL || opts == NULL || opts->rules == NULL ||
        nfy_mig_rule_env(opts, &env) != NFY_OK ||
        !nfy__mig_pass_rule(opts->rules, &env, NFY_PASS_LAUNCHER, &id, &msg,
                            &hint))
        return;
    nfy_arena a;
    nfy_arena_init(&a);
    add_advice(report, id, "run_distributed_npu.sh",
               nfy_arena_fmt(&a, "%s: %s", msg, detail));
    nfy_arena_release(&a);
}
