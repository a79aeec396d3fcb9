/*
 * The public face of a report (npuify/npuify.h): made and freed by the
 * library, its findings read through nfy_finding_info copies, so the
 * report's own layout (interned strings, compact records) can change
 * without breaking a caller.
 */
#include "core/fatal.h"
#include "report/report.h"
#include "report/report_internal.h"

nfy_report *nfy_report_new(void)
{
    nfy_report *rep = malloc(sizeof *rep);
    if (!rep)
        nfy__fatal("out of memory");
    nfy_report_init(rep);
    return rep;
}

void nfy_report_free(nfy_report *rep)
{
    if (!rep)
        return;
    nfy_report_release(rep);
    free(rep);
}

/* The whole edit id of f as one of the report's strings: the report keeps
 * only its part after the file, so the whole one is made when a caller
 * first reads it (the report owns it from then on, as it owns the rest;
 * a handle is one thread's at a time, so the const read may add it). */
static const char *public_edit_id(const nfy_report *rep, const nfy_finding *f)
{
    if (!f->edit_id_in_file)
        return f->edit_id;
    nfy_buf id = NFY_BUF_INIT;
    const char *s = nfy_report_finding_edit_id(f, &id);
    s = nfy__report_intern((nfy_report *)rep, s, id.len);
    nfy_buf_release(&id);
    return s;
}

bool nfy_report_finding_get(const nfy_report *rep, size_t i,
                            nfy_finding_info *out)
{
    if (i >= nfy_report_finding_count(rep))
        return false;
    nfy_finding sealed;
    nfy_report_finding_read(rep, i, &sealed);
    const nfy_finding *f = &sealed;
    *out = (nfy_finding_info){.file = f->file,
                              .start_line = f->start_line,
                              .start_col = f->start_col,
                              .end_line = f->end_line,
                              .end_col = f->end_col,
                              .rule = f->rule,
                              .cat = f->cat,
                              .manual = nfy_report_finding_is_manual(f),
                              .api = f->api,
                              .message = f->message,
                              .before = f->before,
                              .after = f->after,
                              .edit_id = public_edit_id(rep, f)};
    return true;
}
