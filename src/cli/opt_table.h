/*
 * Option tables: a command lists its options once (name, value, help) and
 * both parsing and --help come from that list, as curl's tool_getparam.c
 * does, so the help cannot miss an option and every unknown option is
 * answered with the closest known one.
 */
#ifndef NPUIFY_CLI_OPT_TABLE_H
#define NPUIFY_CLI_OPT_TABLE_H

#include <stdio.h>

#include "core/core.h"

typedef struct {
    int id;                /* the command's own enum value, >= 0 */
    const char *short_opt; /* "-o", or NULL */
    const char *long_opt;  /* "--output" */
    const char *arg;       /* value name ("PAGE"), NULL for a flag;
                              "[=WHEN]": an optional value, given only as
                              --opt=VALUE (*val NULL without it) */
    const char *help;      /* lines separated by '\n' */
} nfy_cli_option;

typedef struct {
    const char *name;     /* "review" */
    const char *synopsis; /* the usage lines */
    const char *about;    /* paragraphs before the options */
    const nfy_cli_option *opts;
    size_t nopts;
    const char *footer; /* after the options (exit codes), or NULL */
} nfy_cli_command;

enum {
    NFY_CLI_ARG = -1,   /* a positional argument, in *val */
    NFY_CLI_HELP = -2,  /* --help was printed: exit 0 */
    NFY_CLI_ERROR = -3, /* a usage error was printed: exit 2 */
    NFY_CLI_NONE = -4   /* "--": nothing to do, go on */
};

/* In an option's help: the default target version ("2.12"), filled in
 * from the shipped data when the help is printed. */
#define NFY_CLI_DEFAULT_VERSION "@DEFAULT_VERSION@"

/* The colour options, the same in every command that prints diagnostics:
 * their table rows and their handling live here once. */
enum { NFY_CLI_OPT_COLOR = 1000, NFY_CLI_OPT_NO_COLOR };
#define NFY_CLI_COLOR_OPTIONS                                                  \
    {NFY_CLI_OPT_COLOR, NULL, "--color", "[=WHEN]",                            \
     "colour: auto (default: a terminal and no\n"                              \
     "NO_COLOR), always (also --color alone), never"},                         \
    {                                                                          \
        NFY_CLI_OPT_NO_COLOR, NULL, "--no-color", NULL,                        \
            "the same as --color=never"                                        \
    }

/* Apply colour option id (with its value) to *color; -1 to go on, or the
 * exit code of the usage error it printed for a bad WHEN. */
int nfy_cli_color_option(const char *cmd, int id, const char *val, bool *color);

/* The --help text of c into out. */
void nfy_cli_help(const nfy_cli_command *c, FILE *out);

/*
 * The next argument argv[*i] (*i is advanced past a separate value):
 * an option id with *val set to its value (NULL for a flag), NFY_CLI_ARG,
 * NFY_CLI_HELP or NFY_CLI_ERROR. "-o X", "-oX", "--output X" and
 * "--output=X" are accepted; "--" (NFY_CLI_NONE) makes every later
 * argument positional (*dashdash keeps that state between calls).
 */
int nfy_cli_next(const nfy_cli_command *c, int argc, char **argv, int *i,
                 bool *dashdash, const char **val);

/* The exit code an id of nfy_cli_next ends the parsing with: 0 after
 * NFY_CLI_HELP, 2 after NFY_CLI_ERROR; -1 for any other id. */
int nfy_cli_parse_end(int id);

/* What nfy_cli_parse_files hands each option (id >= 0) and its value to. */
typedef void nfy_cli_on_option(void *ctx, int id, const char *val);

/*
 * All of argv parsed against c, options anywhere: each option goes to
 * on_option, the positional arguments into *files, a new array in argv
 * order (*nfiles of them; the caller frees it). -1 to go on; else the exit
 * code to end with (after --help, a usage error, no memory) and *files is
 * NULL.
 */
int nfy_cli_parse_files(const nfy_cli_command *c, int argc, char **argv,
                        nfy_cli_on_option *on_option, void *ctx,
                        const char ***files, int *nfiles);

#endif
