/*
 * The project's npuify settings, read from the project root: npuify.toml
 * (keys at its top level), else the [tool.npuify] table of pyproject.toml.
 * convert and the language server read the same file, so an editor and CI
 * agree. Keys: torch-version = "2.1", amp = true | false | "apex" | "bf16",
 * unsafe = true | false, rules = ["path/to/rules.json", ...] (relative to
 * the file). A small TOML subset: strings, booleans, one-level arrays of
 * strings, comments; anything else is an error at file:line:col.
 */
#ifndef NPUIFY_CONVERT_PROJECT_CONFIG_H
#define NPUIFY_CONVERT_PROJECT_CONFIG_H

#include "core/core.h"

typedef struct {
    const char *path;          /* the file read; NULL: none found */
    const char *torch_version; /* NULL: not set */
    int amp;                   /* -1 not set, 0 off, 1 on */
    bool amp_apex;             /* amp = "apex" */
    bool amp_bf16;             /* amp = "bf16" */
    int unsafe;                /* -1 not set, 0, 1 */
    const char **rules;        /* paths as resolved against the file's
                                  directory, NULL-terminated; NULL: none */
    size_t nrules;
    nfy_arena arena; /* owns every string above */
} nfy_project_config;

void nfy_convert_project_config_init(nfy_project_config *c);
void nfy_convert_project_config_release(nfy_project_config *c);
/*
 * Read the settings of the project at dir into c (initialised). No file is
 * NFY_OK with c->path NULL; an unreadable or malformed file is diagnosed
 * (file:line:col) and returns NFY_EIO or NFY_ESYNTAX, c then holding the
 * keys read before the error.
 */
nfy_status nfy_convert_project_config_load(const char *dir,
                                           nfy_project_config *c,
                                           nfy_diags *diags);

#endif
