/*
 * npuify run: convert the script's project into the run cache and run the
 * command on the converted copy, with the same arguments, working
 * directory and environment (plus PYTHONPATH for the copy). npuify
 * replaces itself with the command (exec), so the exit code and signals
 * are the command's own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run_common.h"

static const char synopsis[] =
    "usage: npuify run [options] [--] python SCRIPT.py ARGS...\n"
    "       npuify run --print-cache | --clean-cache\n";

static const char about[] =
    "Convert SCRIPT's project (its directory, or --project DIR) for Ascend\n"
    "NPU into a cache keyed by content (reused while no byte changes) and\n"
    "run the command on the converted copy. No user file is touched.\n"
    "The cache must be yours alone (owned by you, writable by no one else,\n"
    "as ssh and git require); each entry is checked against the hashes of\n"
    "its converted files before every run and rebuilt when it changed.\n"
    "Links are pointed as Python would see them from the project: into\n"
    "the converted copy when inside it, at the original file outside it.\n";

int nfy_cli_cmd_run(int argc, char **argv)
{
    nfy_run_args args;
    int rc = nfy_cli_run_parse(argc, argv, synopsis, about, false, &args);
    if (rc >= 0)
        return rc;
    if (args.ncmd == 0 || args.clean_cache) {
        rc = nfy_cli_run_cache_only("run", &args);
        if (rc || args.ncmd == 0)
            return rc;
    }
    nfy_arena a = NFY_ARENA_INIT;
    nfy_run_plan plan;
    rc = nfy_cli_run_prepare("run", &args, &a, &plan);
    if (rc < 0 && args.print_cache) {
        printf("%s\n", plan.entry.tree);
        rc = NFY_EXIT_OK;
    }
    if (rc >= 0) {
        nfy_arena_release(&a);
        return rc;
    }
    if (setenv("PYTHONPATH", plan.pythonpath, 1) != 0) {
        fprintf(stderr, "npuify run: error[internal]: PYTHONPATH: %s\n",
                strerror(errno));
        nfy_arena_release(&a);
        return NFY_EXIT_INTERNAL;
    }
    if (nfy_cli_run_python_lacks(plan.argv, "torch_npu")) {
        fprintf(stderr,
                "%s: error[run-no-torch-npu]: torch_npu is not installed for "
                "this Python, so the converted copy cannot import it: install "
                "Ascend's torch_npu for it, or run the same command on the "
                "emulated NPU with `npuify verify -- %s ...`\n",
                plan.argv[0], plan.argv[0]);
        nfy_arena_release(&a);
        return 127;
    }
    fflush(NULL);
    execvp(plan.argv[0], plan.argv);
    fprintf(stderr, "%s: error[run]: cannot run: %s\n", plan.argv[0],
            strerror(errno));
    nfy_arena_release(&a);
    return 127;
}
