/*
 * Internal to src/migrate: what nfy_migrate_file decides from its options
 * alone, once per run instead of once per file (run.c). One nfy_migrate_run
 * serves one thread: the name index keeps scratch marks, and the observer's
 * kept state is its own.
 */
#ifndef NPUIFY_MIGRATE_RUN_H
#define NPUIFY_MIGRATE_RUN_H

#include "migrate/qmatch.h"

struct nfy_migrate_run {
    nfy_migrate_opts opts;
    const char *version; /* canonical apidb version name */
    nfy_rule_env env;
    nfy_arena arena;
    mig_rule_list names;                       /* mig_rules_collect */
    mig_rule_index names_ix;                   /* over names */
    const nfy_rule *pass_rule[NFY_PASS_COUNT]; /* mig_pass_rule_in each */
    nfy_migrate_keep keep; /* the observer's, across files */
};

#endif
