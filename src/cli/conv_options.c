/* The shared option groups of the converting commands (conv_options.h). */
#include "cli/conv_options.h"

#include <string.h>
#include <unistd.h>

#include "apidb/apidb.h"
#include "cli/project_settings.h"
#include "rules/rules.h"

enum { MAX_JOBS = 256, DEFAULT_MAX_JOBS = 8 };

void nfy_cli_conv_args_init(nfy_cli_conv_args *a, unsigned jobs)
{
    memset(a, 0, sizeof *a);
    a->conv.backup = true;
    a->conv.jobs = jobs;
    (void)nfy_cli_color("auto", &a->color);
    nfy_convert_project_config_init(&a->cfg);
}

void nfy_cli_conv_args_release(nfy_cli_conv_args *a)
{
    nfy_rule_set_free(a->rules);
    a->rules = NULL;
    a->conv.rules = NULL;
    nfy_convert_project_config_release(&a->cfg);
}

unsigned nfy_cli_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > DEFAULT_MAX_JOBS ? DEFAULT_MAX_JOBS : (unsigned)n;
}

/* "tool" is the name `npuify run` gave manual mode first; it stays
 * accepted so no script that says it breaks. */
static int take_mode(const char *cmd, const char *val, nfy_convert_opts *c)
{
    if (!strcmp(val, "manual") || !strcmp(val, "tool"))
        c->mode = NFY_CONVERT_MODE_MANUAL;
    else if (!strcmp(val, "auto"))
        c->mode = NFY_CONVERT_MODE_AUTO;
    else
        return nfy_cli_usage_error(cmd, "--mode takes manual or auto");
    return -1;
}

static int take_amp(const char *cmd, const char *val, nfy_convert_opts *c)
{
    if (val && strcmp(val, "torch") && strcmp(val, "apex") &&
        strcmp(val, "bf16"))
        return nfy_cli_usage_error(cmd, "--amp takes torch, bf16 or apex");
    c->amp = true;
    c->amp_apex = val && !strcmp(val, "apex");
    c->amp_bf16 = val && !strcmp(val, "bf16");
    return -1;
}

static int take_jobs(const char *cmd, const char *val, nfy_convert_opts *c)
{
    unsigned long n;
    if (!nfy_cli_parse_uint(val, 1, MAX_JOBS, &n))
        return nfy_cli_usage_error(cmd, "--jobs takes a number from 1 to 256");
    c->jobs = (unsigned)n;
    return -1;
}

static int take_rules(const char *cmd, const char *val, nfy_cli_conv_args *a)
{
    if (a->nrule_files == NFY_CLI_MAX_RULE_FILES)
        return nfy_cli_usage_error(cmd, "too many --rules");
    a->rule_files[a->nrule_files++] = val;
    return -1;
}

/* One --main FILE; the list stays NULL-terminated. */
static int take_main(const char *cmd, const char *val, nfy_cli_conv_args *a)
{
    nfy_cli_main_list *l = &a->mains;
    if (l->n + 1 == sizeof l->files / sizeof l->files[0])
        return nfy_cli_usage_error(cmd, "too many --main");
    l->files[l->n++] = val;
    a->conv.main_files = l->files;
    return -1;
}

/* The options that only set a flag or keep a value. */
static void take_plain(int id, const char *val, nfy_cli_conv_args *a)
{
    switch (id) {
    case NFY_CLI_OPT_TORCH:
        a->conv.torch_version = val;
        break;
    case NFY_CLI_OPT_MODEL:
        a->conv.model = val;
        break;
    case NFY_CLI_OPT_UNSAFE:
        a->conv.unsafe = true;
        break;
    case NFY_CLI_OPT_DISTRIBUTED:
        a->conv.distributed = true;
        break;
    case NFY_CLI_OPT_QUIET:
        a->quiet = true;
        break;
    case NFY_CLI_OPT_VERBOSE:
        a->verbose = true;
        break;
    case NFY_CLI_OPT_JSON_DIAGS:
        a->json_diags = true;
        break;
    }
}

int nfy_cli_conv_option(const char *cmd, int id, const char *val,
                        nfy_cli_conv_args *a)
{
    switch (id) {
    case NFY_CLI_OPT_COLOR:
    case NFY_CLI_OPT_NO_COLOR:
        return nfy_cli_color_option(cmd, id, val, &a->color);
    case NFY_CLI_OPT_RULES:
        return take_rules(cmd, val, a);
    case NFY_CLI_OPT_MODE:
        return take_mode(cmd, val, &a->conv);
    case NFY_CLI_OPT_AMP:
        return take_amp(cmd, val, &a->conv);
    case NFY_CLI_OPT_JOBS:
        return take_jobs(cmd, val, &a->conv);
    case NFY_CLI_OPT_MAIN:
        return take_main(cmd, val, a);
    }
    take_plain(id, val, a);
    return -1;
}

/* One argument: -1 to go on, else an exit code. */
static int take_arg(const nfy_cli_command *c, int id, const char *val,
                    nfy_cli_conv_args *a, nfy_cli_take_fn take, void *ctx)
{
    if (id == NFY_CLI_HELP || id == NFY_CLI_ERROR)
        return nfy_cli_parse_end(id);
    if (id == NFY_CLI_NONE)
        return -1;
    if (id == NFY_CLI_ARG && a->conv.src)
        return nfy_cli_usage_error(c->name, "more than one SRC given");
    if (id == NFY_CLI_ARG) {
        a->conv.src = val;
        return -1;
    }
    return id >= NFY_CLI_OPT_COLOR ? nfy_cli_conv_option(c->name, id, val, a)
                                   : take(ctx, id, val);
}

int nfy_cli_conv_parse(const nfy_cli_command *c, int argc, char **argv,
                       nfy_cli_conv_args *a, nfy_cli_take_fn take, void *ctx)
{
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int id = nfy_cli_next(c, argc, argv, &i, &dashdash, &val);
        int rc = take_arg(c, id, val, a, take, ctx);
        if (rc >= 0)
            return rc;
    }
    if (!a->conv.src)
        return nfy_cli_usage_error(c->name, "no SRC given");
    if (a->quiet && a->verbose)
        return nfy_cli_usage_error(c->name,
                                   "--quiet and --verbose exclude each other");
    return -1;
}

int nfy_cli_check_torch_version(const char *cmd, const char *v)
{
    if (!v)
        return -1;
    const nfy_apidb_version *ver;
    nfy_status st = nfy_apidb_version_parse(nfy_str_from_cstr(v), &ver);
    if (st == NFY_OK)
        return -1;
    nfy_arena ar = NFY_ARENA_INIT;
    int rc = nfy_cli_usage_error(
        cmd,
        nfy_arena_fmt(&ar, "--torch-version %s: %s; shipped versions: %s", v,
                      st == NFY_ENOENT ? "no data for this version"
                                       : "not a version number",
                      nfy_apidb_version_list()));
    nfy_arena_release(&ar);
    return rc;
}

static int load_rules(const nfy_cli_conv_args *a, nfy_rule_set **out,
                      nfy_diags *diags)
{
    nfy_rule_set *set = nfy_rule_set_new(diags);
    if (!set)
        return NFY_EXIT_INTERNAL;
    for (size_t i = 0; i < a->nrule_files; i++) {
        if (nfy_rules_load_file(set, a->rule_files[i], diags)) {
            nfy_rule_set_free(set);
            return NFY_EXIT_INPUT;
        }
    }
    *out = set;
    return -1;
}

int nfy_cli_conv_prepare(const char *cmd, nfy_cli_conv_args *a,
                         nfy_diags *diags)
{
    int rc = nfy_cli_project_settings(&a->cfg, a->conv.src, &a->conv,
                                      a->rule_files, &a->nrule_files,
                                      NFY_CLI_MAX_RULE_FILES, diags);
    if (rc < 0)
        rc = nfy_cli_check_torch_version(cmd, a->conv.torch_version);
    if (rc < 0)
        rc = load_rules(a, &a->rules, diags);
    a->conv.rules = a->rules;
    return rc;
}
