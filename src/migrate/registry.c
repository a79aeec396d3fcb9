/*
 * The pass loop of a Python file: the rows of the pass table
 * (rules/pass_table.h) that migrate's registry runs, in table order. A
 * dedicated pass finds its rule by its id, never by a string; a generic
 * pass interprets the generic rule kinds. The other rows run inside a pass,
 * at project level (migrate.c), in convert or in analyse.
 */
#include "migrate/migrate.h"
#include "migrate/pass.h"

typedef enum {
    MIG_RUN_ALL,  /* tool and --mode auto */
    MIG_RUN_TOOL, /* not under --mode auto */
    MIG_RUN_AUTO  /* only under --mode auto */
} mig_pass_modes;

typedef struct {
    void (*run)(mig_ctx *c);
    mig_pass_modes modes; /* the modes it runs in */
} mig_pass_row;

static const mig_pass_row rows[] = {
#define MIG_ROW(id, name, kind, state, run, modes, host)                       \
    MIG_IF_REGISTRY_##host({nfy__mig_pass_##run, MIG_RUN_##modes}, )
    NFY_PASS_TABLE(MIG_ROW)
#undef MIG_ROW
};

/* Every row has a host but a preview pass's (host NONE). */
bool nfy_mig_runs_pass(nfy_pass_id pass)
{
    const nfy_pass_info *p = nfy_rules_pass_info_of(pass);
    return p != NULL && p->host[0] != '\0';
}

void nfy__mig_run_passes(mig_ctx *c)
{
    bool autom = (c->p->flags & NFY_MIGRATE_AUTO) != 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].modes == MIG_RUN_ALL ||
            (rows[i].modes == MIG_RUN_AUTO) == autom)
            rows[i].run(c);
}
