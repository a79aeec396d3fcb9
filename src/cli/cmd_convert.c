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
#include "cli/opt_table.h"
#include "cli/progress.h"
#include "cli/project_settings.h"
#include "cli/verbose.h"
#include "convert/convert.h"
#include "report/report.h"
#include "review/review.h"
#include "rules/rules.h"

typedef struct {
    nfy_convert_opts conv;
    const char *report_dir;
    const char *formats;
    const char *decisions; /* --decisions FILE */
    const char *rule_files[16];
    size_t nrule_files;
    nfy_cli_main_list mains; /* --main */
    bool quiet;
    bool verbose;
    bool color;
    unsigned fail_on; /* enum fail_on: what makes --check exit 1 */
    bool action_given;
    bool json_diags;
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
    OPT_TORCH,
    OPT_RULES,
    OPT_MODE,
    OPT_MAIN,
    OPT_UNSAFE,
    OPT_DECISIONS,
    OPT_AMP,
    OPT_DISTRIBUTED,
    OPT_MODEL,
    OPT_JOBS,
    OPT_FAIL_ON,
    OPT_QUIET,
    OPT_VERBOSE,
    OPT_JSON_DIAGS
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
    {OPT_TORCH, NULL, "--torch-version", "V",
     "target torch/torch_npu version (default\n" NFY_CLI_DEFAULT_VERSION
     ", the newest that is not a beta)"},
    {OPT_RULES, NULL, "--rules", "FILE.json",
     "add custom rules (npuify or msFmkTransplt schema)"},
    {OPT_MODE, NULL, "--mode", "manual|auto",
     "manual: full migration (default); auto: only add\n"
     "import torch_npu + transfer_to_npu"},
    {OPT_MAIN, NULL, "--main", "FILE",
     "auto, --distributed: FILE is an entry script\n"
     "(repeatable; scripts with a __main__ guard, run\n"
     "by a launcher in the tree or training at module\nlevel are)"},
    {OPT_UNSAFE, NULL, "--unsafe", NULL, "also apply rules marked unsafe"},
    {OPT_DECISIONS, NULL, "--decisions", "FILE",
     "apply only the edits FILE accepts (saved from\n"
     "the page of npuify review); refused when the\n"
     "source changed since the review"},
    {OPT_AMP, NULL, "--amp", "[=torch|bf16|apex]",
     "insert mixed precision where there is none\n"
     "(bf16: autocast bfloat16, no GradScaler, also\n"
     "closures and hand-written updates; apex:\n"
     "amp.initialize O2, as Ascend's ports)"},
    {OPT_DISTRIBUTED, NULL, "--distributed", NULL,
     "make the single-card script multi-card: DDP over\n"
     "HCCL, DistributedSampler, rank-0 saving and\n"
     "run_distributed_npu.sh (--main FILE: the\n"
     "script; default: those with a __main__ guard)"},
    {OPT_MODEL, NULL, "--model", "NAME",
     "--distributed: the model variable to wrap"},
    {OPT_JOBS, "-j", "--jobs", "N",
     "convert on N threads (default: the online CPUs,\n"
     "at most 8); the output is the same for any N"},
    {OPT_FAIL_ON, NULL, "--fail-on", "WHAT",
     "with --check, exit 1 on: edits (default), manual\n"
     "(open manual-work findings), any (either)"},
    {OPT_QUIET, "-q", "--quiet", NULL,
     "print only the problems with files: no summary,\n"
     "no progress line, no project warning (no AMP)"},
    {OPT_VERBOSE, "-v", "--verbose", NULL,
     "also one line per file changed (walk order, the\n"
     "same for any -j), the count of every rule and\n"
     "every manual-work finding"},
    NFY_CLI_COLOR_OPTIONS,
    {OPT_JSON_DIAGS, NULL, "--json-diagnostics", NULL,
     "print diagnostics as JSON lines"},
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

enum { MAX_JOBS = 256, DEFAULT_MAX_JOBS = 8 };

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
    if (a->action_given && a->conv.action != act)
        return nfy_cli_usage_error(
            "convert", "--diff, --check and --in-place exclude each other");
    a->action_given = true;
    a->conv.action = act;
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
    nfy_cli_print_diags(diags, a->color, a->json_diags);
    nfy_cli_voice v = {a->color, a->json_diags};
    nfy_cli_say("convert", &v, NFY_SEV_ERROR, "stopped", NULL,
                "stopped by %s: every file is either converted completely "
                "or untouched; no report written",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
    return 128 + stop_signal;
}

/* The online CPUs, at most DEFAULT_MAX_JOBS: more rarely pays off. */
static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > DEFAULT_MAX_JOBS ? DEFAULT_MAX_JOBS : (unsigned)n;
}

/* One option (id from the table, its value or NULL); -1 to go on. */
static int take_option(convert_args *a, int id, const char *val)
{
    switch (id) {
    case OPT_OUTPUT:
        a->conv.dst = val;
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
    case OPT_TORCH:
        a->conv.torch_version = val;
        break;
    case OPT_MODEL:
        a->conv.model = val;
        break;
    case OPT_RULES:
        if (a->nrule_files == sizeof a->rule_files / sizeof(char *))
            return nfy_cli_usage_error("convert", "too many --rules");
        a->rule_files[a->nrule_files++] = val;
        break;
    case OPT_MAIN:
        return nfy_cli_add_main("convert", &a->mains, val, &a->conv.main_files);
    case OPT_MODE:
        if (strcmp(val, "auto") && strcmp(val, "manual"))
            return nfy_cli_usage_error("convert",
                                       "--mode takes manual or auto");
        a->conv.mode = !strcmp(val, "auto") ? NFY_CONVERT_MODE_AUTO
                                            : NFY_CONVERT_MODE_MANUAL;
        break;
    case OPT_JOBS: {
        unsigned long n;
        if (!nfy_cli_parse_uint(val, 1, MAX_JOBS, &n))
            return nfy_cli_usage_error("convert",
                                       "--jobs takes a number from 1 to 256");
        a->conv.jobs = (unsigned)n;
        break;
    }
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
        a->conv.backup = false;
        break;
    case OPT_FORCE:
        a->conv.force = true;
        break;
    case OPT_UNSAFE:
        a->conv.unsafe = true;
        break;
    case OPT_AMP:
        if (val && strcmp(val, "torch") && strcmp(val, "apex") &&
            strcmp(val, "bf16"))
            return nfy_cli_usage_error("convert",
                                       "--amp takes torch, bf16 or apex");
        a->conv.amp = true;
        a->conv.amp_apex = val && !strcmp(val, "apex");
        a->conv.amp_bf16 = val && !strcmp(val, "bf16");
        break;
    case OPT_DISTRIBUTED:
        a->conv.distributed = true;
        break;
    case OPT_QUIET:
        a->quiet = true;
        break;
    case OPT_VERBOSE:
        a->verbose = true;
        break;
    case NFY_CLI_OPT_COLOR:
    case NFY_CLI_OPT_NO_COLOR:
        return nfy_cli_color_option("convert", id, val, &a->color);
    case OPT_JSON_DIAGS:
        a->json_diags = true;
        break;
    }
    return -1;
}

/* Parse argv into a; returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, convert_args *a)
{
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int id = nfy_cli_next(&convert_cmd, argc, argv, &i, &dashdash, &val);
        int rc = -1;
        if (id == NFY_CLI_HELP)
            return NFY_EXIT_OK;
        if (id == NFY_CLI_ERROR)
            return NFY_EXIT_USAGE;
        if (id == NFY_CLI_ARG && a->conv.src)
            return nfy_cli_usage_error("convert", "more than one SRC given");
        if (id == NFY_CLI_ARG)
            a->conv.src = val;
        else if (id >= 0)
            rc = take_option(a, id, val);
        if (rc >= 0)
            return rc;
    }
    if (!a->conv.src)
        return nfy_cli_usage_error("convert", "no SRC given");
    if (a->fail_on && a->conv.action != NFY_CONVERT_CHECK)
        return nfy_cli_usage_error("convert", "--fail-on needs --check");
    if (a->quiet && a->verbose)
        return nfy_cli_usage_error("convert",
                                   "--quiet and --verbose exclude each other");
    if (a->conv.action == NFY_CONVERT_WRITE && !a->conv.dst)
        return nfy_cli_usage_error(
            "convert", "give -o DST, or one of --diff, --check, --in-place");
    if (a->conv.action != NFY_CONVERT_WRITE && a->conv.dst)
        return nfy_cli_usage_error(
            "convert", "-o cannot be combined with --diff/--check/--in-place");
    return -1;
}

static int load_rules(convert_args *a, nfy_rule_set **out, nfy_diags *diags)
{
    nfy_rule_set *set = nfy_rule_set_new(diags);
    if (!set)
        return NFY_EXIT_INTERNAL;
    for (size_t i = 0; i < a->nrule_files; i++) {
        if (nfy_rules_load_file(set, a->rule_files[i], diags)) {
            nfy_rule_set_free(set);
            return NFY_EXIT_INPUT;
        }
    }
    *out = set;
    return -1;
}

static int check_version(const convert_args *a, nfy_diags *diags)
{
    if (!a->conv.torch_version)
        return -1;
    const nfy_apidb_version *v;
    nfy_status st =
        nfy_apidb_version_parse(nfy_str_from_cstr(a->conv.torch_version), &v);
    if (st == NFY_OK)
        return -1;
    (void)diags; /* a usage error: said at once, as the others */
    nfy_arena ar = NFY_ARENA_INIT;
    int rc = nfy_cli_usage_error(
        "convert",
        nfy_arena_fmt(&ar, "--torch-version %s: %s; shipped versions: %s",
                      a->conv.torch_version,
                      st == NFY_ENOENT ? "no data for this version"
                                       : "not a version number",
                      nfy_apidb_version_list()));
    nfy_arena_release(&ar);
    return rc;
}

static const char *report_dir(const convert_args *a, nfy_arena *ar)
{
    if (a->report_dir)
        return a->report_dir;
    /* One file is converted alone: the report is a tree's (DST has no
     * room for it); --report-dir asks for it. */
    if (nfy_cli_is_file_input(a->conv.src))
        return NULL;
    if (a->conv.action == NFY_CONVERT_WRITE)
        return nfy_path_join(ar, a->conv.dst, "npuify_report");
    if (a->conv.action == NFY_CONVERT_IN_PLACE)
        return nfy_path_join(ar, a->conv.src, "npuify_report");
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
        const nfy_rule *r = nfy_rule_set_at(rules, i);
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
    if (a->conv.action != NFY_CONVERT_CHECK)
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
        nfy_cli_print_diags(diags, a->color, a->json_diags);
        return nfy_cli_usage_error("convert", "unknown --format name");
    }
    if (dir && st != NFY_EUSAGE && !report_dir_safe(a, dir, diags)) {
        st = NFY_EIO;
        dir = NULL; /* not written: not named in the summary */
    } else if (dir && st != NFY_EUSAGE &&
               nfy_report_write_jobs(rep, dir, formats, a->conv.jobs, diags)) {
        st = NFY_EIO;
    }
    fwrite(diff->data ? diff->data : "", 1, diff->len, stdout);
    nfy_cli_print_diags(diags, a->color, a->json_diags);
    if (st == NFY_EUSAGE)
        return NFY_EXIT_USAGE;
    if (!a->quiet && a->conv.action != NFY_CONVERT_DIFF) {
        nfy_buf out = NFY_BUF_INIT;
        if (a->verbose)
            nfy_cli_verbose_files(rep,
                                  a->conv.action == NFY_CONVERT_CHECK
                                      ? "would change"
                                      : "converted",
                                  &out);
        /* the rest of the findings: where to read them */
        nfy_console_opts co = {
            a->verbose ? (size_t)-1 : 5, a->color,
            dir ? "see the report"
                : "-v lists them all; --report-dir DIR writes the report"};
        nfy_report_render_console(rep, &co, &out);
        if (a->verbose)
            nfy_cli_verbose_rules(rep, &out);
        if (a->decisions)
            add_not_accepted(rep, &out);
        if (dir)
            nfy_buf_addf(&out, "report: %s/\n", dir);
        else if (a->conv.action == NFY_CONVERT_WRITE ||
                 a->conv.action == NFY_CONVERT_IN_PLACE)
            nfy_buf_addstr(&out, "report: none for one file (--report-dir "
                                 "DIR writes it)\n");
        fputs(nfy_buf_cstr(&out), stdout);
        nfy_buf_release(&out);
    }
    nfy_cli_voice voice = {a->color, a->json_diags};
    if (!a->quiet && a->conv.mode == NFY_CONVERT_MODE_MANUAL && !a->conv.amp)
        warn_amp_missing(rep, a->conv.rules, a->conv.src, &voice);
    /* The summary counts files; say so when what failed was no file. */
    if (st && !stats->files_error && !a->quiet)
        fputs("npuify convert: errors outside the project's files (see "
              "above)\n",
              stdout);
    if (st || stats->files_error)
        return NFY_EXIT_INPUT;
    return check_outcome(a, rep, stats);
}

int nfy_cmd_convert(int argc, char **argv)
{
    convert_args a = {0};
    a.conv.backup = true;
    a.conv.jobs = default_jobs();
    (void)nfy_cli_color("auto", &a.color);
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_project_config cfg;
    nfy_project_config_init(&cfg);
    rc = nfy_cli_project_settings(
        &cfg, a.conv.src, &a.conv, a.rule_files, &a.nrule_files,
        sizeof a.rule_files / sizeof *a.rule_files, &diags);
    nfy_rule_set *rules = NULL;
    if (rc < 0)
        rc = check_version(&a, &diags);
    if (rc < 0)
        rc = load_rules(&a, &rules, &diags);
    nfy_decisions *decisions = NULL;
    if (rc < 0 && a.decisions &&
        nfy_decisions_load(a.decisions, a.conv.src, &decisions, &diags))
        rc = NFY_EXIT_INPUT;
    if (rc >= 0) {
        nfy_cli_print_diags(&diags, a.color, a.json_diags);
        nfy_rule_set_free(rules);
        nfy_diags_release(&diags);
        nfy_project_config_release(&cfg);
        return rc;
    }
    a.conv.rules = rules;
    /* convert's observer: analyse's torch-API rows */
    nfy_analyse_opts torch_rows = {rules, a.conv.torch_version,
                                   NFY_ANALYSE_TORCH_APIS, NULL};
    nfy_migrate_observer observer = nfy_analyse_observer(&torch_rows);
    nfy_convert_hooks hooks = {&observer, decisions};
    nfy_arena ar = NFY_ARENA_INIT;
    const char *rdir = report_dir(&a, &ar);
    const char *skip[2] = {NULL, NULL};
    if (a.conv.action == NFY_CONVERT_IN_PLACE && rdir)
        skip[0] = nfy_cli_rel_inside(&ar, rdir, a.conv.src);
    a.conv.skip_rel = skip;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_use_rules(&rep, rules);
    nfy_report_meta meta = {NPUIFY_VERSION,
                            "convert",
                            a.conv.src,
                            a.conv.torch_version,
                            a.conv.mode == NFY_CONVERT_MODE_AUTO ? "auto"
                                                                 : "manual",
                            nfy_cli_is_dir(a.conv.src) ? a.conv.src : NULL};
    nfy_report_set_meta(&rep, &meta);
    nfy_buf diff = NFY_BUF_INIT;
    nfy_convert_stats stats;
    if (a.conv.action == NFY_CONVERT_WRITE ||
        a.conv.action == NFY_CONVERT_IN_PLACE) {
        a.conv.stop = &stop_signal;
        catch_stop_signal(SIGINT);
        catch_stop_signal(SIGTERM);
    }
    nfy_cli_progress progress;
    nfy_cli_progress_start(&progress, &a.conv, stderr, a.quiet);
    nfy_status st =
        nfy_convert_run_with(&a.conv, &hooks, &rep, &diff, &stats, &diags);
    nfy_cli_progress_end(&progress);
    rc = stop_signal ? interrupted(&a, &diags)
                     : finish(&a, &rep, &diff, &stats, st, &diags, &ar);
    nfy_buf_release(&diff);
    nfy_report_release(&rep);
    nfy_rule_set_free(rules);
    nfy_decisions_free(decisions);
    nfy_diags_release(&diags);
    nfy_project_config_release(&cfg);
    nfy_arena_release(&ar);
    return rc;
}
