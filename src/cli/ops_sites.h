/*
 * `npuify ops`: with_stack sites joined to the user's source (the calls
 * that can dispatch each site's operator; src/cli/ops_sites.c).
 */
#ifndef NPUIFY_CLI_OPS_SITES_H
#define NPUIFY_CLI_OPS_SITES_H

#include "core/core.h"
#include "proflog/proflog.h"

/**
 * Set each site's in_source from the file its frame names, read as named
 * or under root (may be NULL). The calls live in a, which must outlive
 * the reports written from t.
 */
void nfy_cli_ops_sites_in_source(nfy_prof_table *t, const char *root,
                                 nfy_arena *a);

#endif
