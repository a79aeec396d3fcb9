/*
 * What --verbose adds to a summary: one line per file that changed (or
 * would change) or failed, in walk order, and the count of every rule that
 * edited, so two runs over the same tree print the same lines for any -j.
 */
#ifndef NPUIFY_CLI_VERBOSE_H
#define NPUIFY_CLI_VERBOSE_H

#include "core/core.h"
#include "report/report.h"

/* changed: the verb of a changed file ("converted", "would change"). */
void nfy_cli_verbose_files(const nfy_report *rep, const char *changed,
                           nfy_buf *out);
/* "rules: NPU201 x18, NPU101 x12, ..." (count, then ID), every rule. */
void nfy_cli_verbose_rules(const nfy_report *rep, nfy_buf *out);
/* Both, printed on stdout (analyse and review, whose summary follows). */
void nfy_cli_verbose_print(const nfy_report *rep, const char *changed);

#endif
