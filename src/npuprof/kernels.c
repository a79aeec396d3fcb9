/*
 * kernel_details.csv and op_statistic.csv (torch_npu profiler), plus the
 * msprof op_summary_*.csv layout whose headers torch_npu renames (Op Name
 * -> Name, OP Type -> Type, Task Type -> Accelerator Core, Task Start
 * Time(us) -> Start Time(us), ...). Columns are found by header name, so
 * the optional ones (Step Id, aic_metrics columns) may come and go.
 */
#include <math.h>

#include "npuprof/npuprof.h"

enum {
    K_STEP,
    K_NAME,
    K_TYPE,
    K_CORE,
    K_START,
    K_DUR,
    K_WAIT,
    K_SHAPES,
    K_DTYPES,
    K_MAC,
    K__COUNT
};

/* Header titles of each field; the first is kernel_details', the others
 * the op_summary names it was made from. */
static const char *const kernel_titles[K__COUNT][3] = {
    [K_STEP] = {"Step Id", NULL, NULL},
    [K_NAME] = {"Name", "Op Name", NULL},
    [K_TYPE] = {"Type", "OP Type", NULL},
    [K_CORE] = {"Accelerator Core", "Task Type", NULL},
    [K_START] = {"Start Time(us)", "Task Start Time(us)", NULL},
    [K_DUR] = {"Duration(us)", "Task Duration(us)", NULL},
    [K_WAIT] = {"Wait Time(us)", "Task Wait Time(us)", NULL},
    [K_SHAPES] = {"Input Shapes", NULL, NULL},
    [K_DTYPES] = {"Input Data Types", NULL, NULL},
    [K_MAC] = {"aic_mac_ratio", "Mac Ratio", NULL},
};

enum { S_TYPE, S_CORE, S_COUNT, S_TOTAL, S_AVG, S_MAX, S_RATIO, S__COUNT };

static const char *const stat_titles[S__COUNT][3] = {
    [S_TYPE] = {"OP Type", "Op Type", NULL},
    [S_CORE] = {"Core Type", "Task Type", NULL},
    [S_COUNT] = {"Count", NULL, NULL},
    [S_TOTAL] = {"Total Time(us)", NULL, NULL},
    [S_AVG] = {"Avg Time(us)", NULL, NULL},
    [S_MAX] = {"Max Time(us)", NULL, NULL},
    [S_RATIO] = {"Ratio(%)", NULL, NULL},
};

typedef struct {
    nfy_npu_profile *p;
    nfy_diags *d;
    const char *path;
    const char *const (*titles)[3];
    size_t nfields;
    int col[16]; /* per field, -1: absent (K__COUNT, S__COUNT <= 16) */
    bool have_header, failed;
    unsigned bad_shown;
} table_ctx;

static bool parse_num(nfy_str s, double *out)
{
    char tmp[64];
    if (!s.len || s.len >= sizeof tmp || nfy_str_eq_cstr(s, "N/A")) {
        *out = NAN;
        return s.len == 0 || nfy_str_eq_cstr(s, "N/A");
    }
    memcpy(tmp, s.ptr, s.len);
    tmp[s.len] = '\0';
    char *end;
    double v = strtod(tmp, &end);
    if (*end || !isfinite(v)) {
        *out = NAN;
        return false;
    }
    *out = v;
    return true;
}

static nfy_str cell(const table_ctx *t, int field, const nfy_str *cells,
                    size_t n)
{
    int c = t->col[field];
    return c >= 0 && (size_t)c < n ? cells[c] : NFY_STR_LIT("");
}

static void map_header(table_ctx *t, const nfy_str *cells, size_t n)
{
    for (size_t f = 0; f < t->nfields; f++) {
        t->col[f] = -1;
        for (size_t i = 0; i < n && t->col[f] < 0; i++)
            for (size_t k = 0; k < 3 && t->titles[f][k]; k++)
                if (nfy_str_eq_cstr(cells[i], t->titles[f][k]))
                    t->col[f] = (int)i;
    }
    t->have_header = true;
}

static void bad_row(table_ctx *t, uint32_t line, const char *what)
{
    t->p->bad_rows++;
    if (t->bad_shown++ < 5)
        nfy_diag_add_at(t->d, NFY_SEV_WARNING, "npu-bad-row", t->path, line, 0,
                        "%s; row skipped", what);
}

/* The header must name the columns a finding needs. */
static int need_columns(table_ctx *t, const int *fields, size_t n,
                        uint32_t line)
{
    for (size_t i = 0; i < n; i++) {
        if (t->col[fields[i]] >= 0)
            continue;
        nfy_diag_add_at(t->d, NFY_SEV_ERROR, "npu-columns", t->path, line, 0,
                        "no '%s' column in the header: not a %s",
                        t->titles[fields[i]][0],
                        t->titles == kernel_titles ? "kernel_details.csv"
                                                   : "op_statistic.csv");
        t->failed = true;
        return 1;
    }
    return 0;
}

static int kernel_row(void *ctx, const nfy_str *cells, size_t n, uint32_t line)
{
    table_ctx *t = ctx;
    if (!t->have_header) {
        map_header(t, cells, n);
        static const int need[] = {K_NAME, K_DUR};
        return need_columns(t, need, 2, line);
    }
    nfy_npu_kernel k;
    memset(&k, 0, sizeof k);
    double step;
    if (!parse_num(cell(t, K_DUR, cells, n), &k.dur_us) || isnan(k.dur_us) ||
        k.dur_us < 0) {
        bad_row(t, line, "Duration(us) is not a number");
        return 0;
    }
    if (!parse_num(cell(t, K_START, cells, n), &k.start_us) ||
        !parse_num(cell(t, K_WAIT, cells, n), &k.wait_us) ||
        !parse_num(cell(t, K_MAC, cells, n), &k.mac_ratio) ||
        !parse_num(cell(t, K_STEP, cells, n), &step)) {
        bad_row(t, line, "a time, ratio or step cell is not a number");
        return 0;
    }
    nfy_npu_profile *p = t->p;
    k.step = isnan(step) || step < 0 || step > 1e9 ? NFY_NPU_STEP_NONE
                                                   : (int32_t)step;
    k.name = nfy_npuprof_intern(p, cell(t, K_NAME, cells, n));
    k.type = nfy_npuprof_intern(p, cell(t, K_TYPE, cells, n));
    k.shapes = nfy_npuprof_intern(p, cell(t, K_SHAPES, cells, n));
    k.dtypes = nfy_npuprof_intern(p, cell(t, K_DTYPES, cells, n));
    k.core = nfy_npuprof_core_parse(cell(t, K_CORE, cells, n));
    if (k.core == NFY_NCORE_OTHER &&
        (nfy_str_starts_with(k.name, NFY_STR_LIT("hcom_")) ||
         nfy_str_contains_ci(k.type, "hcom")))
        k.core = NFY_NCORE_HCCL;
    k.line = line;
    nfy_vec_push(&p->kernels, k);
    return 0;
}

static int stat_row(void *ctx, const nfy_str *cells, size_t n, uint32_t line)
{
    table_ctx *t = ctx;
    if (!t->have_header) {
        map_header(t, cells, n);
        static const int need[] = {S_TYPE, S_TOTAL};
        return need_columns(t, need, 2, line);
    }
    nfy_npu_opstat s;
    double count;
    if (!parse_num(cell(t, S_TOTAL, cells, n), &s.total_us) ||
        isnan(s.total_us) || !parse_num(cell(t, S_COUNT, cells, n), &count) ||
        !parse_num(cell(t, S_AVG, cells, n), &s.avg_us) ||
        !parse_num(cell(t, S_MAX, cells, n), &s.max_us) ||
        !parse_num(cell(t, S_RATIO, cells, n), &s.ratio)) {
        bad_row(t, line, "a count, time or ratio cell is not a number");
        return 0;
    }
    s.count = isnan(count) || count < 0 || count > 9e15 ? 0 : (int64_t)count;
    s.type = nfy_npuprof_intern(t->p, cell(t, S_TYPE, cells, n));
    s.core = nfy_npuprof_core_parse(cell(t, S_CORE, cells, n));
    nfy_vec_push(&t->p->opstats, s);
    return 0;
}

static nfy_status read_table(nfy_npu_profile *p, const char *path, nfy_diags *d,
                             bool kernels)
{
    table_ctx t;
    memset(&t, 0, sizeof t);
    t.p = p;
    t.d = d;
    t.path = path;
    t.titles = kernels ? kernel_titles : stat_titles;
    t.nfields = kernels ? K__COUNT : S__COUNT;
    nfy_npu_csv_opts o = {path, d, 0, 0, kernels ? kernel_row : stat_row, &t};
    nfy_status st = nfy_npuprof_csv_read_file(path, &o);
    if (st == NFY_OK && !t.have_header) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "npu-empty", path, 1, 0,
                        "empty file: no header row");
        return NFY_ESYNTAX;
    }
    if (st == NFY_OK && t.failed)
        st = NFY_ESYNTAX;
    if (t.bad_shown > 5)
        nfy_diag_add_at(d, NFY_SEV_WARNING, "npu-bad-row", path, 0, 0,
                        "%u more rows skipped", t.bad_shown - 5);
    return st;
}

nfy_status nfy_npuprof_read_kernel_details(nfy_npu_profile *p, const char *path,
                                           nfy_diags *d)
{
    p->src.kernel_details = nfy_arena_strdup(&p->arena, path);
    return read_table(p, path, d, true);
}

nfy_status nfy_npuprof_read_op_statistic(nfy_npu_profile *p, const char *path,
                                         nfy_diags *d)
{
    p->src.op_statistic = nfy_arena_strdup(&p->arena, path);
    return read_table(p, path, d, false);
}
