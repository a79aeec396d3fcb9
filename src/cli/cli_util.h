/* Small helpers shared by the CLI commands: options, paths, diagnostics. */
#ifndef NPUIFY_CLI_UTIL_H
#define NPUIFY_CLI_UTIL_H

#include "cli/exit.h"
#include "core/core.h"

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
/* How a command prints diagnostics: colour, JSON lines. */
typedef struct {
    bool color;
    bool json;
} nfy_cli_voice;
/* Say one diagnostic on stderr the way the others are printed: "FILE:
 * severity[code]: message", "npuify CMD: ..." where file is NULL, or one
 * JSON line; nothing on stderr is ever plain text beside JSON lines. */
void nfy_cli_say(const char *cmd, const nfy_cli_voice *v, nfy_severity sev,
                 const char *code, const char *file, const char *fmt, ...)
    NFY_PRINTF(6, 7);
bool nfy_cli_is_dir(const char *path);
/* True when path exists and is not a directory. */
bool nfy_cli_is_file_input(const char *path);
/* path relative to root when it lies inside root, else NULL. */
const char *nfy_cli_rel_inside(nfy_arena *a, const char *path,
                               const char *root);

#endif
