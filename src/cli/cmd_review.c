/*
 * npuify review: convert SRC without writing anything and write the review
 * page, where each edit is accepted or rejected; the saved decisions go to
 * `npuify convert --decisions FILE`.
 */
#include <stdio.h>
#include <string.h>

#include "apidb/apidb.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/opt_table.h"
#include "cli/progress.h"
#include "cli/verbose.h"
#include "convert/convert.h"
#include "report/report.h"
#include "review/review.h"
#include "rules/rules.h"

enum review_opt {
    OPT_OUTPUT,
    OPT_TORCH,
    OPT_RULES,
    OPT_AMP,
    OPT_UNSAFE,
    OPT_DISTRIBUTED,
    OPT_MAIN,
    OPT_MODEL,
    OPT_QUIET,
    OPT_VERBOSE
};

static const nfy_cli_option review_opts[] = {
    {OPT_OUTPUT, "-o", "--output", "PAGE",
     "the page (default npuify-review.html)"},
    {OPT_TORCH, NULL, "--torch-version", "V",
     "target torch/torch_npu version (default\n" NFY_CLI_DEFAULT_VERSION
     ", the newest that is not a beta)"},
    {OPT_RULES, NULL, "--rules", "FILE.json", "add custom rules"},
    {OPT_AMP, NULL, "--amp", NULL, "include the edits of convert --amp"},
    {OPT_UNSAFE, NULL, "--unsafe", NULL,
     "include the edits of rules marked unsafe"},
    {OPT_DISTRIBUTED, NULL, "--distributed", NULL,
     "include the edits of convert --distributed and\n"
     "its launcher run_distributed_npu.sh (a file to\n"
     "accept or reject like an edit)"},
    {OPT_MAIN, NULL, "--main", "FILE",
     "--distributed: FILE is an entry script\n(repeatable)"},
    {OPT_MODEL, NULL, "--model", "NAME",
     "--distributed: the model variable to wrap"},
    {OPT_QUIET, "-q", "--quiet", NULL,
     "print only errors (no progress, no summary)"},
    {OPT_VERBOSE, "-v", "--verbose", NULL,
     "also one line per file with edits, and the\ncount of every rule"},
};

static const nfy_cli_command review_cmd = {
    "review",
    "usage: npuify review SRC [-o PAGE.html] [options]\n",
    "Write a self-contained review page of what `npuify convert SRC` would\n"
    "do (nothing else is written): every edit with its code before and\n"
    "after, to accept or reject, and every finding with its hint. \"save\n"
    "decisions\" in the page downloads npuify-decisions.json; then\n"
    "    npuify convert SRC -o DST --decisions npuify-decisions.json\n"
    "applies only the accepted edits.\n",
    review_opts,
    sizeof review_opts / sizeof review_opts[0],
    "Exit: 0 ok, 2 usage, 3 input or output errors.\n"};

typedef struct {
    nfy_convert_opts conv;
    const char *out;
    const char *rules_file;
    nfy_cli_main_list mains; /* --main */
    bool quiet, verbose;
} review_args;

static int parse(int argc, char **argv, review_args *a)
{
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        switch (nfy_cli_next(&review_cmd, argc, argv, &i, &dashdash, &val)) {
        case NFY_CLI_HELP:
            return NFY_EXIT_OK;
        case NFY_CLI_ERROR:
            return NFY_EXIT_USAGE;
        case NFY_CLI_NONE:
            break;
        case NFY_CLI_ARG:
            if (a->conv.src)
                return nfy_cli_usage_error("review", "more than one SRC given");
            a->conv.src = val;
            break;
        case OPT_OUTPUT:
            a->out = val;
            break;
        case OPT_TORCH:
            a->conv.torch_version = val;
            break;
        case OPT_RULES:
            a->rules_file = val;
            break;
        case OPT_AMP:
            a->conv.amp = true;
            break;
        case OPT_UNSAFE:
            a->conv.unsafe = true;
            break;
        case OPT_DISTRIBUTED:
            a->conv.distributed = true;
            break;
        case OPT_MAIN: {
            int rc =
                nfy_cli_add_main("review", &a->mains, val, &a->conv.main_files);
            if (rc >= 0)
                return rc;
            break;
        }
        case OPT_MODEL:
            a->conv.model = val;
            break;
        case OPT_QUIET:
            a->quiet = true;
            break;
        case OPT_VERBOSE:
            a->verbose = true;
            break;
        }
    }
    if (a->quiet && a->verbose)
        return nfy_cli_usage_error("review",
                                   "--quiet and --verbose exclude each other");
    if (!a->conv.src)
        return nfy_cli_usage_error("review", "no SRC given");
    const nfy_apidb_version *v;
    if (a->conv.torch_version &&
        nfy_apidb_version_parse(nfy_str_from_cstr(a->conv.torch_version), &v)) {
        nfy_arena ar = NFY_ARENA_INIT;
        int rc = nfy_cli_usage_error(
            "review",
            nfy_arena_fmt(&ar,
                          "--torch-version %s: no data; shipped versions: "
                          "%s",
                          a->conv.torch_version, nfy_apidb_version_list()));
        nfy_arena_release(&ar);
        return rc;
    }
    return -1;
}

static int write_page(const review_args *a, nfy_report *rep,
                      const nfy_rule_set *rules)
{
    nfy_buf page = NFY_BUF_INIT;
    nfy_review_render_html(rep, a->conv.src, rules, &page);
    nfy_status st = nfy_file_write_atomic(a->out, page.data, page.len, 0644);
    nfy_buf_release(&page);
    if (st) {
        fprintf(stderr, "%s: error[review-write]: cannot write: %s\n", a->out,
                nfy_status_str(st));
        return NFY_EXIT_INPUT;
    }
    if (a->quiet)
        return NFY_EXIT_OK;
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    if (a->verbose) {
        nfy_buf v = NFY_BUF_INIT;
        nfy_cli_verbose_files(rep, "edits", &v);
        nfy_cli_verbose_rules(rep, &v);
        fputs(nfy_buf_cstr(&v), stdout);
        nfy_buf_release(&v);
    }
    printf("review: %s (%zu %s, %zu %s manual work)\n", a->out, t.edits,
           nfy_plural(t.edits, "edit", "edits"), t.manual,
           nfy_plural(t.manual, "finding needs", "findings need"));
    return NFY_EXIT_OK;
}

int nfy_cmd_review(int argc, char **argv)
{
    review_args a = {0};
    a.out = "npuify-review.html";
    a.conv.action = NFY_CONVERT_CHECK;
    a.conv.jobs = 1;
    a.conv.training = true; /* the page shows each script's program */
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_rule_set *rules = nfy_rule_set_new(&diags);
    if (rules && a.rules_file &&
        nfy_rules_load_file(rules, a.rules_file, &diags)) {
        nfy_cli_print_diags(&diags, false, false);
        nfy_rule_set_free(rules);
        nfy_diags_release(&diags);
        return NFY_EXIT_INPUT;
    }
    a.conv.rules = rules;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_use_rules(&rep, rules);
    nfy_report_meta meta = {NPUIFY_VERSION,       "review", a.conv.src,
                            a.conv.torch_version, "manual", NULL};
    nfy_report_set_meta(&rep, &meta);
    nfy_convert_stats stats;
    nfy_cli_progress progress;
    nfy_cli_progress_start(&progress, &a.conv, stderr, a.quiet);
    nfy_status st = rules ? nfy_convert_run(&a.conv, &rep, NULL, &stats, &diags)
                          : NFY_ENOMEM;
    nfy_cli_progress_end(&progress);
    nfy_cli_print_diags(&diags, false, false);
    if (st == NFY_EUSAGE)
        rc = NFY_EXIT_USAGE;
    else if (st)
        rc = NFY_EXIT_INPUT;
    else
        rc = write_page(&a, &rep, rules);
    if (rc == NFY_EXIT_OK && stats.files_error)
        rc = NFY_EXIT_INPUT;
    nfy_report_release(&rep);
    nfy_rule_set_free(rules);
    nfy_diags_release(&diags);
    return rc;
}
