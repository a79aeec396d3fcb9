/*
 * The option groups of the commands that convert (convert, analyse,
 * review, run, verify; lsp takes the torch version): each shared option's
 * table row and its handling live here once, and every command parses them
 * into one nfy_cli_conv_args, so an option means the same in each command.
 * A command's table places the rows it takes among its own (opt_table.h);
 * where the effect differs by command (review shows the edits convert
 * would make), the row takes the command's help text.
 */
#ifndef NPUIFY_CLI_CONV_OPTIONS_H
#define NPUIFY_CLI_CONV_OPTIONS_H

#include "cli/cli_util.h"
#include "cli/opt_table.h"
#include "convert/convert.h"
#include "convert/project_config.h"

/* Above the colour options' ids (1000): every id from NFY_CLI_OPT_COLOR on
 * is handled by nfy_cli_conv_option, those below by the command. */
enum {
    NFY_CLI_OPT_TORCH = 1100, /* the torch version group */
    NFY_CLI_OPT_RULES,        /* the conversion group */
    NFY_CLI_OPT_MODE,
    NFY_CLI_OPT_UNSAFE,
    NFY_CLI_OPT_AMP,
    NFY_CLI_OPT_DISTRIBUTED,
    NFY_CLI_OPT_MAIN,
    NFY_CLI_OPT_MODEL,
    NFY_CLI_OPT_JOBS,
    NFY_CLI_OPT_QUIET, /* the output group (with the colour options) */
    NFY_CLI_OPT_VERBOSE,
    NFY_CLI_OPT_JSON_DIAGS
};

/* The torch version group. */
#define NFY_CLI_TORCH_HELP                                                     \
    "target torch/torch_npu version (default\n" NFY_CLI_DEFAULT_VERSION        \
    ", the newest that is not a beta)"
#define NFY_CLI_OPTION_TORCH_HELP(help)                                        \
    {                                                                          \
        NFY_CLI_OPT_TORCH, NULL, "--torch-version", "V", help                  \
    }
#define NFY_CLI_OPTION_TORCH NFY_CLI_OPTION_TORCH_HELP(NFY_CLI_TORCH_HELP)

/* The conversion group. */
#define NFY_CLI_OPTION_RULES                                                   \
    {                                                                          \
        NFY_CLI_OPT_RULES, NULL, "--rules", "FILE.json",                       \
            "add custom rules (npuify or msFmkTransplt schema)"                \
    }
#define NFY_CLI_OPTION_MODE                                                    \
    {                                                                          \
        NFY_CLI_OPT_MODE, NULL, "--mode", "manual|auto",                       \
            "manual: full migration (default); auto: only add\n"               \
            "import torch_npu + transfer_to_npu"                               \
    }
#define NFY_CLI_OPTION_UNSAFE(help)                                            \
    {                                                                          \
        NFY_CLI_OPT_UNSAFE, NULL, "--unsafe", NULL, help                       \
    }
#define NFY_CLI_OPTION_AMP(help)                                               \
    {                                                                          \
        NFY_CLI_OPT_AMP, NULL, "--amp", "[=torch|bf16|apex]", help             \
    }
#define NFY_CLI_OPTION_DISTRIBUTED(help)                                       \
    {                                                                          \
        NFY_CLI_OPT_DISTRIBUTED, NULL, "--distributed", NULL, help             \
    }
#define NFY_CLI_OPTION_MAIN(help)                                              \
    {                                                                          \
        NFY_CLI_OPT_MAIN, NULL, "--main", "FILE", help                         \
    }
#define NFY_CLI_OPTION_MODEL                                                   \
    {                                                                          \
        NFY_CLI_OPT_MODEL, NULL, "--model", "NAME",                            \
            "--distributed: the model variable to wrap"                        \
    }
#define NFY_CLI_OPTION_JOBS(help)                                              \
    {                                                                          \
        NFY_CLI_OPT_JOBS, "-j", "--jobs", "N", help                            \
    }

/* The output group. */
#define NFY_CLI_OPTION_QUIET(help)                                             \
    {                                                                          \
        NFY_CLI_OPT_QUIET, "-q", "--quiet", NULL, help                         \
    }
#define NFY_CLI_OPTION_VERBOSE(help)                                           \
    {                                                                          \
        NFY_CLI_OPT_VERBOSE, "-v", "--verbose", NULL, help                     \
    }
#define NFY_CLI_OPTION_JSON_DIAGS                                              \
    {                                                                          \
        NFY_CLI_OPT_JSON_DIAGS, NULL, "--json-diagnostics", NULL,              \
            "print diagnostics as JSON lines"                                  \
    }

enum { NFY_CLI_MAX_RULE_FILES = 16 };

/* The entry scripts named by --main (at most 64), NULL-terminated for
 * nfy_convert_opts.main_files. */
typedef struct {
    const char *files[65];
    size_t n;
} nfy_cli_main_list;

/* What the shared options set, for every command alike. */
typedef struct {
    nfy_convert_opts conv; /* src (the one positional), torch_version, mode,
                              unsafe, amp*, distributed, main_files, model,
                              jobs */
    const char *rule_files[NFY_CLI_MAX_RULE_FILES]; /* --rules, in order */
    size_t nrule_files;
    nfy_cli_main_list mains; /* --main */
    bool quiet, verbose;
    bool color; /* --color / --no-color; default: auto */
    bool json_diags;
    /* Set by nfy_cli_conv_prepare, freed by nfy_cli_conv_args_release: */
    nfy_project_config cfg; /* owns what the settings file adds above */
    nfy_rule_set *rules;    /* built-in + every rules file (conv.rules) */
} nfy_cli_conv_args;

/* The defaults: colour auto, backups kept, jobs threads. */
void nfy_cli_conv_args_init(nfy_cli_conv_args *a, unsigned jobs);
void nfy_cli_conv_args_release(nfy_cli_conv_args *a);

/* The online CPUs, at most 8: convert's default --jobs. */
unsigned nfy_cli_default_jobs(void);

/* Apply shared option id (>= NFY_CLI_OPT_COLOR) with its value to a; -1 to
 * go on, or the exit code of the usage error it printed. */
int nfy_cli_conv_option(const char *cmd, int id, const char *val,
                        nfy_cli_conv_args *a);

/* A command's own option (id < NFY_CLI_OPT_COLOR): -1 to go on, else an
 * exit code. */
typedef int (*nfy_cli_take_fn)(void *ctx, int id, const char *val);

/*
 * Parse argv of a command that takes one SRC with table c: the shared
 * options into a, the command's own through take, SRC into a->conv.src.
 * Refuses a second SRC, none, and --quiet with --verbose. Returns -1 to go
 * on, else an exit code (help printed, or a usage error reported).
 */
int nfy_cli_conv_parse(const nfy_cli_command *c, int argc, char **argv,
                       nfy_cli_conv_args *a, nfy_cli_take_fn take, void *ctx);

/* -1 when v names a shipped version, else the usage error's exit code
 * (the versions shipped named). */
int nfy_cli_check_torch_version(const char *cmd, const char *v);

/*
 * After parsing: the project's settings (a->cfg) under the options, the
 * torch version checked, and the rule set with every rules file loaded
 * (a->rules, a->conv.rules). Returns -1 to go on, else an exit code
 * (problems in diags).
 */
int nfy_cli_conv_prepare(const char *cmd, nfy_cli_conv_args *a,
                         nfy_diags *diags);

#endif
