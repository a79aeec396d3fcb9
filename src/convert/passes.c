/*
 * Per-file edits for convert: shell scripts get the environment-name pass
 * (recorded here as changes) and the line rules, Dockerfiles only the line
 * rules (findings, no edits), Python files the migration passes (which
 * record their own changes and findings).
 */
#include <string.h>

#include "convert/convert_internal.h"

static nfy_status file_edits(nfy_convert_passes *p, nfy_file_kind kind,
                             const nfy_source *src, const char *rel,
                             nfy_edit_set *set, nfy_report *rep,
                             nfy_diags *diags)
{
    if (!p->o->rules)
        return NFY_OK;
    nfy_migrate_script_rules scripts = {p->o->rules, &p->env};
    if (kind == NFY_FILE_KIND_DOCKERFILE) {
        nfy_mig_script_line_findings(&scripts, src, rel, NFY_CTX_DOCKERFILE,
                                     rep);
        return NFY_OK;
    }
    if (kind == NFY_FILE_KIND_SHELL) {
        nfy_mig_script_line_findings(&scripts, src, rel, NFY_CTX_SHELL, rep);
        nfy_status st =
            nfy_mig_shell_env_edits(&scripts, src, rel, set, rep, diags);
        nfy_edit_set_normalize(set, diags);
        size_t first = nfy_report_open_mark(rep), n;
        nfy_report_add_edits(rep, rel, set, NFY_SAFETY_SAFE);
        /* each change with its rule's safety (an unsafe rule under
         * --unsafe edits too) */
        nfy_finding *changes = nfy_report_open_since(rep, first, &n);
        for (size_t i = 0; i < n; i++) {
            const nfy_rule *r =
                nfy_rules_set_find(p->o->rules, changes[i].rule);
            if (r != NULL && r->safety == NFY_SAFETY_UNSAFE)
                changes[i].safety = NFY_SAFETY_UNSAFE;
        }
        return st;
    }
    /* the project is this thread's: it keeps the run state across files */
    return nfy_mig_project_file(&p->proj, &p->mo, src, rel, set, rep, diags);
}

nfy_status nfy__convert_edits(nfy_convert_passes *p, nfy_file_kind kind,
                              const nfy_source *src, const char *rel,
                              nfy_edit_set *set, nfy_report *rep,
                              nfy_diags *diags)
{
    /* a notebook's views go through this, each with its own review */
    if (kind == NFY_FILE_KIND_NOTEBOOK)
        return nfy__convert_notebook_edits(p, src, rel, set, rep, diags);
    size_t first = nfy_report_open_mark(rep);
    nfy_status st = file_edits(p, kind, src, rel, set, rep, diags);
    nfy_report_merge_sites(rep, first);
    nfy__convert_review(p, src, rel, set, rep, first, diags);
    return st;
}

void nfy__convert_setup_init(nfy__convert_setup *s, const nfy_convert_opts *o,
                             const nfy_convert_hooks *hooks)
{
    memset(s, 0, sizeof *s);
    nfy_convert_passes *p = &s->passes;
    p->o = o;
    if (hooks)
        p->hooks = *hooks;
    p->mo.rules = o->rules;
    p->mo.torch_version = o->torch_version;
    p->mo.flags = (o->unsafe ? NFY_MIGRATE_UNSAFE : 0) |
                  (o->mode == NFY_CONVERT_MODE_AUTO ? NFY_MIGRATE_AUTO : 0) |
                  (o->amp ? NFY_MIGRATE_AMP : 0) |
                  (o->amp_apex ? NFY_MIGRATE_AMP_APEX : 0) |
                  (o->amp_bf16 ? NFY_MIGRATE_AMP_BF16 : 0) |
                  (o->distributed ? NFY_MIGRATE_DISTRIBUTED : 0) |
                  (o->training ? NFY_MIGRATE_TRAINING : 0);
    p->mo.model = o->model;
    if (nfy_mig_rule_env(&p->mo, &p->env) != NFY_OK)
        p->env.torch_version = o->torch_version; /* file: diagnosed */
    p->mo.observer = p->hooks.observer;
}

nfy_status nfy__convert_file(nfy_convert_passes *p, nfy_file_kind kind,
                             const nfy_source *in, const char *rel,
                             nfy_edit_set *set, nfy_report *rep,
                             nfy_diags *diags, nfy_buf *result, bool *changed,
                             const char **unparsed)
{
    size_t errors_before = nfy_diags_count(diags, NFY_SEV_ERROR);
    size_t first = nfy_report_open_mark(rep);
    nfy__convert_edits(p, kind, in, rel, set, rep, diags);
    nfy_status st =
        nfy_edit_set_apply(set, diags, result) ? NFY_ELIMIT : NFY_OK;
    *changed = result->len != in->len ||
               (in->len && memcmp(result->data, in->data, in->len));
    *unparsed = NULL;
    if (*changed && kind == NFY_FILE_KIND_PYTHON &&
        nfy_diags_count(diags, NFY_SEV_ERROR) == errors_before &&
        !nfy__convert_reparses(diags, in, rel, set, result)) {
        *unparsed = "the rewritten file no longer parses; left unchanged";
        nfy__convert_unapply(rep, rel, first, *unparsed);
        nfy_buf_reset(result);
        nfy_buf_add(result, in->data, in->len);
        *changed = false;
    }
    return st;
}
