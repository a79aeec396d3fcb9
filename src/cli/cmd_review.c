/*
 * npuify review: convert SRC without writing anything and write the review
 * page, where each edit is accepted or rejected; the saved decisions go to
 * `npuify convert --decisions FILE`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/conv_options.h"
#include "cli/opt_table.h"
#include "cli/progress.h"
#include "cli/verbose.h"
#include "convert/convert.h"
#include "report/report.h"
#include "review/review.h"
#include "rules/rules.h"

enum review_opt { OPT_OUTPUT };

static const nfy_cli_option review_opts[] = {
    {OPT_OUTPUT, "-o", "--output", "PAGE",
     "the page (default npuify-review.html)"},
    NFY_CLI_OPTION_TORCH,
    NFY_CLI_OPTION_RULES,
    NFY_CLI_OPTION_AMP("include the edits of convert --amp"),
    NFY_CLI_OPTION_UNSAFE("include the edits of rules marked unsafe"),
    NFY_CLI_OPTION_DISTRIBUTED(
        "include the edits of convert --distributed and\n"
        "its launcher run_distributed_npu.sh (a file to\n"
        "accept or reject like an edit)"),
    NFY_CLI_OPTION_MAIN("--distributed: FILE is an entry script\n(repeatable)"),
    NFY_CLI_OPTION_MODEL,
    NFY_CLI_OPTION_QUIET("print only errors (no progress, no summary)"),
    NFY_CLI_OPTION_VERBOSE("also one line per file with edits, and the\n"
                           "count of every rule"),
    NFY_CLI_COLOR_OPTIONS,
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
    nfy_cli_conv_args c; /* the shared options; c.conv is the check run's */
    const char *out;
} review_args;

static int take_option(void *ctx, int id, const char *val)
{
    review_args *a = ctx;
    if (id == OPT_OUTPUT)
        a->out = val;
    return -1;
}

static int write_page(const review_args *a, nfy_report *rep,
                      const nfy_rule_set *rules)
{
    nfy_buf page = NFY_BUF_INIT;
    nfy_review_render_html(rep, a->c.conv.src, rules, &page);
    nfy_status st = nfy_file_write_atomic(a->out, page.data, page.len, 0644);
    nfy_buf_release(&page);
    if (st) {
        fprintf(stderr, "%s: error[review-write]: cannot write: %s\n", a->out,
                nfy_status_str(st));
        return NFY_EXIT_INPUT;
    }
    if (a->c.quiet)
        return NFY_EXIT_OK;
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    if (a->c.verbose)
        nfy_cli_verbose_print(rep, "edits");
    printf("review: %s (%zu %s, %zu %s manual work)\n", a->out, t.edits,
           nfy_plural(t.edits, "edit", "edits"), t.manual,
           nfy_plural(t.manual, "finding needs", "findings need"));
    return NFY_EXIT_OK;
}

/* Convert in check mode and write the page; the exit code. */
static int review(review_args *a, const nfy_rule_set *rules, nfy_report *rep,
                  nfy_diags *diags)
{
    nfy_convert_opts *conv = &a->c.conv;
    nfy_report_use_rules(rep, rules);
    nfy_report_meta meta = {NPUIFY_VERSION,      "review", conv->src,
                            conv->torch_version, "manual", NULL};
    nfy_report_set_meta(rep, &meta);
    nfy_convert_stats stats;
    nfy_cli_progress progress;
    nfy_cli_progress_start(&progress, conv, stderr, a->c.quiet);
    nfy_status st = nfy_convert_run(conv, rep, NULL, &stats, diags);
    nfy_cli_progress_end(&progress);
    nfy_cli_print_diags(diags, a->c.color, false);
    int rc = st == NFY_EUSAGE ? NFY_EXIT_USAGE
             : st             ? NFY_EXIT_INPUT
                              : write_page(a, rep, rules);
    if (rc == NFY_EXIT_OK && stats.files_error)
        rc = NFY_EXIT_INPUT;
    return rc;
}

int nfy_cli_cmd_review(int argc, char **argv)
{
    review_args a;
    nfy_cli_conv_args_init(&a.c, 1);
    a.out = "npuify-review.html";
    a.c.conv.action = NFY_CONVERT_CHECK;
    a.c.conv.training = true; /* the page shows each script's program */
    int rc = nfy_cli_conv_parse(&review_cmd, argc, argv, &a.c, take_option, &a);
    if (rc >= 0)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    rc = nfy_cli_conv_prepare("review", &a.c, &diags);
    nfy_report rep;
    nfy_report_init(&rep);
    if (rc < 0)
        rc = review(&a, a.c.rules, &rep, &diags);
    else
        nfy_cli_print_diags(&diags, a.c.color, false);
    nfy_report_release(&rep);
    nfy_cli_conv_args_release(&a.c);
    nfy_diags_release(&diags);
    return rc;
}
