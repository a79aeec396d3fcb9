/* analyse --deps (analyse_deps.c). */
#ifndef NPUIFY_CLI_ANALYSE_DEPS_H
#define NPUIFY_CLI_ANALYSE_DEPS_H

#include "analyse/analyse.h"

/**
 * Ask python which installed packages src imports and add their torch-API
 * rows (NPU701/NPU702) to rep as "deps:NAME/FILE". Returns the number of
 * packages analysed; a Python that cannot answer is a warning in diags.
 */
size_t nfy_cli_analyse_deps(const char *python, const char *src,
                            const nfy_analyse_opts *ao, nfy_report *rep,
                            nfy_diags *diags);

#endif
