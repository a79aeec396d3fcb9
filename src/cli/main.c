/*
 * npuify command-line entry point: dispatches to one subcommand from a
 * table, git style. All work happens in the cmd_*.c files over the public
 * library API.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "core/core.h"

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"convert", nfy_cli_cmd_convert,
     "rewrite a GPU (CUDA) PyTorch project for Ascend NPU, with a report"},
    {"analyse", nfy_cli_cmd_analyse,
     "assess a project for NPU without changing it (APIs, kernels, effort)"},
    {"db", nfy_cli_cmd_db,
     "query the NPU support data: an API or operator, stats, version diff"},
    {"review", nfy_cli_cmd_review,
     "write a review page to accept or reject each edit of convert"},
    {"ops", nfy_cli_cmd_ops,
     "extract operators from profiler logs/traces, check them on torch_npu"},
    {"run", nfy_cli_cmd_run,
     "convert the project into a cache and run it there (no file touched)"},
    {"verify", nfy_cli_cmd_verify,
     "run the converted project on an emulated NPU: no CUDA call left?"},
    {"lsp", nfy_cli_cmd_lsp,
     "language server for editors: diagnostics, quick fixes, hover"},
    {"rules", nfy_cli_cmd_rules, "list the migration rules, or explain one"},
    {"tokens", nfy_cli_cmd_tokens,
     "debug: print a file's tokens as JSON lines (like python -m tokenize)"},
    {"syntax", nfy_cli_cmd_syntax,
     "debug: print a file's statement structure as JSON lines"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: npuify <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'npuify <command> --help' for a command's options.\n"
                 "Exit codes: 0 ok, 1 findings (--check), 2 usage, 3 input "
                 "errors, 4 internal.\n");
}

/* The closest command (at most two letters off), or NULL. */
static const char *closest_command(const char *name)
{
    const char *best = NULL;
    size_t best_d = 3, n = strlen(name);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        const char *c = commands[i].name;
        size_t d = nfy_cli_edit_distance(name, c);
        if (d < best_d && d < n) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

static int unknown_command(const char *name)
{
    const char *near = closest_command(name);
    if (near)
        fprintf(stderr,
                "npuify: error[usage]: unknown command '%s'; did you mean "
                "'%s'?\n\n",
                name, near);
    else
        fprintf(stderr, "npuify: error[usage]: unknown command '%s'\n\n", name);
    usage(stderr);
    return NFY_EXIT_USAGE;
}

/* "npuify help CMD": CMD's own --help, as "npuify CMD --help". */
static int help_for(const char *name)
{
    char help[] = "--help";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (!strcmp(name, commands[i].name)) {
            char *argv[] = {(char *)commands[i].name, help, NULL};
            return commands[i].fn(2, argv);
        }
    }
    return unknown_command(name);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return NFY_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "help") && argc > 2)
        return help_for(argv[2]);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return NFY_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("npuify %s\n", NPUIFY_VERSION);
        return NFY_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    return unknown_command(argv[1]);
}
