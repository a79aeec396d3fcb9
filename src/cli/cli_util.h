/* Small helpers shared by the CLI commands: options, paths, diagnostics. */
#ifndef NPUIFY_CLI_UTIL_H
#define NPUIFY_CLI_UTIL_H

#include "core/core.h"

/*
 * Match argv[*i] against a short and/or long option taking a value
 * ("-o X", "--output X", "--output=X"). On a match *val is set and *i
 * advanced. A missing value is a usage error that stops the program (exit
 * 2, nothing run or written); argv[0] is the command's name.
 */
bool nfy_cli_opt(int argc, char **argv, int *i, const char *short_name,
                 const char *long_name, const char **val);
/* A decimal number in [min, max], digits only (no sign, no blanks). */
bool nfy_cli_parse_uint(const char *s, unsigned long min, unsigned long max,
                        unsigned long *out);
/* Print "npuify CMD: error[usage]: MSG" and a hint to stderr; returns
 * NFY_EXIT_USAGE. */
int nfy_cli_usage_error(const char *cmd, const char *msg);
/* Levenshtein distance of two short strings (names of options, commands). */
size_t nfy_cli_edit_distance(const char *a, const char *b);
/* The usage error for an unknown option: names it, and the closest long
 * option listed in help ("did you mean '--output'?"). NFY_EXIT_USAGE. */
int nfy_cli_unknown_option(const char *cmd, const char *arg, const char *help);
/* --color=WHEN: "auto" (or NULL: a terminal on stderr and no NO_COLOR),
 * "always", "never"; false for anything else. */
bool nfy_cli_color(const char *when, bool *color);
/* Render every diagnostic to stderr (caret text or JSON lines). */
void nfy_cli_print_diags(const nfy_diags *d, bool color, bool json);
bool nfy_cli_is_dir(const char *path);
/* True when path exists and is not a directory. */
bool nfy_cli_is_file_input(const char *path);
/* path relative to root when it lies inside root, else NULL. */
const char *nfy_cli_rel_inside(nfy_arena *a, const char *path,
                               const char *root);

#endif
