/*
 * npuify analyse: the assessment before a port. Reads SRC, writes nothing
 * there, and writes the reports straight into -o DIR: the C/C++/CUDA
 * sources and dependency files first (the operators the extensions define
 * are needed to find their Python call sites), then convert's walk in
 * check mode with the assessment as its observer, so the report holds
 * everything convert finds plus the torch-API, extension and dependency
 * rows.
 */
#include <stdio.h>
#include <string.h>

#include "analyse/analyse.h"
#include "apidb/apidb.h"
#include "cli/analyse_deps.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/opt_table.h"
#include "cli/progress.h"
#include "cli/verbose.h"
#include "convert/convert.h"
#include "report/report.h"
#include "rules/rules.h"

typedef struct {
    const char *src;
    const char *out;
    const char *torch_version;
    const char *modes;
    const char *formats;
    const char *rule_files[16];
    size_t nrule_files;
    unsigned jobs;
    bool deps;
    const char *python;
    bool quiet;
    bool verbose;
    bool color;
} analyse_args;

enum analyse_opt {
    OPT_OUTPUT,
    OPT_TORCH,
    OPT_MODE,
    OPT_FORMAT,
    OPT_RULES,
    OPT_JOBS,
    OPT_DEPS,
    OPT_PYTHON,
    OPT_QUIET,
    OPT_VERBOSE
};

/* The options of analyse: its parsing and --help come from this list. */
static const nfy_cli_option analyse_opts[] = {
    {OPT_OUTPUT, "-o", "--output", "DIR", "report directory (created)"},
    {OPT_TORCH, NULL, "--torch-version", "V",
     "target torch/torch_npu version (default\n" NFY_CLI_DEFAULT_VERSION
     ", the newest that is not a beta)"},
    {OPT_MODE, NULL, "--mode", "LIST",
     "torch_apis,extensions,dependencies or all\n(default)"},
    {OPT_FORMAT, NULL, "--format", "LIST",
     "report files: " NFY_REPORT_TREE_FORMAT_NAMES "all"},
    {OPT_RULES, NULL, "--rules", "FILE.json", "add custom rules"},
    {OPT_JOBS, "-j", "--jobs", "N",
     "threads (the output is the same for any N)"},
    {OPT_DEPS, NULL, "--deps", NULL,
     "also analyse the torch API use of the installed\n"
     "third-party packages SRC imports (rows named\n"
     "deps:NAME/FILE)"},
    {OPT_PYTHON, NULL, "--python", "PY",
     "the Python asked where they are (default\npython3)"},
    {OPT_QUIET, "-q", "--quiet", NULL,
     "print only errors (no progress, no summary)"},
    {OPT_VERBOSE, "-v", "--verbose", NULL,
     "also one line per file that would change, and\nthe count of every rule"},
    NFY_CLI_COLOR_OPTIONS,
};

static const nfy_cli_command analyse_cmd = {
    "analyse",
    "usage: npuify analyse SRC -o DIR [options]\n",
    "Assess a CUDA PyTorch project for Ascend NPU without changing it: torch\n"
    "APIs unsupported or unknown for the target torch_npu, CUDA APIs, custom\n"
    "CUDA extensions and their Python call sites, Triton kernels,\n"
    "third-party libraries, CUDA-bound dependencies, and an effort estimate\n"
    "(summary.md). Reports go straight into DIR.\n",
    analyse_opts,
    sizeof analyse_opts / sizeof analyse_opts[0],
    "Exit: 0 ok (findings or not), 2 usage, 3 input or output errors.\n"};

/* One option (id from the table, its value or NULL); -1 to go on. */
static int take_option(analyse_args *a, int id, const char *val)
{
    unsigned long n;
    switch (id) {
    case OPT_OUTPUT:
        a->out = val;
        break;
    case OPT_TORCH:
        a->torch_version = val;
        break;
    case OPT_MODE:
        a->modes = val;
        break;
    case OPT_FORMAT:
        a->formats = val;
        break;
    case OPT_RULES:
        if (a->nrule_files == sizeof a->rule_files / sizeof(char *))
            return nfy_cli_usage_error("analyse", "too many --rules");
        a->rule_files[a->nrule_files++] = val;
        break;
    case OPT_JOBS:
        if (!nfy_cli_parse_uint(val, 1, 256, &n))
            return nfy_cli_usage_error("analyse",
                                       "--jobs takes a number from 1 to 256");
        a->jobs = (unsigned)n;
        break;
    case OPT_DEPS:
        a->deps = true;
        break;
    case OPT_PYTHON:
        a->python = val;
        break;
    case OPT_QUIET:
        a->quiet = true;
        break;
    case OPT_VERBOSE:
        a->verbose = true;
        break;
    case NFY_CLI_OPT_COLOR:
    case NFY_CLI_OPT_NO_COLOR:
        return nfy_cli_color_option("analyse", id, val, &a->color);
    }
    return -1;
}

static int parse_args(int argc, char **argv, analyse_args *a)
{
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int id = nfy_cli_next(&analyse_cmd, argc, argv, &i, &dashdash, &val);
        int rc = -1;
        if (id == NFY_CLI_HELP)
            return NFY_EXIT_OK;
        if (id == NFY_CLI_ERROR)
            return NFY_EXIT_USAGE;
        if (id == NFY_CLI_ARG && a->src)
            return nfy_cli_usage_error("analyse", "more than one SRC given");
        if (id == NFY_CLI_ARG)
            a->src = val;
        else if (id >= 0)
            rc = take_option(a, id, val);
        if (rc >= 0)
            return rc;
    }
    if (!a->src)
        return nfy_cli_usage_error("analyse", "no SRC given");
    if (!a->out || !a->out[0])
        return nfy_cli_usage_error("analyse", "give -o DIR");
    if (a->python && !a->python[0])
        return nfy_cli_usage_error("analyse", "--python needs a program");
    if (a->quiet && a->verbose)
        return nfy_cli_usage_error("analyse",
                                   "--quiet and --verbose exclude each other");
    return -1;
}

typedef struct {
    const nfy_analyse_opts *opts;
    nfy_analyse_exts *exts;
    nfy_report *rep;
    nfy_diags *diags;
    bool collect; /* first walk: only collect extension names */
} text_walk;

static int on_text(void *ctx, const nfy_walk_entry *e)
{
    text_walk *w = ctx;
    if (e->kind != NFY_WALK_FILE || !nfy_analyse_text_wanted(e->rel))
        return 0;
    nfy_source src;
    nfy_status st = nfy_source_load(&src, e->path, 0);
    if (st != NFY_OK) {
        if (!w->collect)
            nfy_diag_add_at(w->diags, NFY_SEV_ERROR, "analyse-read", NULL, 0, 0,
                            "%s: %s", e->rel, nfy_status_str(st));
        return 0;
    }
    if (w->collect)
        nfy_analyse_exts_scan(w->exts, &src, e->rel);
    else
        nfy_analyse_text(w->opts, &src, e->rel, w->rep);
    nfy_source_release(&src);
    return 0;
}

static nfy_status walk_text(text_walk *w, const char *src, const char *skip)
{
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names, skip};
    return nfy_walk(src, &wo, on_text, w, w->diags);
}

static int check_inputs(const analyse_args *a, unsigned *modes,
                        unsigned *formats, nfy_diags *diags)
{
    *modes = NFY_ANALYSE_ALL;
    *formats = NFY_REPORT_ALL;
    if (a->modes && nfy_analyse_modes_parse(a->modes, modes))
        return nfy_cli_usage_error(
            "analyse", "--mode takes torch_apis,extensions,dependencies,all");
    if (a->formats &&
        nfy_report_formats_parse(NFY_REPORT_KIND_TREE, a->formats, formats))
        return nfy_cli_usage_error("analyse", "unknown --format name");
    const nfy_apidb_version *v;
    if (a->torch_version &&
        nfy_apidb_version_parse(nfy_str_from_cstr(a->torch_version), &v)) {
        nfy_arena ar = NFY_ARENA_INIT;
        int rc = nfy_cli_usage_error(
            "analyse",
            nfy_arena_fmt(&ar,
                          "--torch-version %s: no data; shipped versions: "
                          "%s",
                          a->torch_version, nfy_apidb_version_list()));
        nfy_arena_release(&ar);
        return rc;
    }
    if (!nfy_cli_is_dir(a->src) && !nfy_cli_is_file_input(a->src)) {
        /* the input is the place: "SRC: error[usage]: ..." */
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "usage", a->src, 0, 0,
                        "no such file or directory");
        return NFY_EXIT_USAGE;
    }
    return -1;
}

static void print_summary(const analyse_args *a, const nfy_report *rep)
{
    if (a->verbose) {
        nfy_buf v = NFY_BUF_INIT;
        nfy_cli_verbose_files(rep, "would change", &v);
        nfy_cli_verbose_rules(rep, &v);
        fputs(nfy_buf_cstr(&v), stdout);
        nfy_buf_release(&v);
    }
    nfy_effort_counts c;
    nfy_effort e = nfy_report_effort(rep, NULL, &c);
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    printf("npuify analyse: %zu %s scanned, effort %s: %zu blocking (%zu "
           "custom %s), %zu manual, %zu automatic %s\n",
           t.files_scanned, nfy_plural(t.files_scanned, "file", "files"),
           nfy_effort_name(e), c.blocking, c.kernels,
           nfy_plural(c.kernels, "kernel", "kernels"), c.manual, c.edits,
           nfy_plural(c.edits, "edit", "edits"));
    printf("torch APIs: %zu unsupported, %zu unknown; CUDA APIs: %zu; "
           "precision advice: %zu\n",
           t.by_cat[NFY_CAT_UNSUPPORTED_API], t.by_cat[NFY_CAT_UNKNOWN_API],
           t.by_cat[NFY_CAT_CUDA_OP], t.by_cat[NFY_CAT_PRECISION_ADVICE]);
    printf("report: %s/ (summary.md first)\n", a->out);
}

static nfy_status run(const analyse_args *a, const nfy_analyse_opts *ao,
                      nfy_report *rep, nfy_diags *diags, nfy_arena *ar)
{
    const char *skip_rel[2] = {nfy_cli_rel_inside(ar, a->out, a->src), NULL};
    text_walk w = {ao, (nfy_analyse_exts *)ao->exts, rep, diags, true};
    nfy_status st = walk_text(&w, a->src, a->out);
    w.collect = false;
    if (st == NFY_OK)
        st = walk_text(&w, a->src, a->out);
    nfy_convert_opts co = {0};
    co.src = a->src;
    co.action = NFY_CONVERT_CHECK;
    co.torch_version = a->torch_version;
    co.rules = ao->rules;
    co.skip_rel = skip_rel;
    co.jobs = a->jobs;
    nfy_migrate_observer observer = nfy_analyse_observer(ao);
    nfy_convert_hooks hooks = {&observer, NULL};
    nfy_convert_stats stats;
    nfy_cli_progress progress;
    nfy_cli_progress_start(&progress, &co, stderr, a->quiet);
    nfy_status cst =
        nfy_convert_run_with(&co, &hooks, rep, NULL, &stats, diags);
    nfy_cli_progress_end(&progress);
    if (a->deps && cst == NFY_OK)
        (void)nfy_cli_analyse_deps(a->python ? a->python : "python3", a->src,
                                   ao, rep, diags);
    return st != NFY_OK ? st : cst;
}

int nfy_cmd_analyse(int argc, char **argv)
{
    analyse_args a = {0};
    a.jobs = 1;
    (void)nfy_cli_color("auto", &a.color);
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    unsigned modes, formats;
    rc = check_inputs(&a, &modes, &formats, &diags);
    nfy_rule_set *rules = rc < 0 ? nfy_rule_set_new(&diags) : NULL;
    for (size_t i = 0; rules && i < a.nrule_files && rc < 0; i++)
        if (nfy_rules_load_file(rules, a.rule_files[i], &diags))
            rc = NFY_EXIT_INPUT;
    if (rc < 0 && !rules)
        rc = NFY_EXIT_INTERNAL;
    if (rc >= 0) {
        nfy_cli_print_diags(&diags, a.color, false);
        nfy_rule_set_free(rules);
        nfy_diags_release(&diags);
        return rc;
    }
    nfy_analyse_exts exts;
    nfy_analyse_exts_init(&exts);
    nfy_analyse_opts ao = {rules, a.torch_version, modes, &exts};
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_meta meta = {NPUIFY_VERSION,
                            "analyse",
                            a.src,
                            a.torch_version,
                            a.modes ? a.modes : "all",
                            nfy_cli_is_dir(a.src) ? a.src : NULL};
    nfy_report_set_meta(&rep, &meta);
    nfy_report_use_rules(&rep, rules); /* severities: what blocks */
    nfy_arena ar = NFY_ARENA_INIT;
    nfy_status st = run(&a, &ao, &rep, &diags, &ar);
    if (st != NFY_EUSAGE && nfy_report_write(&rep, a.out, formats, &diags))
        st = NFY_EIO;
    nfy_cli_print_diags(&diags, a.color, false);
    if (!a.quiet && st != NFY_EUSAGE)
        print_summary(&a, &rep);
    rc = st == NFY_EUSAGE                               ? NFY_EXIT_USAGE
         : st || nfy_diags_count(&diags, NFY_SEV_ERROR) ? NFY_EXIT_INPUT
                                                        : NFY_EXIT_OK;
    nfy_report_release(&rep);
    nfy_analyse_exts_release(&exts);
    nfy_rule_set_free(rules);
    nfy_diags_release(&diags);
    nfy_arena_release(&ar);
    return rc;
}
