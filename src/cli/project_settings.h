/* The project settings file applied to a command's options
 * (project_settings.c). */
#ifndef NPUIFY_CLI_PROJECT_SETTINGS_H
#define NPUIFY_CLI_PROJECT_SETTINGS_H

#include "cli/exit.h"
#include "convert/project_config.h"
#include "core/core.h"

/*
 * Read the settings of src's project into cfg (initialised; it owns the
 * strings put into conv and rule_files, so it lives as long as they do)
 * and fill in what the command line left unset; the file's rule files go
 * after the command line's. Returns -1 to go on, or NFY_EXIT_INPUT for a
 * malformed file (diagnosed in diags at file:line:col).
 */
int nfy_cli_project_settings(nfy_project_config *cfg, const char *src,
                             nfy_convert_opts *conv, const char **rule_files,
                             size_t *nrule_files, size_t max_rule_files,
                             nfy_diags *diags);

#endif
