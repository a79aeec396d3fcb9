/*
 * Convert one file held in memory (an editor's unsaved buffer): the same
 * per-file pipeline as a tree's files (classification, passes, review ids,
 * the edit set), with nothing read from or written to disk.
 */
#include <string.h>

#include "convert/convert_internal.h"
#include "edit/edit.h"

static nfy_file_kind buffer_kind(const char *rel, const char *bytes, size_t len)
{
    const char *slash = strrchr(rel, '/');
    const char *base = slash ? slash + 1 : rel;
    size_t head_len = len < 128 ? len : 128;
    return nfy__convert_classify(base, bytes, head_len);
}

/* The passes over src into rep, the converted bytes into out. */
static void convert_source(nfy_convert_passes *p, nfy_file_kind kind,
                           const nfy_source *src, const char *rel,
                           nfy_report *rep, nfy_buf *out, nfy_diags *diags)
{
    nfy_source view;
    bool cr_view = nfy__convert_cr_view(src, &view);
    const nfy_source *in = cr_view ? &view : src;
    nfy_edit_set set;
    nfy_edit_set_init(&set, in);
    nfy_buf result = NFY_BUF_INIT;
    bool changed = false;
    const char *unparsed = NULL;
    if (nfy__convert_file(p, kind, in, rel, &set, rep, diags, &result, &changed,
                          &unparsed))
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-edit", rel, 0, 0,
                        "the edits do not fit the size limit");
    if (cr_view)
        nfy__convert_cr_restore(&result);
    nfy_report_add_file(rep, rel,
                        changed    ? NFY_FILE_CONVERTED
                        : unparsed ? NFY_FILE_ERROR
                                   : NFY_FILE_UNCHANGED,
                        unparsed);
    if (out)
        nfy_buf_add(out, result.data, result.len);
    nfy_buf_release(&result);
    nfy_edit_set_release(&set);
    if (cr_view)
        nfy_source_release(&view);
}

nfy_status nfy_convert_buffer_with(const nfy_convert_opts *opts,
                                   const nfy_convert_hooks *hooks,
                                   const char *rel, const char *bytes,
                                   size_t len, nfy_report *rep, nfy_buf *out,
                                   nfy_diags *diags)
{
    if (!opts || !rel || !rep || (!bytes && len))
        return NFY_EUSAGE;
    if (len > NFY__MAX_SCRIPT_BYTES) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-read", rel, 0, 0,
                        "larger than %d MiB, not converted",
                        NFY__MAX_SCRIPT_BYTES >> 20);
        return NFY_ELIMIT;
    }
    nfy_file_kind kind = buffer_kind(rel, bytes ? bytes : "", len);
    if (kind == NFY_FILE_KIND_OTHER || !opts->rules) {
        nfy_report_add_file(rep, rel, NFY_FILE_COPIED, NULL);
        if (out)
            nfy_buf_add(out, bytes ? bytes : "", len);
        return NFY_OK;
    }
    nfy_source src;
    nfy_status st = nfy_source_from_mem(&src, rel, bytes ? bytes : "", len);
    if (st) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-read", rel, 0, 0,
                        "cannot load: %s", nfy_status_str(st));
        return st;
    }
    nfy__convert_setup setup;
    nfy__convert_setup_init(&setup, opts, hooks);
    /* the buffer is its own entry script (--mode auto, --distributed) */
    const char *entries[] = {rel, NULL};
    if (opts->mode == NFY_CONVERT_MODE_AUTO || opts->distributed)
        setup.passes.mo.entries = entries;
    nfy_mig_project_init(&setup.passes.proj);
    convert_source(&setup.passes, kind, &src, rel, rep, out, diags);
    nfy_mig_project_finish(&setup.passes.proj, &setup.passes.mo, rep);
    nfy_mig_project_release(&setup.passes.proj);
    nfy_report_seal(rep);
    nfy_source_release(&src);
    return NFY_OK;
}
