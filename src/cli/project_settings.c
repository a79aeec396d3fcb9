/*
 * The project's settings file (npuify.toml / [tool.npuify]) under a
 * command's options: a value given on the command line wins, the file
 * fills in the rest, so `convert` in CI and the editor's `npuify lsp`
 * read the same defaults.
 */
#include "cli/project_settings.h"

#include <string.h>
#include <sys/stat.h>

/* The directory whose settings apply to src: src itself or its parent. */
static const char *settings_dir(const char *src, nfy_arena *a)
{
    struct stat st;
    if (stat(src, &st) == 0 && S_ISDIR(st.st_mode))
        return src;
    const char *slash = strrchr(src, '/');
    return slash ? nfy_arena_strndup(a, src,
                                     (size_t)(slash - src + !!(slash == src)))
                 : ".";
}

int nfy_cli_project_settings(nfy_project_config *cfg, const char *src,
                             nfy_convert_opts *conv, const char **rule_files,
                             size_t *nrule_files, size_t max_rule_files,
                             nfy_diags *diags)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_status st =
        nfy_convert_project_config_load(settings_dir(src, &a), cfg, diags);
    nfy_arena_release(&a);
    if (st)
        return NFY_EXIT_INPUT;
    if (!conv->torch_version)
        conv->torch_version = cfg->torch_version;
    if (cfg->unsafe == 1)
        conv->unsafe = true;
    if (cfg->amp == 1 && !conv->amp) {
        conv->amp = true;
        conv->amp_apex = cfg->amp_apex;
        conv->amp_bf16 = cfg->amp_bf16;
    }
    for (size_t i = 0; i < cfg->nrules; i++) {
        if (*nrule_files == max_rule_files) {
            nfy_diag_add_at(diags, NFY_SEV_ERROR, "config-rules", cfg->path, 0,
                            0, "more than %zu rule files in all",
                            max_rule_files);
            return NFY_EXIT_INPUT;
        }
        rule_files[(*nrule_files)++] = cfg->rules[i];
    }
    return -1;
}
