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
#include "cli/analyse_deps.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/conv_options.h"
#include "cli/opt_table.h"
#include "cli/progress.h"
#include "cli/verbose.h"
#include "convert/convert.h"
#include "report/report.h"
#include "rules/rules.h"

typedef struct {
    nfy_cli_conv_args c; /* the shared options; c.conv is the check run's */
    const char *out;
    const char *modes;
    const char *formats;
    bool deps;
    const char *python;
} analyse_args;

enum analyse_opt { OPT_OUTPUT, OPT_MODE, OPT_FORMAT, OPT_DEPS, OPT_PYTHON };

/* The options of analyse: its parsing and --help come from this list. */
static const nfy_cli_option analyse_opts[] = {
    {OPT_OUTPUT, "-o", "--output", "DIR", "report directory (created)"},
    NFY_CLI_OPTION_TORCH,
    {OPT_MODE, NULL, "--mode", "LIST",
     "torch_apis,extensions,dependencies or all\n(default)"},
    {OPT_FORMAT, NULL, "--format", "LIST",
     "report files: " NFY_REPORT_TREE_FORMAT_NAMES "all"},
    NFY_CLI_OPTION_RULES,
    NFY_CLI_OPTION_JOBS("threads (the output is the same for any N)"),
    {OPT_DEPS, NULL, "--deps", NULL,
     "also analyse the torch API use of the installed\n"
     "third-party packages SRC imports (rows named\n"
     "deps:NAME/FILE)"},
    {OPT_PYTHON, NULL, "--python", "PY",
     "the Python asked where they are (default\npython3)"},
    NFY_CLI_OPTION_QUIET("print only errors (no progress, no summary)"),
    NFY_CLI_OPTION_VERBOSE("also one line per file that would change, and\n"
                           "the count of every rule"),
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

/* One of analyse's own options (id from the table, its value or NULL);
 * -1 to go on. */
static int take_option(void *ctx, int id, const char *val)
{
    analyse_args *a = ctx;
    switch (id) {
    case OPT_OUTPUT:
        a->out = val;
        break;
    case OPT_MODE:
        a->modes = val;
        break;
    case OPT_FORMAT:
        a->formats = val;
        break;
    case OPT_DEPS:
        a->deps = true;
        break;
    case OPT_PYTHON:
        a->python = val;
        break;
    }
    return -1;
}

static int parse_args(int argc, char **argv, analyse_args *a)
{
    int rc =
        nfy_cli_conv_parse(&analyse_cmd, argc, argv, &a->c, take_option, a);
    if (rc >= 0)
        return rc;
    if (!a->out || !a->out[0])
        return nfy_cli_usage_error("analyse", "give -o DIR");
    if (a->python && !a->python[0])
        return nfy_cli_usage_error("analyse", "--python needs a program");
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
    if (!nfy_cli_is_dir(a->c.conv.src) &&
        !nfy_cli_is_file_input(a->c.conv.src)) {
        /* the input is the place: "SRC: error[usage]: ..." */
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "usage", a->c.conv.src, 0, 0,
                        "no such file or directory");
        return NFY_EXIT_USAGE;
    }
    return -1;
}

static void print_summary(const analyse_args *a, const nfy_report *rep)
{
    if (a->c.verbose)
        nfy_cli_verbose_print(rep, "would change");
    nfy_effort_counts c;
    nfy_effort e = nfy_report_effort(rep, NULL, &c);
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    printf("npuify analyse: %zu %s scanned, effort %s: %zu blocking (%zu "
           "custom %s), %zu manual, %zu automatic %s\n",
           t.files_scanned, nfy_plural(t.files_scanned, "file", "files"),
           nfy_report_effort_name(e), c.blocking, c.kernels,
           nfy_plural(c.kernels, "kernel", "kernels"), c.manual, c.edits,
           nfy_plural(c.edits, "edit", "edits"));
    printf("torch APIs: %zu unsupported, %zu unknown; CUDA APIs: %zu; "
           "precision advice: %zu\n",
           t.by_cat[NFY_CAT_UNSUPPORTED_API], t.by_cat[NFY_CAT_UNKNOWN_API],
           t.by_cat[NFY_CAT_CUDA_OP], t.by_cat[NFY_CAT_PRECISION_ADVICE]);
    nfy_buf tr = NFY_BUF_INIT;
    nfy_report_render_training(rep, &tr);
    fputs(nfy_buf_cstr(&tr), stdout);
    nfy_buf_release(&tr);
    printf("report: %s/ (summary.md first)\n", a->out);
}

static nfy_status run(const analyse_args *a, const nfy_analyse_opts *ao,
                      nfy_report *rep, nfy_diags *diags, nfy_arena *ar)
{
    const char *src = a->c.conv.src;
    const char *skip_rel[2] = {nfy_cli_rel_inside(ar, a->out, src), NULL};
    text_walk w = {ao, (nfy_analyse_exts *)ao->exts, rep, diags, true};
    nfy_status st = walk_text(&w, src, a->out);
    w.collect = false;
    if (st == NFY_OK)
        st = walk_text(&w, src, a->out);
    nfy_convert_opts co = a->c.conv;
    co.action = NFY_CONVERT_CHECK;
    co.skip_rel = skip_rel;
    co.training = true; /* the summary shows what the tool understood */
    nfy_migrate_observer observer = nfy_analyse_observer(ao);
    nfy_convert_hooks hooks = {&observer, NULL};
    nfy_convert_stats stats;
    nfy_cli_progress progress;
    nfy_cli_progress_start(&progress, &co, stderr, a->c.quiet);
    nfy_status cst =
        nfy_convert_run_with(&co, &hooks, rep, NULL, &stats, diags);
    nfy_cli_progress_end(&progress);
    if (a->deps && cst == NFY_OK)
        (void)nfy_cli_analyse_deps(a->python ? a->python : "python3", src, ao,
                                   rep, diags);
    return st != NFY_OK ? st : cst;
}

int nfy_cli_cmd_analyse(int argc, char **argv)
{
    analyse_args a = {0};
    nfy_cli_conv_args_init(&a.c, 1);
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    unsigned modes, formats;
    rc = check_inputs(&a, &modes, &formats, &diags);
    if (rc < 0)
        rc = nfy_cli_conv_prepare("analyse", &a.c, &diags);
    if (rc >= 0) {
        nfy_cli_print_diags(&diags, a.c.color, false);
        nfy_cli_conv_args_release(&a.c);
        nfy_diags_release(&diags);
        return rc;
    }
    const nfy_rule_set *rules = a.c.rules;
    const char *src = a.c.conv.src;
    nfy_analyse_exts exts;
    nfy_analyse_exts_init(&exts);
    nfy_analyse_opts ao = {rules, a.c.conv.torch_version, modes, &exts};
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_meta meta = {NPUIFY_VERSION,
                            "analyse",
                            src,
                            a.c.conv.torch_version,
                            a.modes ? a.modes : "all",
                            nfy_cli_is_dir(src) ? src : NULL};
    nfy_report_set_meta(&rep, &meta);
    nfy_report_use_rules(&rep, rules); /* severities: what blocks */
    nfy_arena ar = NFY_ARENA_INIT;
    nfy_status st = run(&a, &ao, &rep, &diags, &ar);
    if (st != NFY_EUSAGE && nfy_report_write(&rep, a.out, formats, &diags))
        st = NFY_EIO;
    nfy_cli_print_diags(&diags, a.c.color, false);
    if (!a.c.quiet && st != NFY_EUSAGE)
        print_summary(&a, &rep);
    rc = st == NFY_EUSAGE                               ? NFY_EXIT_USAGE
         : st || nfy_diags_count(&diags, NFY_SEV_ERROR) ? NFY_EXIT_INPUT
                                                        : NFY_EXIT_OK;
    nfy_report_release(&rep);
    nfy_analyse_exts_release(&exts);
    nfy_cli_conv_args_release(&a.c);
    nfy_diags_release(&diags);
    nfy_arena_release(&ar);
    return rc;
}
