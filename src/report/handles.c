/*
 * The public face of a report (npuify/npuify.h): made and freed by the
 * library, its findings read through nfy_finding_info copies, so the
 * report's own layout (interned strings, compact records) can change
 * without breaking a caller.
 */
#include "core/fatal.h"
#include "report/report.h"

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
                              .manual = nfy_finding_is_manual(f),
                              .api = f->api,
                              .message = f->message,
                              .before = f->before,
                              .after = f->after,
                              .edit_id = f->edit_id};
    return true;
}
