/*
 * The run state of nfy_mig_file (run.h): the canonical version, the
 * rule environment, the name rules with their index and each dedicated
 * pass's active rule depend on the options only, so a driver of many files
 * builds them once instead of once a file. Also the version questions the
 * passes ask apidb (torch.npu's attributes in that version).
 */
#include "migrate/run.h"

#include <stdlib.h>

#include "apidb/apidb.h"

const char *nfy__mig_version_canon(const char *text, nfy_status *st)
{
    const nfy_apidb_version *v = NULL;
    *st = NFY_OK;
    if (text == NULL || text[0] == '\0')
        v = nfy_apidb_version_default();
    else
        *st = nfy_apidb_version_parse(nfy_str_from_cstr(text), &v);
    if (*st != NFY_OK || v == NULL) {
        if (*st == NFY_OK)
            *st = NFY_EUSAGE;
        return NULL;
    }
    return v->name;
}

static const nfy_apidb_version *version_of(const char *ver)
{
    const nfy_apidb_version *v = NULL;
    if (ver == NULL ||
        nfy_apidb_version_parse(nfy_str_from_cstr(ver), &v) != NFY_OK)
        return nfy_apidb_version_default();
    return v;
}

bool nfy__mig_npu_has(const char *ver, nfy_str qual)
{
    return nfy_apidb_npu_module_has(version_of(ver), qual, NULL);
}

bool nfy__mig_restriction(const char *ver, nfy_str qual,
                          nfy_api_restriction *out)
{
    return nfy_apidb_api_restriction(version_of(ver), qual, out);
}

static void find_pass_rules(nfy_migrate_run *run)
{
    for (int i = 0; i < NFY_PASS_COUNT; i++)
        run->pass_rule[i] =
            nfy__mig_pass_rule_in(run->opts.rules, &run->env, (nfy_pass_id)i);
}

nfy_status nfy_mig_run_new(const nfy_migrate_opts *opts, nfy_migrate_run **out)
{
    *out = NULL;
    nfy_status st = NFY_OK;
    const char *ver =
        opts != NULL ? nfy__mig_version_canon(opts->torch_version, &st) : NULL;
    if (opts == NULL || opts->rules == NULL || ver == NULL)
        return NFY_EUSAGE;
    nfy_migrate_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        abort(); /* as every allocation of the library */
    run->opts = *opts;
    run->version = ver;
    nfy__mig_rule_env(opts->flags, ver, &run->env);
    nfy_arena_init(&run->arena);
    nfy_pysyn_front_scratch_init(&run->front);
    nfy__mig_rules_collect(opts->rules, &run->env, &run->names);
    nfy__mig_rindex_build(&run->names_ix, &run->names, &run->arena);
    run->cand =
        nfy_arena_alloc(&run->arena, (run->names.len + 1) * sizeof *run->cand);
    find_pass_rules(run);
    nfy__mig_str_rules_build(opts->rules, &run->env, &run->arena,
                             &run->strings);
    nfy__mig_imp_rules_build(opts->rules, &run->env, &run->arena,
                             &run->imports);
    nfy__mig_shell_rules_build(opts->rules, &run->env, &run->shell);
    *out = run;
    return NFY_OK;
}

void nfy_mig_run_free(nfy_migrate_run *run)
{
    if (run == NULL)
        return;
    if (run->keep.free_fn != NULL)
        run->keep.free_fn(run->keep.state);
    nfy_vec_free(&run->names);
    nfy_vec_free(&run->strings.all);
    nfy_vec_free(&run->imports.all);
    nfy_vec_free(&run->imports.rules);
    nfy__mig_shell_rules_free(&run->shell);
    nfy_arena_release(&run->arena);
    nfy_pysyn_front_scratch_release(&run->front);
    free(run);
}
