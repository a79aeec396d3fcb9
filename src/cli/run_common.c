/* Shared front half of `npuify run` and `npuify verify`. */
#include "cli/run_common.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apidb/apidb.h"
#include "cli/cli_util.h"
#include "rules/rules.h"

static bool flag(const char *arg, const char *name, bool *out)
{
    if (strcmp(arg, name) != 0)
        return false;
    *out = true;
    return true;
}

static int parse_mode(const char *cmd, const char *val, nfy_run_args *out)
{
    if (val && !strcmp(val, "tool"))
        out->mode = NFY_CONVERT_MODE_MANUAL;
    else if (val && !strcmp(val, "auto"))
        out->mode = NFY_CONVERT_MODE_AUTO;
    else
        return nfy_cli_usage_error(cmd, "--mode takes 'tool' or 'auto'");
    return -1;
}

static int parse_version(const char *cmd, const char *val)
{
    const nfy_apidb_version *v;
    if (!*val) /* nfy_cli_opt said the value is missing */
        return NFY_EXIT_USAGE;
    if (!nfy_apidb_version_parse(nfy_str_from_cstr(val), &v))
        return -1;
    fprintf(stderr,
            "npuify %s: --torch-version %s: not shipped; versions: %s\n", cmd,
            val, nfy_apidb_version_list());
    return NFY_EXIT_USAGE;
}

int nfy_run_parse(int argc, char **argv, const char *usage, bool verify,
                  nfy_run_args *out)
{
    memset(out, 0, sizeof *out);
    const char *cmd = argv[0];
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *arg = argv[i], *val = NULL;
        int rc = -1;
        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            return NFY_EXIT_OK;
        }
        if (flag(arg, "--print-cache", &out->print_cache) ||
            flag(arg, "--clean-cache", &out->clean_cache) ||
            flag(arg, "--quiet", &out->quiet) ||
            (verify && flag(arg, "--print-path", &out->print_path)) ||
            (verify && flag(arg, "--as-is", &out->as_is)))
            continue;
        if (nfy_cli_opt(argc, argv, &i, NULL, "--mode", &val))
            rc = *val ? parse_mode(cmd, val, out) : NFY_EXIT_USAGE;
        else if (nfy_cli_opt(argc, argv, &i, NULL, "--project", &val))
            rc = *(out->project = val) ? -1 : NFY_EXIT_USAGE;
        else if (nfy_cli_opt(argc, argv, &i, NULL, "--cache", &val))
            rc = *(out->cache = val) ? -1 : NFY_EXIT_USAGE;
        else if (nfy_cli_opt(argc, argv, &i, NULL, "--torch-version", &val))
            rc = parse_version(cmd, out->torch_version = val);
        else
            rc = nfy_cli_unknown_option(cmd, argv[i], usage);
        if (rc >= 0)
            return rc;
    }
    out->cmd = argv + i;
    out->ncmd = argc - i;
    if (out->ncmd == 0 && !out->print_cache && !out->clean_cache &&
        !out->print_path)
        return nfy_cli_usage_error(cmd, "no command to run (-- python "
                                        "SCRIPT ARGS...)");
    return -1;
}

static bool is_python_file(const char *arg)
{
    size_t n = strlen(arg);
    struct stat st;
    return n > 3 && !strcmp(arg + n - 3, ".py") && stat(arg, &st) == 0 &&
           S_ISREG(st.st_mode);
}

/* Index of the script in cmd (never 0: that is the program), or -1. */
static int script_index(const nfy_run_args *args)
{
    for (int i = 1; i < args->ncmd; i++)
        if (is_python_file(args->cmd[i]))
            return i;
    return -1;
}

static const char *dir_of(nfy_arena *a, const char *real)
{
    const char *slash = strrchr(real, '/');
    return slash == real ? "/"
                         : nfy_arena_strndup(a, real, (size_t)(slash - real));
}

static int fail(const char *cmd, nfy_diags *diags, int code)
{
    nfy_cli_print_diags(diags, isatty(STDERR_FILENO), false);
    nfy_diags_release(diags);
    (void)cmd;
    return code;
}

static int convert(const char *cmd, const nfy_run_args *args, nfy_arena *a,
                   const char *project, nfy_run_plan *plan)
{
    nfy_diags diags;
    nfy_diags_init(&diags);
    if (nfy_runcache_root(a, args->cache, &plan->cache_root, &diags))
        return fail(cmd, &diags, NFY_EXIT_USAGE);
    nfy_rule_set *rules = nfy_rule_set_new(&diags);
    if (!rules)
        return fail(cmd, &diags, NFY_EXIT_INTERNAL);
    nfy_runcache_opts ro = {project,    plan->cache_root,
                            args->mode, args->torch_version,
                            rules,      NPUIFY_VERSION};
    nfy_status st = nfy_runcache_prepare(&ro, a, &plan->entry, &diags);
    nfy_rule_set_free(rules);
    if (st)
        return fail(cmd, &diags,
                    st == NFY_EUSAGE || st == NFY_ENOENT ? NFY_EXIT_USAGE
                                                         : NFY_EXIT_INPUT);
    nfy_diags_release(&diags);
    return -1;
}

static const char *join_path_var(nfy_arena *a, const char *first)
{
    const char *old = getenv("PYTHONPATH");
    return old && *old ? nfy_arena_fmt(a, "%s:%s", first, old)
                       : nfy_arena_strdup(a, first);
}

int nfy_run_prepare(const char *cmd, const nfy_run_args *args, nfy_arena *a,
                    nfy_run_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    int si = script_index(args);
    char script[PATH_MAX];
    if (si > 0 && !realpath(args->cmd[si], script))
        si = -1;
    if (si < 0 && !args->project)
        return nfy_cli_usage_error(cmd, "no SCRIPT.py in the command: name "
                                        "the project with --project DIR");
    char project[PATH_MAX];
    const char *proj = args->project ? args->project : dir_of(a, script);
    if (!realpath(proj, project)) {
        fprintf(stderr, "npuify %s: %s: not a directory\n", cmd, proj);
        return NFY_EXIT_USAGE;
    }
    const char *rel = si > 0 ? nfy_cli_rel_inside(a, script, project) : NULL;
    if (si > 0 && !rel) {
        fprintf(stderr, "npuify %s: %s lies outside the project %s\n", cmd,
                script, project);
        return NFY_EXIT_USAGE;
    }
    int rc = -1;
    if (args->as_is) {
        plan->entry.project = plan->entry.tree = nfy_arena_strdup(a, project);
        rel = si > 0 ? args->cmd[si] : NULL;
    } else
        rc = convert(cmd, args, a, project, plan);
    if (rc >= 0)
        return rc;
    plan->argv = nfy_arena_calloc(a, (size_t)args->ncmd + 1, sizeof(char *));
    for (int i = 0; i < args->ncmd; i++)
        plan->argv[i] = args->cmd[i];
    if (si > 0 && !args->as_is)
        plan->argv[si] = nfy_path_join(a, plan->entry.tree, rel);
    plan->pythonpath = join_path_var(a, plan->entry.tree);
    return -1;
}

int nfy_run_cache_only(const char *cmd, const nfy_run_args *args)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_diags diags;
    nfy_diags_init(&diags);
    const char *root;
    int rc = NFY_EXIT_OK;
    if (nfy_runcache_root(&a, args->cache, &root, &diags))
        rc = NFY_EXIT_USAGE;
    else if (args->clean_cache && nfy_runcache_clean(root, &diags))
        rc = NFY_EXIT_INPUT;
    else if (args->print_cache)
        printf("%s\n", root);
    if (rc)
        (void)fail(cmd, &diags, rc);
    else
        nfy_diags_release(&diags);
    nfy_arena_release(&a);
    return rc;
}
