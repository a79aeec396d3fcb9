/*
 * Per-file edits for convert: shell scripts get the environment-name pass,
 * Python files the migration passes.
 */
#include "convert/convert_internal.h"

nfy_status nfy__convert_edits(const nfy_convert_opts *o, nfy_file_kind kind,
                              const nfy_source *src, const char *rel,
                              nfy_edit_set *set, nfy_report *rep,
                              nfy_diags *diags)
{
    if (kind == NFY_FILE_KIND_SHELL)
        return o->rules ? nfy__shell_env_edits(o, src, rel, set, rep, diags)
                        : NFY_OK;
    /* Python: the migrate passes are wired in once they land. */
    return NFY_OK;
}
