/* Unit tests for the NPU profile readers and findings (src/npuprof): the CSV
 * reader's grammar and limits, kernel_details / op_statistic columns and
 * their op_summary aliases, trace_view flows and Overlap Analysis, the .db
 * reader on a file that is not a database, each finding class on an
 * in-memory profile (fires, and stays quiet below its threshold), and
 * fuzz-style robustness: every prefix and byte flip of a fixture is read
 * without a crash. Expected values are worked out by hand from the bytes. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npuprof/npuprof.h"

#define FIXTURE "tests/npuprof/mlp_fp32_ascend_pt/ASCEND_PROFILER_OUTPUT/"

/* ---- CSV ------------------------------------------------------------------
 */

typedef struct {
    char cells[16][64][64];
    size_t ncells[16];
    uint32_t lines[16];
    size_t rows;
} csv_got;

static int keep_row(void *ctx, const nfy_str *cells, size_t n, uint32_t line)
{
    csv_got *g = ctx;
    if (g->rows == 16)
        return 1;
    for (size_t i = 0; i < n && i < 64; i++)
        snprintf(g->cells[g->rows][i], 64, "%.*s", NFY_STR_FMT(cells[i]));
    g->ncells[g->rows] = n;
    g->lines[g->rows++] = line;
    return 0;
}

static nfy_status csv_mem(const char *text, csv_got *g, nfy_diags *d,
                          size_t max_field)
{
    memset(g, 0, sizeof *g);
    nfy_npu_csv_opts o = {"t.csv", d, max_field, 0, keep_row, g};
    return nfy_npuprof_csv_read_mem(text, strlen(text), &o);
}

static void test_csv_quotes(void **state)
{
    (void)state;
    nfy_diags d;
    nfy_diags_init(&d);
    csv_got g;
    const char *text = "\xEF\xBB\xBFName,Input Shapes,Start\r\n"
                       "a,\"64,16;16,64\",1701.5\t\r\n"
                       "\"q\"\"x\",\"two\nlines\",\n"
                       "\n"
                       "last,,3";
    assert_int_equal(csv_mem(text, &g, &d, 0), NFY_OK);
    assert_int_equal(g.rows, 4);
    assert_string_equal(g.cells[0][0], "Name"); /* BOM dropped */
    assert_string_equal(g.cells[1][1], "64,16;16,64");
    assert_string_equal(g.cells[1][2], "1701.5"); /* tab trimmed */
    assert_string_equal(g.cells[2][0], "q\"x");
    assert_string_equal(g.cells[2][1], "two\nlines");
    assert_int_equal(g.ncells[2], 3);
    assert_int_equal(g.lines[2], 3);
    assert_int_equal(g.lines[3], 6); /* the blank line 5 is no record */
    assert_string_equal(g.cells[3][2], "3");
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_WARNING), 0);
    nfy_diags_release(&d);
}

static void test_csv_unterminated(void **state)
{
    (void)state;
    nfy_diags d;
    nfy_diags_init(&d);
    csv_got g;
    assert_int_equal(csv_mem("a,b\nc,\"open\nmore", &g, &d, 0), NFY_ESYNTAX);
    assert_int_equal(g.rows, 1);
    assert_int_equal(d.items.len, 1);
    assert_string_equal(d.items.items[0].code, "npu-csv-quote");
    assert_int_equal(d.items.items[0].line, 2); /* where the quote opened */
    assert_int_equal(d.items.items[0].col, 2);
    nfy_diags_release(&d);
}

static void test_csv_limits(void **state)
{
    (void)state;
    nfy_diags d;
    nfy_diags_init(&d);
    csv_got g;
    char *text = malloc(5000);
    assert_non_null(text);
    memset(text, 'x', 4000);
    strcpy(text + 4000, ",y\n");
    assert_int_equal(csv_mem(text, &g, &d, 16), NFY_OK);
    assert_int_equal(strlen(g.cells[0][0]), 16); /* cut at max_field */
    assert_string_equal(g.cells[0][1], "y");
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_WARNING), 1);
    assert_string_equal(d.items.items[0].code, "npu-csv-long-cell");
    /* 600 cells: only max_cells (512) are kept, one warning */
    char *p = text;
    for (int i = 0; i < 600; i++)
        *p++ = 'a', *p++ = ',';
    *p = '\0';
    nfy_diags_release(&d);
    nfy_diags_init(&d);
    assert_int_equal(csv_mem(text, &g, &d, 0), NFY_OK);
    assert_int_equal(g.ncells[0], 512);
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_WARNING), 1);
    free(text);
    nfy_diags_release(&d);
}

/* ---- kernel_details / op_statistic
 * ------------------------------------------- */

static char *write_tmp(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/npuprof_unit_%d_%s", (int)getpid(), name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(text, 1, strlen(text), f);
    fclose(f);
    return path;
}

static void test_kernel_details(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *path = write_tmp(
        "kd.csv", "Step Id,Name,Type,Accelerator Core,Start Time(us),"
                  "Duration(us),Wait Time(us),Input Shapes,Input Data Types\n"
                  "1,aclnnCast_CastAiCpu_Cast,Cast,AI_CPU,100.5\t,85,0,\"64\","
                  "INT64\n"
                  "1,mm,MatMulV2,AI_CORE,190,40.25,4.5,\"64,16;16,64\","
                  "FLOAT;FLOAT\n"
                  "1,bad,Add,AI_VECTOR_CORE,240,soon,0,,\n"
                  "2,hcom_allReduce__1,hcom_allReduce_,HCCL,300,260,N/A,,\n");
    assert_int_equal(nfy_npuprof_read_kernel_details(&p, path, &d), NFY_OK);
    assert_int_equal(p.kernels.len, 3);
    assert_int_equal(p.bad_rows, 1);
    const nfy_npu_kernel *k = &p.kernels.items[1];
    assert_int_equal(k->core, NFY_NCORE_AI_CORE);
    assert_true(nfy_str_eq_cstr(k->shapes, "64,16;16,64"));
    assert_true(fabs(k->start_us - 190) < 1e-9 &&
                fabs(k->dur_us - 40.25) < 1e-9);
    assert_int_equal(p.kernels.items[0].core, NFY_NCORE_AI_CPU);
    assert_true(fabs(p.kernels.items[0].start_us - 100.5) < 1e-9);
    assert_int_equal(p.kernels.items[2].core, NFY_NCORE_HCCL);
    assert_int_equal(p.kernels.items[2].step, 2);
    assert_true(isnan(p.kernels.items[2].wait_us));
    assert_int_equal(d.items.items[0].line, 4); /* the bad row */
    /* interned: the same type text is one copy */
    assert_ptr_equal(p.kernels.items[0].type.ptr,
                     nfy_npuprof_intern(&p, NFY_STR_LIT("Cast")).ptr);
    unlink(path);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
}

static void test_op_summary_aliases(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *path =
        write_tmp("os.csv", "Device_id,Op Name,OP Type,Task Type,Task Start "
                            "Time(us),Task Duration(us),Task Wait Time(us)\n"
                            "0,x,Cast,AI_CPU,1,2,0\n");
    assert_int_equal(nfy_npuprof_read_kernel_details(&p, path, &d), NFY_OK);
    assert_int_equal(p.kernels.len, 1);
    assert_true(nfy_str_eq_cstr(p.kernels.items[0].type, "Cast"));
    assert_int_equal(p.kernels.items[0].core, NFY_NCORE_AI_CPU);
    unlink(path);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
}

static void test_wrong_columns(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *path = write_tmp("wrong.csv", "Name,Calls,Self CPU\nx,1,2\n");
    assert_int_equal(nfy_npuprof_read_kernel_details(&p, path, &d),
                     NFY_ESYNTAX);
    assert_int_equal(p.kernels.len, 0);
    assert_string_equal(d.items.items[0].code, "npu-columns");
    assert_int_equal(d.items.items[0].line, 1);
    assert_non_null(strstr(d.items.items[0].msg, "Duration(us)"));
    const char *empty = write_tmp("empty.csv", "");
    assert_int_equal(nfy_npuprof_read_op_statistic(&p, empty, &d), NFY_ESYNTAX);
    unlink(path);
    unlink(empty);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
}

static void test_op_statistic(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *path = write_tmp(
        "st.csv", "Device_id,OP Type,Core Type,Count,Total Time(us),Min "
                  "Time(us),Avg Time(us),Max Time(us),Ratio(%)\n"
                  "0,MatMulV2,AI_CORE,22,914.000,39,41.5,44,42.95\n");
    assert_int_equal(nfy_npuprof_read_op_statistic(&p, path, &d), NFY_OK);
    assert_int_equal(p.opstats.len, 1);
    assert_int_equal(p.opstats.items[0].count, 22);
    assert_true(fabs(p.opstats.items[0].ratio - 42.95) < 1e-9);
    unlink(path);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
}

/* ---- trace_view / db -------------------------------------------------------
 */

static void test_trace_view_flows(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *path = write_tmp(
        "tv.json",
        "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3,\"args\":{\"name\":"
        "\"Ascend Hardware\"}},"
        "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":4,\"args\":{\"name\":"
        "\"Overlap Analysis\"}},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":1,"
        "\"tid\":1,\"ts\":\"100.000\",\"dur\":\"50.000\"},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":1,"
        "\"tid\":1,\"ts\":\"110.000\",\"dur\":\"20.000\"},"
        "{\"ph\":\"s\",\"cat\":\"async_npu\",\"id\":7,\"pid\":1,\"tid\":1,"
        "\"ts\":\"112.000\"},"
        "{\"ph\":\"f\",\"cat\":\"async_npu\",\"id\":7,\"pid\":3,\"tid\":2,"
        "\"ts\":\"140.000\",\"bp\":\"e\"},"
        "{\"ph\":\"X\",\"name\":\"MatMulV2\",\"pid\":3,\"tid\":2,\"ts\":140,"
        "\"dur\":33.5},"
        "{\"ph\":\"X\",\"name\":\"Free\",\"pid\":4,\"tid\":0,\"ts\":\"173.5\","
        "\"dur\":\"12\"},"
        "{\"ph\":\"X\",\"name\":\"Enqueue\",\"pid\":1,\"tid\":1,\"ts\":111,"
        "\"dur\":1}, 5, \"junk\", {\"ph\":\"X\"}]");
    assert_int_equal(nfy_npuprof_read_trace_view(&p, path, &d), NFY_OK);
    const nfy_npu_hostop *mm =
        nfy_npuprof_hostop_find(&p, NFY_STR_LIT("aten::addmm"));
    const nfy_npu_hostop *lin =
        nfy_npuprof_hostop_find(&p, NFY_STR_LIT("aten::linear"));
    assert_non_null(mm);
    assert_non_null(lin);
    assert_true(fabs(mm->device_us - 33.5) < 1e-9); /* innermost op */
    assert_true(lin->device_us == 0);
    assert_true(fabs(lin->host_us - 50) < 1e-9);
    assert_int_equal(p.tl.flows, 1);
    assert_true(p.tl.overlap && fabs(p.tl.free_us - 12) < 1e-9);
    assert_int_equal(p.tl.enqueue_n, 1);
    unlink(path);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
}

static void test_trace_view_bad_json(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *path =
        write_tmp("bad.json", "[\n {\"ph\": \"X\",\n  \"ts\": }");
    assert_int_equal(nfy_npuprof_read_trace_view(&p, path, &d), NFY_ESYNTAX);
    assert_string_equal(d.items.items[0].code, "npu-json");
    assert_int_equal(d.items.items[0].line, 3);
    const char *obj = write_tmp("obj.json", "{\"a\": 1}");
    assert_int_equal(nfy_npuprof_read_trace_view(&p, obj, &d), NFY_ESYNTAX);
    unlink(path);
    unlink(obj);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
}

static void test_db_not_a_database(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_diags d;
    nfy_diags_init(&d);
    const char *path = write_tmp("x.db", "this is not SQLite at all\n");
    assert_int_not_equal(nfy_npuprof_read_db(&p, path, &d), NFY_OK);
    assert_true(nfy_diags_count(&d, NFY_SEV_ERROR) >= 1);
    assert_string_equal(d.items.items[0].code, "npu-db");
    assert_int_equal(p.kernels.len, 0);
    unlink(path);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
}

/* ---- findings -------------------------------------------------------------
 */

static void add_kernel(nfy_npu_profile *p, const char *type, nfy_npu_core c,
                       const char *dtypes, double start, double dur,
                       int32_t step)
{
    nfy_npu_kernel k;
    memset(&k, 0, sizeof k);
    k.name = nfy_npuprof_intern(p, nfy_str_from_cstr(type));
    k.type = k.name;
    k.dtypes = nfy_npuprof_intern(p, nfy_str_from_cstr(dtypes));
    k.core = c;
    k.start_us = start;
    k.dur_us = dur;
    k.step = step;
    k.wait_us = k.mac_ratio = NAN;
    nfy_vec_push(&p->kernels, k);
}

static const nfy_npu_finding *finding(const nfy_npu_analysis *a,
                                      nfy_npu_find_kind k)
{
    for (size_t i = 0; i < a->items.len; i++)
        if (a->items.items[i].kind == k)
            return &a->items.items[i];
    return NULL;
}

static void test_findings_fire(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    double t = 1000;
    for (int step = 1; step <= 2; step++) {
        add_kernel(&p, "Cast", NFY_NCORE_AI_CPU, "INT64", t, 100, step);
        t += 101;
        add_kernel(&p, "MatMulV2", NFY_NCORE_AI_CORE, "FLOAT;FLOAT", t, 200,
                   step);
        t += 201;
        add_kernel(&p, "hcom_allReduce_", NFY_NCORE_HCCL, "", t, 300, step);
        t += 300 + 500; /* a 500 us hole */
        for (int i = 0; i < 10; i++, t += 6)
            add_kernel(&p, "ApplyAdamW", NFY_NCORE_AI_VECTOR, "FLOAT", t, 5,
                       step);
    }
    nfy_npu_analysis a;
    nfy_npuprof_analyse(&p, &a);
    assert_int_equal(a.kernels, 26);
    assert_int_equal(a.steps, 2);
    assert_true(fabs(a.kernel_us - 2 * (100 + 200 + 300 + 50)) < 1e-9);
    const nfy_npu_finding *f = finding(&a, NFY_NFIND_AI_CPU);
    assert_non_null(f);
    assert_true(fabs(f->time_us - 200) < 1e-9 && f->count == 2);
    assert_non_null(strstr(f->ops, "Cast (AI_CPU, INT64)"));
    f = finding(&a, NFY_NFIND_FP32_MATMUL);
    assert_non_null(f);
    assert_true(fabs(f->share - 400.0 / 1300) < 1e-9);
    f = finding(&a, NFY_NFIND_HCCL);
    assert_non_null(f);
    assert_true(fabs(f->time_us - 600) < 1e-9);
    f = finding(&a, NFY_NFIND_HOST_BOUND);
    assert_non_null(f);
    /* per step: gaps 1 + 1 + 500 + 9 * 1 = 511 us */
    assert_true(fabs(f->time_us - 2 * 511) < 1e-6);
    assert_int_equal(f->count, 2);
    f = finding(&a, NFY_NFIND_SMALL_KERNELS);
    assert_non_null(f);
    assert_int_equal(f->count, 20);
    f = finding(&a, NFY_NFIND_OPTIMIZER);
    assert_non_null(f);
    assert_int_equal(f->count, 20);
    nfy_npuprof_analysis_release(&a);
    nfy_npuprof_profile_release(&p);
}

static void test_findings_quiet(void **state)
{
    (void)state;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    double t = 1000;
    for (int i = 0; i < 30; i++, t += 101) /* BF16, dense, big kernels */
        add_kernel(&p, i % 2 ? "MatMulV3" : "Add",
                   i % 2 ? NFY_NCORE_AI_CORE : NFY_NCORE_AI_VECTOR,
                   "DT_BF16;FLOAT16", t, 100, 1);
    add_kernel(&p, "ApplyAdamW", NFY_NCORE_AI_VECTOR, "FLOAT", t, 50, 1);
    nfy_npu_analysis a;
    nfy_npuprof_analyse(&p, &a);
    assert_int_equal(a.items.len, 0);
    assert_int_equal(a.types.len, 3);
    assert_true(nfy_str_eq_cstr(a.types.items[0].type, "Add") ||
                nfy_str_eq_cstr(a.types.items[0].type, "MatMulV3"));
    nfy_npuprof_analysis_release(&a);
    nfy_npuprof_profile_release(&p);
}

/* ---- robustness ------------------------------------------------------------
 */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    b[n] = '\0';
    *len = (size_t)n;
    return b;
}

static void write_bytes(const char *path, const char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(b, 1, n, f);
    fclose(f);
}

/* Every prefix (step 7) and a flipped byte at each of them: the readers
 * and the analysis never crash, and keep no more rows than the whole. */
static void test_truncations(void **state)
{
    (void)state;
    size_t n;
    char *csv = slurp(FIXTURE "kernel_details.csv", &n);
    char path[128];
    snprintf(path, sizeof path, "/tmp/npuprof_unit_%d_cut.csv", (int)getpid());
    for (size_t cut = 0; cut <= n; cut += 7) {
        for (int flip = 0; flip < 2; flip++) {
            char saved = cut < n ? csv[cut] : 0;
            if (flip && cut < n)
                csv[cut] = (char)(saved ^ (cut % 3 ? '"' : ','));
            write_bytes(path, csv, flip ? n : cut);
            if (flip && cut < n)
                csv[cut] = saved;
            nfy_npu_profile p;
            nfy_npuprof_profile_init(&p);
            nfy_diags d;
            nfy_diags_init(&d);
            (void)nfy_npuprof_read_kernel_details(&p, path, &d);
            assert_true(p.kernels.len <= 79 + 1);
            nfy_npu_analysis a;
            nfy_npuprof_analyse(&p, &a);
            nfy_buf b = NFY_BUF_INIT;
            nfy_npuprof_render_md(&p, &a, &b);
            nfy_npuprof_render_json(&p, &a, &b);
            nfy_buf_release(&b);
            nfy_npuprof_analysis_release(&a);
            nfy_npuprof_profile_release(&p);
            nfy_diags_release(&d);
        }
    }
    unlink(path);
    free(csv);
    char *json = slurp(FIXTURE "trace_view.json", &n);
    snprintf(path, sizeof path, "/tmp/npuprof_unit_%d_cut.json", (int)getpid());
    for (size_t cut = 0; cut < n; cut += n / 97 + 1) {
        write_bytes(path, json, cut);
        nfy_npu_profile p;
        nfy_npuprof_profile_init(&p);
        nfy_diags d;
        nfy_diags_init(&d);
        assert_int_equal(nfy_npuprof_read_trace_view(&p, path, &d),
                         NFY_ESYNTAX);
        assert_int_equal(nfy_diags_count(&d, NFY_SEV_ERROR), 1);
        nfy_npuprof_profile_release(&p);
        nfy_diags_release(&d);
    }
    unlink(path);
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_quotes),
        cmocka_unit_test(test_csv_unterminated),
        cmocka_unit_test(test_csv_limits),
        cmocka_unit_test(test_kernel_details),
        cmocka_unit_test(test_op_summary_aliases),
        cmocka_unit_test(test_wrong_columns),
        cmocka_unit_test(test_op_statistic),
        cmocka_unit_test(test_trace_view_flows),
        cmocka_unit_test(test_trace_view_bad_json),
        cmocka_unit_test(test_db_not_a_database),
        cmocka_unit_test(test_findings_fire),
        cmocka_unit_test(test_findings_quiet),
        cmocka_unit_test(test_truncations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
