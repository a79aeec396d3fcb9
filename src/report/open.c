/*
 * Open findings: those of the file being converted, not sealed yet. The
 * passes after the first (the review, a notebook's relocation, a reparse
 * that fails) edit them in place through these functions, so no caller
 * reaches into the report's vectors.
 */
#include <string.h>

#include "report/report.h"

size_t nfy_report_open_mark(const nfy_report *rep)
{
    return rep->open_findings.len;
}

nfy_finding *nfy_report_open_since(nfy_report *rep, size_t mark, size_t *n)
{
    size_t len = rep->open_findings.len;
    *n = mark < len ? len - mark : 0;
    return *n ? &rep->open_findings.items[mark] : NULL;
}

void nfy_report_leave_unchanged(nfy_report *rep, nfy_finding *f,
                                const char *why)
{
    f->cat = NFY_CAT_LEFT_UNCHANGED;
    f->op = NFY_OPTYPE_NONE;
    f->message = nfy_report_strndup(rep, why, strlen(why));
}
