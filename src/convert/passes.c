/*
 * Per-file edits for convert: shell scripts get the environment-name pass
 * (recorded here as changes) and the line rules, Dockerfiles only the line
 * rules (findings, no edits), Python files the migration passes (which
 * record their own changes and findings).
 */
#include "convert/convert_internal.h"

nfy_status nfy__convert_edits(nfy_convert_passes *p, nfy_file_kind kind,
                              const nfy_source *src, const char *rel,
                              nfy_edit_set *set, nfy_report *rep,
                              nfy_diags *diags)
{
    if (!p->o->rules)
        return NFY_OK;
    if (kind == NFY_FILE_KIND_DOCKERFILE) {
        nfy__dockerfile_findings(p->o, src, rel, rep);
        return NFY_OK;
    }
    if (kind == NFY_FILE_KIND_SHELL) {
        nfy__shell_line_findings(p->o, src, rel, rep);
        nfy_status st = nfy__shell_env_edits(p->o, src, rel, set, rep, diags);
        nfy_edit_set_normalize(set, diags);
        nfy_report_add_edits(rep, rel, set, NFY_SAFETY_SAFE);
        return st;
    }
    nfy_migrate_info info;
    nfy_status st = nfy_migrate_file(&p->mo, src, rel, set, rep, &info, diags);
    nfy_migrate_project_add(&p->proj, rel, &info);
    return st;
}
