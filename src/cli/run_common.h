/*
 * What `npuify run` and `npuify verify` share: their options, finding the
 * script and its project in a command line, preparing the converted copy
 * in the run cache, and the command line and PYTHONPATH for the copy.
 */
#ifndef NPUIFY_CLI_RUN_COMMON_H
#define NPUIFY_CLI_RUN_COMMON_H

#include "cli/conv_options.h"
#include "convert/convert.h"
#include "core/core.h"
#include "runcache/runcache.h"

typedef struct {
    nfy_cli_conv_args c; /* the shared options: --mode, --torch-version,
                            --quiet */
    const char *project; /* --project DIR, else the script's dir */
    const char *cache;   /* --cache DIR (tests), else XDG */
    bool print_cache, clean_cache, print_path;
    bool as_is;         /* verify: run the files as they are, no conversion */
    unsigned timeout_s; /* verify: stop the script after this; 0: never */
    char **cmd; /* after the options: python SCRIPT ARGS..., NULL-ended */
    int ncmd;
} nfy_run_args;

/*
 * Parse argv (argv[0] is the subcommand) with the options of run (verify:
 * also --print-path and --as-is); synopsis and about head --help. Returns
 * -1 to go on, else an exit code (help printed, or a usage error
 * reported).
 */
int nfy_cli_run_parse(int argc, char **argv, const char *synopsis,
                      const char *about, bool verify, nfy_run_args *out);

/* The converted command, ready to exec. */
typedef struct {
    const char *cache_root;
    nfy_runcache_entry entry;
    char **argv; /* the command with its script replaced by the copy's */
    const char *pythonpath; /* the copy's tree first, then the old value */
} nfy_run_plan;

/*
 * Find the script (the first argument after the program that names an
 * existing *.py file), its project, convert it into the cache and build
 * the plan. Returns -1 on success, else an exit code (diagnostics
 * printed).
 */
int nfy_cli_run_prepare(const char *cmd, const nfy_run_args *args, nfy_arena *a,
                        nfy_run_plan *plan);

/*
 * True when argv[0] is a Python (its name starts with "python") in which
 * `module` cannot be imported (importlib finds no such module, with the
 * environment as it is now); false when it has it or cannot be asked.
 */
bool nfy_cli_run_python_lacks(char *const *argv, const char *module);

/* --print-cache / --clean-cache without a command. Returns an exit code. */
int nfy_cli_run_cache_only(const char *cmd, const nfy_run_args *args);

#endif
