/*
 * `npuify ops LOG...`: operators from profiler text logs and chrome traces,
 * checked against torch_npu (Huawei's extract_ops_by_step plus the manual
 * lookup, in one step). Each input is sniffed: .json / .json.gz names or
 * (decompressed) content starting with '{' or an event array go to the
 * trace reader, everything else (gzipped or not) to the text reader. `--capture
 * -- CMD...` first runs CMD under the profiler (npuify/capture.h) and then
 * reads its trace. Exit: 0 ok, 2 usage, 3 input errors (reports still written).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "apidb/apidb.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/ops_npu.h"
#include "cli/ops_sites.h"
#include "cli/opt_table.h"
#include "core/core.h"
#include "proflog/capture.h"
#include "proflog/proflog.h"
#include "report/ops.h"

enum ops_opt {
    OPT_OUTPUT,
    OPT_TORCH,
    OPT_COMPARE,
    OPT_REF_STEP,
    OPT_FORMAT,
    OPT_CAPTURE,
    OPT_EVERY,
    OPT_ALL_PROCESSES,
    OPT_ROWS,
    OPT_SOURCE,
    OPT_JSON_DIAGS,
    OPT_QUIET,
    OPT_GPU_COMPARE
};

/* The options of ops: its parsing and --help come from this list. */
static const nfy_cli_option ops_opts[] = {
    {OPT_OUTPUT, "-o", "--output", "DIR",
     "report directory (default ./npuify_ops)"},
    {OPT_TORCH, NULL, "--torch-version", "V",
     "torch_npu line to check against (default\n" NFY_CLI_DEFAULT_VERSION
     ", the newest that is not a beta)"},
    {OPT_COMPARE, NULL, "--compare-versions", NULL,
     "also name the first torch_npu version that\n"
     "supports each missing operator"},
    {OPT_REF_STEP, NULL, "--ref-step", "N",
     "reference step for dynamic shapes (default: the\nfirst step seen)"},
    {OPT_FORMAT, NULL, "--format", "LIST",
     NFY_REPORT_OPS_FORMAT_NAMES "all (default all:\nall but sarif); "
                                 "all_ops.txt is always written"},
    {OPT_CAPTURE, NULL, "--capture", NULL,
     "run the command after -- under the profiler"},
    {OPT_EVERY, NULL, "--every", "N", "with --capture: keep every Nth step"},
    {OPT_ALL_PROCESSES, NULL, "--all-processes", NULL,
     "with --capture: profile child Python processes"},
    {OPT_ROWS, NULL, "--rows", NULL,
     "also write rows.tsv: every row read (debugging,\n"
     "tests): input, table, step, rank, calls, flags,\n"
     "name, overload, shapes"},
    {OPT_SOURCE, NULL, "--source", "DIR",
     "where the profiled project is, when a\n"
     "with_stack frame's file is not readable as named\n"
     "(default: with --capture the script's directory,\n"
     "else the current one)"},
    {OPT_JSON_DIAGS, NULL, "--json-diagnostics", NULL,
     "diagnostics as JSON lines"},
    {OPT_QUIET, "-q", "--quiet", NULL, "print no summary"},
    {OPT_GPU_COMPARE, NULL, "--compare", "GPU_PROFILE",
     "with an NPU profile directory: join its\n"
     "operators with this CUDA trace or log"},
};

static const nfy_cli_command ops_cmd = {
    "ops",
    "usage: npuify ops LOG... [options]\n"
    "       npuify ops NPU_PROFILE_DIR [--compare GPU_PROFILE] [options]\n"
    "       npuify ops --capture [options] -- python train.py ARGS...\n",
    "Extract operators (names, input shapes, calls, self time, steps,\n"
    "dynamic-shape operators) from PyTorch profiler text output (training\n"
    "logs with key_averages()/print(prof) tables, torch 1.2 to 2.x) or\n"
    "chrome traces (.json, .json.gz), and check each on torch_npu.\n",
    ops_opts,
    sizeof ops_opts / sizeof ops_opts[0],
    "Outputs: all_ops.txt (one operator per line), ops.csv and\n"
    "dynamic_ops.csv (csv), report.json (json), summary.md (md), report.html\n"
    "(html: one self-contained page with the summary, the unsupported and\n"
    "CPU-fallback operators by self time, every operator, the dynamic-shape\n"
    "operators and the diagnostics; tables sort on a header click),\n"
    "ops.sarif (sarif: unsupported and CPU-fallback operators at the\n"
    "source lines of a with_stack profile, for editors and CI).\n"
    "An Ascend profiler directory (*_ascend_pt or its ASCEND_PROFILER_OUTPUT)\n"
    "gives npu_summary.md, npu_report.json, npu_types.csv: why it is slow\n"
    "(AI_CPU kernels, FP32 matrix work, HCCL, idle device, unfused\n"
    "optimizer); --compare adds compare.md and compare.csv.\n"
    "Exit codes: 0 ok, 2 usage, 3 input errors (what was read is reported;\n"
    "nothing is written when no input can be read).\n"};

typedef struct {
    const char *out_dir;
    const char *version_text;
    const char *source; /* --source DIR, or NULL */
    bool compare;
    bool quiet;
    bool json_diags;
    bool capture;
    bool all_processes;
    bool rows;
    unsigned every;
    int32_t ref_step;
    unsigned formats;
    const char **inputs;
    size_t ninputs;
    char **cmd;              /* after "--" */
    const char *gpu_profile; /* --compare */
} ops_args;

/* One option of the table with its value; 0 to go on, else an exit code. */
static int take_option(ops_args *a, int id, const char *val)
{
    unsigned long n;
    switch (id) {
    case OPT_OUTPUT:
        a->out_dir = val;
        break;
    case OPT_TORCH:
        a->version_text = val;
        break;
    case OPT_FORMAT:
        if (nfy_report_formats_parse(NFY_REPORT_KIND_OPS, val, &a->formats))
            return nfy_cli_usage_error("ops", "unknown --format name");
        break;
    case OPT_REF_STEP:
        if (!nfy_cli_parse_uint(val, 0, 1UL << 30, &n))
            return nfy_cli_usage_error("ops", "--ref-step needs a number");
        a->ref_step = (int32_t)n;
        break;
    case OPT_EVERY:
        if (!nfy_cli_parse_uint(val, 0, 1UL << 30, &n))
            return nfy_cli_usage_error("ops", "--every needs a number");
        a->every = (unsigned)n;
        break;
    case OPT_COMPARE:
        a->compare = true;
        break;
    case OPT_CAPTURE:
        a->capture = true;
        break;
    case OPT_ROWS:
        a->rows = true;
        break;
    case OPT_ALL_PROCESSES:
        a->all_processes = true;
        break;
    case OPT_JSON_DIAGS:
        a->json_diags = true;
        break;
    case OPT_SOURCE:
        a->source = val;
        break;
    case OPT_QUIET:
        a->quiet = true;
        break;
    case OPT_GPU_COMPARE:
        a->gpu_profile = val;
        break;
    }
    return 0;
}

static int parse_args(int argc, char **argv, ops_args *a)
{
    const char *val;
    a->out_dir = "npuify_ops";
    a->ref_step = -1;
    a->formats = nfy_report_formats_default(NFY_REPORT_KIND_OPS);
    a->inputs = calloc((size_t)argc + 1, sizeof *a->inputs);
    if (!a->inputs)
        abort();
    bool dashdash = false;
    for (int i = 1; i < argc && !dashdash; i++) {
        int id = nfy_cli_next(&ops_cmd, argc, argv, &i, &dashdash, &val);
        int rc = id >= 0 ? take_option(a, id, val) : 0;
        if (id == NFY_CLI_HELP)
            return -1;
        if (id == NFY_CLI_ERROR)
            return NFY_EXIT_USAGE;
        if (id == NFY_CLI_NONE) /* "--": the command to capture */
            a->cmd = argv + i + 1;
        else if (id == NFY_CLI_ARG)
            a->inputs[a->ninputs++] = val;
        if (rc)
            return rc;
    }
    if (a->capture && (!a->cmd || !a->cmd[0]))
        return nfy_cli_usage_error("ops", "--capture needs a command after --");
    if (!a->capture && a->cmd)
        return nfy_cli_usage_error("ops", "a command after -- needs --capture");
    if (!a->capture && !a->ninputs)
        return nfy_cli_usage_error("ops", "no profiler log or trace given");
    return 0;
}

/* Sink for --rows: aggregate, and log the row as one TSV line. */
typedef struct {
    nfy_prof_table *table;
    nfy_buf *rows; /* NULL without --rows */
    const char *input;
} row_sink;

static void tsv_view(nfy_buf *b, nfy_str s)
{
    for (size_t i = 0; i < s.len; i++)
        (void)nfy_buf_addch(b, s.ptr[i] == '\t' || s.ptr[i] == '\n' ? ' '
                                                                    : s.ptr[i]);
}

static int sink_row(void *ctx, const nfy_prof_row *r)
{
    row_sink *rs = ctx;
    nfy_prof_table_add(rs->table, r);
    if (!rs->rows)
        return 0;
    static const struct {
        uint32_t bit;
        char letter;
    } fl[] = {{NFY_PROW_NAME_TRUNCATED, 'T'}, {NFY_PROW_SHAPES_TRUNCATED, 'S'},
              {NFY_PROW_TABLE_CUT, 'C'},      {NFY_PROW_RAW_EVENT, 'R'},
              {NFY_PROW_STEP_MARKER, 'M'},    {NFY_PROW_HAS_SHAPES, 'H'},
              {NFY_PROW_FROM_TRACE, 'J'}};
    char flags[16];
    size_t nf = 0;
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        if (r->flags & fl[i].bit)
            flags[nf++] = fl[i].letter;
    if (!nf)
        flags[nf++] = '-';
    flags[nf] = '\0';
    (void)nfy_buf_addf(rs->rows, "%s\t%d\t%d\t%d\t%lld\t%s\t", rs->input,
                       (int)r->table, (int)r->step, (int)r->rank,
                       (long long)r->calls, flags);
    tsv_view(rs->rows, r->name);
    (void)nfy_buf_addch(rs->rows, '\t');
    tsv_view(rs->rows, r->overload);
    (void)nfy_buf_addch(rs->rows, '\t');
    tsv_view(rs->rows, r->shapes);
    (void)nfy_buf_addch(rs->rows, '\n');
    return 0;
}

static bool name_says_trace(const char *p)
{
    size_t n = strlen(p);
    return (n >= 5 && !strcmp(p + n - 5, ".json")) ||
           (n >= 8 && !strcmp(p + n - 8, ".json.gz"));
}

/* Feed the rest of a (possibly gzipped) text log to the text reader. */
static void read_text_rest(gzFile gz, const char *path, nfy_proflog_text *r,
                           nfy_diags *d)
{
    enum { CHUNK = 1 << 16 };
    char *buf = malloc(CHUNK);
    if (!buf)
        abort();
    int n;
    while ((n = gzread(gz, buf, CHUNK)) > 0)
        (void)nfy_prof_text_feed(r, buf, (size_t)n);
    if (n < 0)
        nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-io", path, 0, 0,
                        "read error (%s)", gzerror(gz, &n));
    free(buf);
}

/* Read one input into t; returns false on an input error. Files are read
 * through zlib, so gzipped text logs work too; traces (by name, or by
 * their first bytes) go to the trace reader, which opens them itself. */
static bool read_input(const char *path, nfy_prof_table *t, nfy_diags *d,
                       nfy_prof_input_info *info, nfy_buf *rows)
{
    size_t before = nfy_diags_count(d, NFY_SEV_ERROR);
    row_sink rs = {t, rows, path};
    nfy_proflog_opts o = {path, d, sink_row, &rs, 0};
    bool is_stdin = !strcmp(path, "-");
    info->path = path;
    info->format = "text";
    uint64_t rows0 = t->rows;
    gzFile gz = is_stdin ? gzdopen(dup(0), "rb") : gzopen(path, "rb");
    if (!gz) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-io", path, 0, 0,
                        "cannot open the profiler log");
        info->errors = 1;
        return false;
    }
    unsigned char head[64];
    int nh = gzread(gz, head, sizeof head);
    if (nh < 0)
        nh = 0; /* reported by read_text_rest */
    bool trace = !is_stdin && (name_says_trace(path) ||
                               nfy_prof_sniff_trace(head, (size_t)nh));
    if (trace) {
        gzclose(gz);
        info->format = "trace";
        (void)nfy_prof_read_trace(path, &o);
        info->stats.rows = t->rows - rows0;
    } else {
        nfy_proflog_text *r = nfy_prof_text_new(&o);
        (void)nfy_prof_text_feed(r, head, (size_t)nh);
        read_text_rest(gz, path, r, d);
        (void)nfy_prof_text_finish(r);
        nfy_prof_text_stats(r, &info->stats);
        nfy_prof_text_free(r);
        gzclose(gz);
    }
    if (t->rows == rows0 && nfy_diags_count(d, NFY_SEV_ERROR) == before)
        nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-empty", path, 0, 0,
                        "no profiler table or trace event found (print "
                        "prof.key_averages(group_by_input_shape=True)"
                        ".table(row_limit=-1) with record_shapes=True)");
    info->errors = (unsigned)(nfy_diags_count(d, NFY_SEV_ERROR) - before);
    return info->errors == 0;
}

/* Warnings and errors only: notes (skipped interleaved lines) are in the
 * report's counts, and would flood a terminal on a long training log. */
static void print_diags(const nfy_diags *d, bool json)
{
    enum { SHOWN_MAX = 50 };
    nfy_buf out = NFY_BUF_INIT;
    size_t shown = 0, hidden = 0;
    for (size_t i = 0; i < d->items.len; i++) {
        if (d->items.items[i].sev < NFY_SEV_WARNING)
            continue;
        if (shown == SHOWN_MAX && !json) {
            hidden++;
            continue;
        }
        shown++;
        if (json) {
            nfy_diag_render_json(&d->items.items[i], &out);
            (void)nfy_buf_addch(&out, '\n');
        } else {
            nfy_diag_render_text(&d->items.items[i], false, &out);
        }
    }
    if (hidden)
        (void)nfy_buf_addf(&out, "npuify ops: %zu more warnings not shown\n",
                           hidden);
    fputs(nfy_buf_cstr(&out), stderr);
    nfy_buf_release(&out);
}

static void print_summary(const nfy_prof_table *t, const ops_args *a,
                          const nfy_apidb_version *v, int32_t ref)
{
    nfy_prof_counts c;
    nfy_prof_table_counts(t, &c);
    nfy_buf dyn = NFY_BUF_INIT;
    nfy_prof_dynamic_phrase(t, &c, ref, &dyn);
    printf("npuify ops: %zu names, %zu operators on torch_npu %s: %zu "
           "supported, %zu cpu-fallback, %zu unsupported, %zu composite, %zu "
           "unknown; %s\n",
           c.names, c.ops, v ? v->name : "?", c.supported, c.fallback,
           c.unsupported, c.composite, c.unknown, nfy_buf_cstr(&dyn));
    nfy_buf_release(&dyn);
    printf("npuify ops: reports in %s/\n", a->out_dir);
}

static int run_capture(ops_args *a, nfy_diags *d)
{
    nfy_capture_opts co = {a->out_dir, a->cmd, a->every, a->all_processes, d};
    nfy_capture_result res;
    nfy_status st = nfy_prof_ops_capture(&co, &res);
    if (st == NFY_OK) {
        for (size_t i = 0; i < res.n_traces; i++)
            a->inputs[a->ninputs++] = strdup(res.trace_paths[i]);
    }
    nfy_prof_capture_result_release(&res);
    return st == NFY_OK ? 0 : NFY_EXIT_INPUT;
}

/* Where frames' files are looked for: --source, else (with --capture)
 * the profiled script's directory, which the profiler names files
 * relative to (its sys.path[0]), else the current directory. */
static const char *source_root(const ops_args *a, nfy_arena *ar)
{
    if (a->source)
        return a->source;
    for (char **c = a->cmd; a->capture && c && *c; c++) {
        nfy_str arg = nfy_str_from_cstr(*c);
        if (!nfy_str_ends_with(arg, NFY_STR_LIT(".py")))
            continue;
        const char *slash = strrchr(*c, '/');
        return !slash        ? "."
               : slash == *c ? "/"
                             : nfy_arena_strndup(ar, *c, (size_t)(slash - *c));
    }
    return ".";
}

static int analyse(ops_args *a, const nfy_apidb_version *v, nfy_diags *d)
{
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    nfy_prof_input_info *infos = calloc(a->ninputs + 1, sizeof *infos);
    if (!infos)
        abort();
    bool ok = true;
    nfy_buf rows = NFY_BUF_INIT;
    for (size_t i = 0; i < a->ninputs; i++)
        ok &=
            read_input(a->inputs[i], &t, d, &infos[i], a->rows ? &rows : NULL);
    int32_t ref = a->ref_step;
    nfy_prof_table_dynamic(&t, ref);
    if (ref < 0) { /* report the step that was used */
        for (size_t i = 0; i < t.ops.len; i++) {
            const nfy_prof_step_vec *s = t.any_shapes
                                             ? &t.ops.items[i].shape_steps
                                             : &t.ops.items[i].steps;
            if (s->len && (ref < 0 || s->items[0] < ref))
                ref = s->items[0];
        }
    }
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_table_check(&t, v, a->compare);
    nfy_prof_table_sort(&t);
    nfy_arena calls = NFY_ARENA_INIT; /* the sites' calls in the source */
    nfy_cli_ops_sites_in_source(&t, source_root(a, &calls), &calls);
    nfy_prof_report_meta m = {v,          infos,      a->ninputs, ref,
                              a->compare, a->formats, d};
    nfy_status st = nfy_report_prof_report_write(&t, &m, a->out_dir, d);
    if (st == NFY_OK && a->rows) {
        nfy_arena ar = NFY_ARENA_INIT;
        st = rows.status;
        if (st == NFY_OK)
            st = nfy_file_write_atomic(
                nfy_path_join(&ar, a->out_dir, "rows.tsv"),
                rows.data ? rows.data : "", rows.len, 0644);
        nfy_arena_release(&ar);
    }
    nfy_buf_release(&rows);
    print_diags(d, a->json_diags);
    if (!a->quiet && st == NFY_OK)
        print_summary(&t, a, v, ref);
    free(infos);
    nfy_prof_table_release(&t);
    nfy_arena_release(&calls);
    if (st != NFY_OK)
        return NFY_EXIT_INTERNAL;
    return ok ? NFY_EXIT_OK : NFY_EXIT_INPUT;
}

/* A Python script given as a log (`ops train.py`): named by its suffix or
 * a python #! line. It holds no profiler output; --capture runs it. */
static bool is_python_script(const char *path)
{
    nfy_str p = nfy_str_from_cstr(path);
    if (nfy_str_ends_with(p, NFY_STR_LIT(".py")) ||
        nfy_str_ends_with(p, NFY_STR_LIT(".pyw")))
        return true;
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    if (!f)
        return false;
    char line[128];
    bool py = fgets(line, sizeof line, f) && !strncmp(line, "#!", 2) &&
              strstr(line, "python");
    fclose(f);
    return py;
}

/* Python scripts are taken out of the inputs with an error that names
 * --capture; returns how many were. */
static size_t drop_scripts(ops_args *a, nfy_diags *d)
{
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < a->ninputs; i++) {
        if (!is_python_script(a->inputs[i])) {
            a->inputs[kept++] = a->inputs[i];
            continue;
        }
        dropped++;
        nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-input", a->inputs[i], 0, 0,
                        "a Python script, not a profiler log or trace; to "
                        "profile it run: npuify ops --capture -- python %s",
                        a->inputs[i]);
    }
    a->ninputs = kept;
    return dropped;
}

/* Reports of no readable input would be empty: with not one input
 * readable (a mistyped log name, only Python scripts), say so and write
 * nothing. With some readable, the reader names the others and the rest
 * is reported. */
static bool inputs_readable(ops_args *a, nfy_diags *d, size_t *refused)
{
    if (a->capture)
        return true;
    *refused = drop_scripts(a, d);
    if (a->ninputs == 0) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-input", NULL, 0, 0,
                        "no profiler log or trace to read; no report "
                        "written");
        return false;
    }
    for (size_t i = 0; i < a->ninputs; i++)
        if (!strcmp(a->inputs[i], "-") || access(a->inputs[i], R_OK) == 0)
            return true;
    for (size_t i = 0; i < a->ninputs; i++) {
        int err = access(a->inputs[i], R_OK) == 0 ? 0 : errno;
        nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-input", a->inputs[i], 0, 0,
                        "cannot read: %s; no report written", strerror(err));
    }
    return false;
}

/* An NPU profile directory (or --compare) goes to ops_npu.c; -1 when the
 * inputs are logs and traces. */
static int npu_mode(ops_args *a)
{
    size_t dirs = 0;
    for (size_t i = 0; i < a->ninputs; i++)
        dirs += nfy_cli_is_dir(a->inputs[i]);
    if (!dirs && !a->gpu_profile)
        return -1;
    if (dirs != 1 || a->ninputs != 1 || a->capture)
        return nfy_cli_usage_error("ops", "--compare and an NPU profile "
                                          "directory go alone: npuify ops "
                                          "NPU_DIR [--compare GPU_PROFILE]");
    nfy_cli_ops_npu_args n = {a->inputs[0], a->gpu_profile, a->out_dir,
                              a->quiet, a->json_diags};
    return nfy_cli_ops_npu(&n);
}

int nfy_cli_cmd_ops(int argc, char **argv)
{
    ops_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        free(a.inputs);
        return rc < 0 ? NFY_EXIT_OK : rc;
    }
    if ((rc = npu_mode(&a)) >= 0) {
        free(a.inputs);
        return rc;
    }
    const nfy_apidb_version *v = nfy_apidb_version_default();
    if (a.version_text) {
        nfy_status st =
            nfy_apidb_version_parse(nfy_str_from_cstr(a.version_text), &v);
        if (st) {
            fprintf(stderr,
                    "npuify ops: error[usage]: torch version '%s' %s; "
                    "shipped: %s\n",
                    a.version_text,
                    st == NFY_ENOENT ? "is not shipped" : "is malformed",
                    nfy_apidb_version_list());
            free(a.inputs);
            return NFY_EXIT_USAGE;
        }
    }
    nfy_diags d;
    nfy_diags_init(&d);
    d.max = 10000;
    size_t refused = 0;
    if (!inputs_readable(&a, &d, &refused)) {
        print_diags(&d, a.json_diags);
        nfy_diags_release(&d);
        free(a.inputs);
        return NFY_EXIT_INPUT;
    }
    size_t given = a.ninputs; /* capture appends the traces it wrote */
    if (a.capture && (rc = run_capture(&a, &d)) != 0) {
        print_diags(&d, a.json_diags);
        nfy_diags_release(&d);
        free(a.inputs);
        return rc;
    }
    rc = analyse(&a, v, &d);
    if (rc == NFY_EXIT_OK && refused)
        rc = NFY_EXIT_INPUT;
    for (size_t i = given; i < a.ninputs; i++)
        free((char *)a.inputs[i]);
    nfy_diags_release(&d);
    free(a.inputs);
    return rc;
}
