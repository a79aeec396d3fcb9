/* Small helpers shared by the CLI commands: options, paths, diagnostics. */
#ifndef NPUIFY_CLI_UTIL_H
#define NPUIFY_CLI_UTIL_H

#include "npuify/core.h"

/*
 * Match argv[*i] against a short and/or long option taking a value
 * ("-o X", "--output X", "--output=X"). On a match *val is set (NULL when
 * the value is missing: the caller reports it) and *i advanced.
 */
bool nfy_cli_opt(int argc, char **argv, int *i, const char *short_name,
                 const char *long_name, const char **val);
/* A decimal number in [min, max], digits only (no sign, no blanks). */
bool nfy_cli_parse_uint(const char *s, unsigned long min, unsigned long max,
                        unsigned long *out);
/* Print "npuify CMD: MSG" and a hint to stderr; returns NFY_EXIT_USAGE. */
int nfy_cli_usage_error(const char *cmd, const char *msg);
/* Render every diagnostic to stderr (caret text or JSON lines). */
void nfy_cli_print_diags(const nfy_diags *d, bool color, bool json);
bool nfy_cli_is_dir(const char *path);
/* True when path exists and is not a directory. */
bool nfy_cli_is_file_input(const char *path);
/* path relative to root when it lies inside root, else NULL. */
const char *nfy_cli_rel_inside(nfy_arena *a, const char *path,
                               const char *root);

#endif
