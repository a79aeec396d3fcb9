/*
 * npuify convert: the command-line face of nfy_convert_run. Parses options,
 * loads the rule set, runs the conversion, writes the report files and
 * prints the summary and diagnostics.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyse/analyse.h"
#include "apidb/apidb.h"
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

typedef struct {
    nfy_cli_conv_args c; /* the shared options; c.conv is convert's */
    const char *report_dir;
    const char *formats;
    const char *decisions; /* --decisions FILE */
    unsigned fail_on;      /* enum fail_on: what makes --check exit 1 */
    bool action_given;
} convert_args;

enum convert_opt {
    OPT_OUTPUT,
    OPT_DIFF,
    OPT_CHECK,
    OPT_IN_PLACE,
    OPT_NO_BACKUP,
    OPT_FORCE,
    OPT_REPORT_DIR,
    OPT_FORMAT,
    OPT_DECISIONS,
    OPT_FAIL_ON
};

/* The options of convert: its parsing and --help come from this list. */
static const nfy_cli_option convert_opts[] = {
    {OPT_OUTPUT, "-o", "--output", "DST",
     "write the converted tree to DST (must not lie\n"
     "inside SRC; must be empty unless --force)"},
    {OPT_DIFF, NULL, "--diff", NULL, "print a unified diff, write nothing"},
    {OPT_CHECK, NULL, "--check", NULL,
     "exit 1 if anything would change, write nothing"},
    {OPT_IN_PLACE, NULL, "--in-place", NULL,
     "rewrite SRC atomically; originals kept as\nFILE.orig unless --no-backup"},
    {OPT_NO_BACKUP, NULL, "--no-backup", NULL,
     "with --in-place, keep no FILE.orig"},
    {OPT_FORCE, NULL, "--force", NULL, "write into a non-empty DST"},
    {OPT_REPORT_DIR, NULL, "--report-dir", "DIR",
     "where the reports go (default DST/npuify_report,\n"
     "SRC/npuify_report in place; none for one file\n"
     "or --diff/--check unless given)"},
    {OPT_FORMAT, NULL, "--format", "LIST",
     "report files: " NFY_REPORT_TREE_FORMAT_NAMES "all\n(default all)"},
    NFY_CLI_OPTION_TORCH,
    NFY_CLI_OPTION_RULES,
    NFY_CLI_OPTION_MODE,
    NFY_CLI_OPTION_MAIN("auto, --distributed: FILE is an entry script\n"
                        "(repeatable; scripts with a __main__ guard, run\n"
                        "by a launcher in the tree or training at module\n"
                        "level are)"),
    NFY_CLI_OPTION_UNSAFE("also apply rules marked unsafe"),
    {OPT_DECISIONS, NULL, "--decisions", "FILE",
     "apply only the edits FILE accepts (saved from\n"
     "the page of npuify review); refused when the\n"
     "source changed since the review"},
    NFY_CLI_OPTION_AMP("insert mixed precision where there is none\n"
                       "(bf16: autocast bfloat16, no GradScaler, also\n"
                       "closures and hand-written updates; apex:\n"
                       "amp.initialize O2, as Ascend's ports)"),
    NFY_CLI_OPTION_DISTRIBUTED(
        "make the single-card script multi-card: DDP over\n"
        "HCCL, DistributedSampler, rank-0 saving and\n"
        "run_distributed_npu.sh (--main FILE: the\n"
        "script; default: those with a __main__ guard)"),
    NFY_CLI_OPTION_MODEL,
    NFY_CLI_OPTION_JOBS("convert on N threads (default: the online CPUs,\n"
                        "at most 8); the output is the same for any N"),
    {OPT_FAIL_ON, NULL, "--fail-on", "WHAT",
     "with --check, exit 1 on: edits (default), manual\n"
     "(open manual-work findings), any (either)"},
    NFY_CLI_OPTION_QUIET("print only the problems with files: no summary,\n"
                         "no progress line, no project warning (no AMP)"),
    NFY_CLI_OPTION_VERBOSE("also one line per file changed (walk order, the\n"
                           "same for any -j), the count of every rule and\n"
                           "every manual-work finding"),
    NFY_CLI_COLOR_OPTIONS,
    NFY_CLI_OPTION_JSON_DIAGS,
};

static const nfy_cli_command convert_cmd = {
    "convert",
    "usage: npuify convert SRC -o DST [options]\n"
    "       npuify convert SRC (--diff | --check | --in-place) [options]\n",
    "Rewrite a CUDA PyTorch project (a directory or one file) for Ascend NPU\n"
    "(torch_npu) with minimal edits, and write the migration report.\n",
    convert_opts,
    sizeof convert_opts / sizeof convert_opts[0],
    "Exit: 0 ok, 1 changes pending (--check; see --fail-on), 2 usage or a\n"
    "refused SRC/DST pair (nothing written), 3 input or output errors (the\n"
    "rest of the tree is still converted), 4 internal, 130/143 stopped by\n"
    "SIGINT/SIGTERM.\n"};

enum fail_on { FAIL_ON_EDITS = 1, FAIL_ON_MANUAL = 2 };

static bool parse_fail_on(const char *v, unsigned *out)
{
    *out = !strcmp(v, "edits")    ? FAIL_ON_EDITS
           : !strcmp(v, "manual") ? FAIL_ON_MANUAL
           : !strcmp(v, "any")    ? FAIL_ON_EDITS | FAIL_ON_MANUAL
                                  : 0;
    return *out != 0;
}

/* One of --diff, --check, --in-place: a second one is a usage error. */
static int set_action(convert_args *a, nfy_convert_action act)
{
    if (a->action_given && a->c.conv.action != act)
        return nfy_cli_usage_error(
            "convert", "--diff, --check and --in-place exclude each other");
    a->action_given = true;
    a->c.conv.action = act;
    return -1;
}

/*
 * The one mutable global, because a signal handler can reach nothing else:
 * the number of the SIGINT/SIGTERM that asked the run to stop, 0 while none
 * did. The run reads it between files (nfy_convert_opts.stop), so a file is
 * either written whole or not begun and no temporary file is left.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
    /* A second signal is not waited for: it ends the process at once (a
     * later run removes a temporary that this may leave). */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
}

/* A signal ignored when npuify started (nohup, a background job) stays
 * ignored, as the shell meant. */
static void catch_stop_signal(int sig)
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* After a stop: what is on disk, and the shell's 128 + signal. */
static int interrupted(const convert_args *a, nfy_diags *diags)
{
    nfy_cli_print_diags(diags, a->c.color, a->c.json_diags);
    nfy_cli_voice v = {a->c.color, a->c.json_diags};
    nfy_cli_say("convert", &v, NFY_SEV_ERROR, "stopped", NULL,
                "stopped by %s: every file is either converted completely "
                "or untouched; no report written",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
    return 128 + stop_signal;
}

/* One of convert's own options (id from the table, its value or NULL);
 * -1 to go on. */
static int take_option(void *ctx, int id, const char *val)
{
    convert_args *a = ctx;
    switch (id) {
    case OPT_OUTPUT:
        a->c.conv.dst = val;
        break;
    case OPT_REPORT_DIR:
        a->report_dir = val;
        break;
    case OPT_FORMAT:
        a->formats = val;
        break;
    case OPT_DECISIONS:
        a->decisions = val;
        break;
    case OPT_FAIL_ON:
        if (!parse_fail_on(val, &a->fail_on))
            return nfy_cli_usage_error("convert",
                                       "--fail-on takes edits, manual or any");
        break;
    case OPT_DIFF:
        return set_action(a, NFY_CONVERT_DIFF);
    case OPT_CHECK:
        return set_action(a, NFY_CONVERT_CHECK);
    case OPT_IN_PLACE:
        return set_action(a, NFY_CONVERT_IN_PLACE);
    case OPT_NO_BACKUP:
        a->c.conv.backup = false;
        break;
    case OPT_FORCE:
        a->c.conv.force = true;
        break;
    }
    return -1;
}

/* Parse argv into a; returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, convert_args *a)
{
    int rc =
        nfy_cli_conv_parse(&convert_cmd, argc, argv, &a->c, take_option, a);
    if (rc >= 0)
        return rc;
    const nfy_convert_opts *conv = &a->c.conv;
    if (a->fail_on && conv->action != NFY_CONVERT_CHECK)
        return nfy_cli_usage_error("convert", "--fail-on needs --check");
    if (conv->action == NFY_CONVERT_WRITE && !conv->dst)
        return nfy_cli_usage_error(
            "convert", "give -o DST, or one of --diff, --check, --in-place");
    if (conv->action != NFY_CONVERT_WRITE && conv->dst)
        return nfy_cli_usage_error(
            "convert", "-o cannot be combined with --diff/--check/--in-place");
    return -1;
}

static const char *report_dir(const convert_args *a, nfy_arena *ar)
{
    if (a->report_dir)
        return a->report_dir;
    /* One file is converted alone: the report is a tree's (DST has no
     * room for it); --report-dir asks for it. */
    if (nfy_cli_is_file_input(a->c.conv.src))
        return NULL;
    if (a->c.conv.action == NFY_CONVERT_WRITE)
        return nfy_path_join(ar, a->c.conv.dst, "npuify_report");
    if (a->c.conv.action == NFY_CONVERT_IN_PLACE)
        return nfy_path_join(ar, a->c.conv.src, "npuify_report");
    return NULL;
}

/*
 * The default report directory lies in the output (or in SRC in place): a
 * symbolic link there is never written through (it could lead into SRC).
 * A --report-dir the user names is taken as given.
 */
static bool report_dir_safe(const convert_args *a, const char *dir,
                            nfy_diags *diags)
{
    struct stat st;
    if (a->report_dir || lstat(dir, &st) != 0 || !S_ISLNK(st.st_mode))
        return true;
    nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-write", dir, 0, 0,
                    "cannot write the report: %s",
                    nfy_status_str(NFY_ESYMLINK));
    return false;
}

/*
 * AMP is mandatory on NPU (the cube units compute in FP16/BF16), so a
 * project without it gets a loud warning on stderr, not only a report row.
 */
static void warn_amp_missing(const nfy_report *rep, const nfy_rule_set *rules,
                             const char *src, const nfy_cli_voice *v)
{
    const nfy_rule *amp = NULL;
    for (size_t i = 0; rules && i < nfy_rule_set_count(rules); i++) {
        const nfy_rule *r = nfy_rules_set_at(rules, i);
        if (r->pass == NFY_PASS_AMP_MISSING)
            amp = r;
    }
    for (size_t i = 0; amp && i < nfy_report_finding_count(rep); i++) {
        nfy_finding f;
        nfy_report_finding_read(rep, i, &f);
        if (f.rule && !strcmp(f.rule, amp->id)) {
            /* the project is the finding's place: "SRC: warning[...]" */
            nfy_cli_say("convert", v, NFY_SEV_WARNING, amp->id, src, "%s",
                        f.message ? f.message : amp->message);
            return;
        }
    }
}

/* With --decisions: how many edits the review kept out, and where. */
static void add_not_accepted(const nfy_report *rep, nfy_buf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < nfy_report_finding_count(rep); i++) {
        nfy_finding f;
        nfy_report_finding_read(rep, i, &f);
        n += f.cat == NFY_CAT_LEFT_UNCHANGED && f.edit_id && f.message &&
             !strncmp(f.message, "not applied: not accepted", 25);
    }
    nfy_buf_addf(out,
                 "decisions: %zu %s not applied (not accepted in the "
                 "review; listed in report.json left_unchanged)\n",
                 n, nfy_plural(n, "edit", "edits"));
}

/* --check: exit 1 on what --fail-on names (default: pending edits). */
static int check_outcome(const convert_args *a, const nfy_report *rep,
                         const nfy_convert_stats *stats)
{
    if (a->c.conv.action != NFY_CONVERT_CHECK)
        return NFY_EXIT_OK;
    unsigned on = a->fail_on ? a->fail_on : FAIL_ON_EDITS;
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    if (((on & FAIL_ON_EDITS) && stats->files_changed) ||
        ((on & FAIL_ON_MANUAL) && t.manual))
        return NFY_EXIT_FINDINGS;
    return NFY_EXIT_OK;
}

static int finish(convert_args *a, nfy_report *rep, nfy_buf *diff,
                  const nfy_convert_stats *stats, nfy_status st,
                  nfy_diags *diags, nfy_arena *ar)
{
    const char *dir = report_dir(a, ar);
    unsigned formats = NFY_REPORT_ALL;
    if (a->formats &&
        nfy_report_formats_parse(NFY_REPORT_KIND_TREE, a->formats, &formats)) {
        nfy_cli_print_diags(diags, a->c.color, a->c.json_diags);
        return nfy_cli_usage_error("convert", "unknown --format name");
    }
    if (dir && st != NFY_EUSAGE && !report_dir_safe(a, dir, diags)) {
        st = NFY_EIO;
        dir = NULL; /* not written: not named in the summary */
    } else if (dir && st != NFY_EUSAGE &&
               nfy_report_write_jobs(rep, dir, formats, a->c.conv.jobs,
                                     diags)) {
        st = NFY_EIO;
    }
    fwrite(diff->data ? diff->data : "", 1, diff->len, stdout);
    nfy_cli_print_diags(diags, a->c.color, a->c.json_diags);
    if (st == NFY_EUSAGE)
        return NFY_EXIT_USAGE;
    if (!a->c.quiet && a->c.conv.action != NFY_CONVERT_DIFF) {
        nfy_buf out = NFY_BUF_INIT;
        if (a->c.verbose)
            nfy_cli_verbose_files(rep,
                                  a->c.conv.action == NFY_CONVERT_CHECK
                                      ? "would change"
                                      : "converted",
                                  &out);
        /* the rest of the findings: where to read them */
        nfy_console_opts co = {
            a->c.verbose ? (size_t)-1 : 5, a->c.color,
            dir ? "see the report"
                : "-v lists them all; --report-dir DIR writes the report"};
        nfy_report_render_console(rep, &co, &out);
        if (a->c.verbose)
            nfy_cli_verbose_rules(rep, &out);
        if (a->decisions)
            add_not_accepted(rep, &out);
        if (dir)
            nfy_buf_addf(&out, "report: %s/\n", dir);
        else if (a->c.conv.action == NFY_CONVERT_WRITE ||
                 a->c.conv.action == NFY_CONVERT_IN_PLACE)
            nfy_buf_addstr(&out, "report: none for one file (--report-dir "
                                 "DIR writes it)\n");
        fputs(nfy_buf_cstr(&out), stdout);
        nfy_buf_release(&out);
    }
    nfy_cli_voice voice = {a->c.color, a->c.json_diags};
    if (!a->c.quiet && a->c.conv.mode == NFY_CONVERT_MODE_MANUAL &&
        !a->c.conv.amp)
        warn_amp_missing(rep, a->c.conv.rules, a->c.conv.src, &voice);
    /* The summary counts files; say so when what failed was no file. */
    if (st && !stats->files_error && !a->c.quiet)
        fputs("npuify convert: errors outside the project's files (see "
              "above)\n",
              stdout);
    if (st || stats->files_error)
        return NFY_EXIT_INPUT;
    return check_outcome(a, rep, stats);
}

int nfy_cli_cmd_convert(int argc, char **argv)
{
    convert_args a = {0};
    nfy_cli_conv_args_init(&a.c, nfy_cli_default_jobs());
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    rc = nfy_cli_conv_prepare("convert", &a.c, &diags);
    const nfy_rule_set *rules = a.c.rules;
    nfy_decisions *decisions = NULL;
    if (rc < 0 && a.decisions &&
        nfy_convert_decisions_load(a.decisions, a.c.conv.src, &decisions,
                                   &diags))
        rc = NFY_EXIT_INPUT;
    if (rc >= 0) {
        nfy_cli_print_diags(&diags, a.c.color, a.c.json_diags);
        nfy_cli_conv_args_release(&a.c);
        nfy_diags_release(&diags);
        return rc;
    }
    nfy_convert_opts *conv = &a.c.conv;
    /* convert's observer: analyse's torch-API rows */
    nfy_analyse_opts torch_rows = {rules, conv->torch_version,
                                   NFY_ANALYSE_TORCH_APIS, NULL};
    nfy_migrate_observer observer = nfy_analyse_observer(&torch_rows);
    nfy_convert_hooks hooks = {&observer, decisions};
    nfy_arena ar = NFY_ARENA_INIT;
    const char *rdir = report_dir(&a, &ar);
    const char *skip[2] = {NULL, NULL};
    if (conv->action == NFY_CONVERT_IN_PLACE && rdir)
        skip[0] = nfy_cli_rel_inside(&ar, rdir, conv->src);
    conv->skip_rel = skip;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_use_rules(&rep, rules);
    nfy_report_meta meta = {NPUIFY_VERSION,
                            "convert",
                            conv->src,
                            conv->torch_version,
                            conv->mode == NFY_CONVERT_MODE_AUTO ? "auto"
                                                                : "manual",
                            nfy_cli_is_dir(conv->src) ? conv->src : NULL};
    nfy_report_set_meta(&rep, &meta);
    nfy_buf diff = NFY_BUF_INIT;
    nfy_convert_stats stats;
    if (conv->action == NFY_CONVERT_WRITE ||
        conv->action == NFY_CONVERT_IN_PLACE) {
        conv->stop = &stop_signal;
        catch_stop_signal(SIGINT);
        catch_stop_signal(SIGTERM);
    }
    nfy_cli_progress progress;
    nfy_cli_progress_start(&progress, conv, stderr, a.c.quiet);
    nfy_status st =
        nfy_convert_run_with(conv, &hooks, &rep, &diff, &stats, &diags);
    nfy_cli_progress_end(&progress);
    rc = stop_signal ? interrupted(&a, &diags)
                     : finish(&a, &rep, &diff, &stats, st, &diags, &ar);
    nfy_buf_release(&diff);
    nfy_report_release(&rep);
    nfy_cli_conv_args_release(&a.c);
    nfy_convert_decisions_free(decisions);
    nfy_diags_release(&diags);
    nfy_arena_release(&ar);
    return rc;
}
