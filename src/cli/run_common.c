/* Shared front half of `npuify run` and `npuify verify`. */
#include "cli/run_common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/conv_options.h"
#include "cli/opt_table.h"
#include "core/spawn.h"
#include "rules/rules.h"

enum run_opt {
    OPT_PROJECT,
    OPT_PRINT_CACHE,
    OPT_CLEAN_CACHE,
    OPT_CACHE,
    OPT_AS_IS,      /* verify only: from here on */
    OPT_PRINT_PATH, /* verify only */
    OPT_TIMEOUT     /* verify only */
};

/* verify's default --timeout: long enough for any check on the CPU, short
 * enough that a hung script does not look like a slow one for ever. */
enum { VERIFY_DEFAULT_TIMEOUT_S = 3600 };

/* The options of run and verify: verify's table is run's plus the last
 * three rows (OPT_AS_IS on), so both parse and document the shared ones
 * alike. */
static const nfy_cli_option run_opts[] = {
    NFY_CLI_OPTION_MODE,
    {OPT_PROJECT, NULL, "--project", "DIR",
     "the tree to convert (default: SCRIPT's dir)"},
    NFY_CLI_OPTION_TORCH,
    {OPT_PRINT_CACHE, NULL, "--print-cache", NULL,
     "print the cache directory (with a command: the\n"
     "converted copy), run nothing"},
    {OPT_CLEAN_CACHE, NULL, "--clean-cache", NULL,
     "remove the cache's entries, through a link too\n"
     "(then run the command, if any)"},
    {OPT_CACHE, NULL, "--cache", "DIR",
     "cache directory (default: $XDG_CACHE_HOME/npuify,\n"
     "else ~/.cache/npuify)"},
    NFY_CLI_OPTION_QUIET("print only errors"),
    {OPT_AS_IS, NULL, "--as-is", NULL,
     "run the files as they are (a project already\n"
     "converted by hand or by convert), no cache"},
    {OPT_PRINT_PATH, NULL, "--print-path", NULL,
     "print the emulator's directory"},
    {OPT_TIMEOUT, NULL, "--timeout", "T",
     "stop the script (its whole process group) after T\n"
     "seconds (or Nm, Nh); 0: never (default: 1h)"},
};

enum {
    VERIFY_NOPTS = sizeof run_opts / sizeof run_opts[0],
    RUN_NOPTS = VERIFY_NOPTS - (OPT_TIMEOUT - OPT_AS_IS + 1)
};

/* A value that names a path may not be empty. */
static int path_value(const char *cmd, const char *opt, const char *val,
                      const char **out)
{
    *out = val;
    if (*val)
        return -1;
    nfy_arena a = NFY_ARENA_INIT;
    int rc =
        nfy_cli_usage_error(cmd, nfy_arena_fmt(&a, "%s needs a value", opt));
    nfy_arena_release(&a);
    return rc;
}

/* "90", "90s", "10m", "1h"; 0 is no limit. */
static int parse_timeout(const char *cmd, const char *val, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(val, &end, 10);
    unsigned long unit = !strcmp(end, "") || !strcmp(end, "s") ? 1
                         : !strcmp(end, "m")                   ? 60
                         : !strcmp(end, "h")                   ? 3600
                                                               : 0;
    if (end == val || *val == '-' || !unit || errno || n > 30UL * 86400 / unit)
        return nfy_cli_usage_error(cmd, "--timeout takes seconds (90, 90s), "
                                        "minutes (10m) or hours (1h); 0: "
                                        "no limit");
    *out = (unsigned)(n * unit);
    return -1;
}

static int take_option(const char *cmd, int id, const char *val,
                       nfy_run_args *out)
{
    if (id >= NFY_CLI_OPT_COLOR)
        return nfy_cli_conv_option(cmd, id, val, &out->c);
    switch (id) {
    case OPT_PROJECT:
        return path_value(cmd, "--project", val, &out->project);
    case OPT_CACHE:
        return path_value(cmd, "--cache", val, &out->cache);
    case OPT_PRINT_CACHE:
        out->print_cache = true;
        break;
    case OPT_CLEAN_CACHE:
        out->clean_cache = true;
        break;
    case OPT_AS_IS:
        out->as_is = true;
        break;
    case OPT_PRINT_PATH:
        out->print_path = true;
        break;
    case OPT_TIMEOUT:
        return parse_timeout(cmd, val, &out->timeout_s);
    }
    return -1;
}

int nfy_cli_run_parse(int argc, char **argv, const char *synopsis,
                      const char *about, bool verify, nfy_run_args *out)
{
    memset(out, 0, sizeof *out);
    nfy_cli_conv_args_init(&out->c, 1);
    out->timeout_s = verify ? VERIFY_DEFAULT_TIMEOUT_S : 0;
    const char *cmd = argv[0];
    const nfy_cli_command table = {
        cmd,
        synopsis,
        about,
        run_opts,
        verify ? VERIFY_NOPTS : RUN_NOPTS,
        verify
            ? "Exit: 0 the script ran to its end with no problem, 1 "
              "otherwise (also\nwhen it ran past --timeout), 2 usage, 3 "
              "input errors, 4 internal,\n128+N stopped by signal N (sent "
              "on to the script's process group).\n"
            : "Exit: the command's own (npuify replaces itself with it); "
              "2 usage,\n3 input errors (an unsafe cache too), 127 the command "
              "cannot run\n(torch_npu missing for its Python).\n"};
    bool dashdash = false;
    int i = 1;
    for (; i < argc; i++) {
        const char *val;
        int id = nfy_cli_next(&table, argc, argv, &i, &dashdash, &val);
        if (nfy_cli_parse_end(id) >= 0)
            return nfy_cli_parse_end(id);
        if (id == NFY_CLI_NONE) {
            i++;
            break;
        }
        if (id == NFY_CLI_ARG) /* the command: the rest is its own */
            break;
        int rc = take_option(cmd, id, val, out);
        if (rc >= 0)
            return rc;
    }
    out->cmd = argv + i;
    out->ncmd = argc - i;
    int rc = nfy_cli_check_torch_version(cmd, out->c.conv.torch_version);
    if (rc >= 0)
        return rc;
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

/* With no script found: why the first *.py argument names none (not
 * there, not a file), with *arg set to it; NULL when there is none. */
static const char *missing_script(const nfy_run_args *args, const char **arg)
{
    for (int i = 1; i < args->ncmd; i++) {
        *arg = args->cmd[i];
        size_t n = strlen(*arg);
        if (**arg == '-' || n <= 3 || strcmp(*arg + n - 3, ".py"))
            continue;
        struct stat st;
        int err = stat(*arg, &st) != 0 ? errno : 0;
        return err == ENOENT          ? "does not exist"
               : err                  ? strerror(err)
               : S_ISFIFO(st.st_mode) ? "a FIFO, not a regular file"
               : S_ISDIR(st.st_mode)  ? "a directory, not a script"
                                      : "not a regular file";
    }
    return NULL;
}

static int say_missing(const char *cmd, const char *arg, const char *why)
{
    fprintf(stderr,
            "%s: error[run-script]: cannot run this script: %s (npuify %s)\n",
            arg, why, cmd);
    return NFY_EXIT_USAGE;
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

/* What the cache itself says (an entry rebuilt, a FIFO left out, a file
 * that changed during the build); convert's own findings on the copy are
 * the report's, not this run's. */
static void print_cache_notes(const nfy_diags *all)
{
    nfy_diags notes;
    nfy_diags_init(&notes);
    nfy_diag_info d;
    for (size_t i = 0; nfy_diags_get(all, i, &d); i++)
        if (d.code && !strncmp(d.code, "cache-", 6))
            nfy_diag_add_at(&notes, d.severity, d.code, d.file, d.line, d.col,
                            "%s", d.message);
    nfy_cli_print_diags(&notes, isatty(STDERR_FILENO), false);
    nfy_diags_release(&notes);
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
    nfy_runcache_opts ro = {project,
                            plan->cache_root,
                            args->c.conv.mode,
                            args->c.conv.torch_version,
                            rules,
                            NPUIFY_VERSION};
    nfy_status st = nfy_runcache_prepare(&ro, a, &plan->entry, &diags);
    nfy_rule_set_free(rules);
    if (st)
        return fail(cmd, &diags,
                    st == NFY_EUSAGE || st == NFY_ENOENT ? NFY_EXIT_USAGE
                                                         : NFY_EXIT_INPUT);
    if (!args->c.quiet)
        print_cache_notes(&diags);
    nfy_diags_release(&diags);
    return -1;
}

static const char *join_path_var(nfy_arena *a, const char *first)
{
    const char *old = getenv("PYTHONPATH");
    return old && *old ? nfy_arena_fmt(a, "%s:%s", first, old)
                       : nfy_arena_strdup(a, first);
}

int nfy_cli_run_prepare(const char *cmd, const nfy_run_args *args, nfy_arena *a,
                        nfy_run_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    int si = script_index(args);
    char script[PATH_MAX];
    if (si > 0 && !realpath(args->cmd[si], script))
        si = -1;
    const char *arg = NULL;
    const char *missing = si < 0 ? missing_script(args, &arg) : NULL;
    if (missing && !args->project)
        return say_missing(cmd, arg, missing);
    if (si < 0 && !args->project)
        return nfy_cli_usage_error(cmd, "no SCRIPT.py in the command: name "
                                        "the project with --project DIR");
    char project[PATH_MAX];
    const char *proj = args->project ? args->project : dir_of(a, script);
    if (!realpath(proj, project)) {
        fprintf(stderr, "%s: error[usage]: not a directory (npuify %s)\n", proj,
                cmd);
        return NFY_EXIT_USAGE;
    }
    if (missing)
        return say_missing(cmd, arg, missing);
    const char *rel = si > 0 ? nfy_cli_rel_inside(a, script, project) : NULL;
    if (si > 0 && !rel) {
        fprintf(stderr,
                "%s: error[usage]: lies outside the project %s (npuify %s)\n",
                script, project, cmd);
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

bool nfy_cli_run_python_lacks(char *const *argv, const char *module)
{
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (strncmp(base, "python", 6))
        return false;
    static const char probe[] =
        "import importlib.util, sys\n"
        "sys.exit(0 if importlib.util.find_spec(sys.argv[1]) else 3)\n";
    char *const pargv[] = {argv[0], (char *)"-c", (char *)probe, (char *)module,
                           NULL};
    nfy_spawn_opts o = {.argv = pargv, .output = NFY_SPAWN_DISCARD};
    nfy_spawn_result r;
    nfy_spawn(&o, NULL, &r);
    return r.started && r.status == 3;
}

int nfy_cli_run_cache_only(const char *cmd, const nfy_run_args *args)
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
