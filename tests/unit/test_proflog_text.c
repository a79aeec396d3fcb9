/*
 * Unit tests of the profiler text reader: cell grammars, the three layout
 * generations, device columns, prefixes, encodings, cut tables, split rows,
 * with_stack blocks, steps, and the op model (dynamic shapes, classes).
 * Tables here are short hand-made copies of the shapes PyTorch prints
 * (profiler_formats.md section 2), not outputs of npuify.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proflog/proflog.h"

/* ---- Collecting rows ----------------------------------------------------- */

typedef struct {
    char name[128];
    char shapes[128];
    char overload[32];
    char srcloc[128];
    char accel[16];
    int64_t calls;
    int32_t step, rank, table;
    uint32_t flags, line;
    double self_cpu, self_acc, total_cpu, total_acc, flops, mem, self_mem;
} got_row;

typedef struct {
    got_row rows[64];
    size_t n;
} got;

static void copy(char *dst, size_t cap, nfy_str s)
{
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    memcpy(dst, s.ptr, n);
    dst[n] = '\0';
}

static int collect(void *ctx, const nfy_prof_row *r)
{
    got *g = ctx;
    if (g->n >= 64)
        return 1;
    got_row *o = &g->rows[g->n++];
    memset(o, 0, sizeof *o);
    copy(o->name, sizeof o->name, r->name);
    copy(o->shapes, sizeof o->shapes, r->shapes);
    copy(o->overload, sizeof o->overload, r->overload);
    copy(o->srcloc, sizeof o->srcloc, r->source_loc);
    copy(o->accel, sizeof o->accel, r->accel_name);
    o->calls = r->calls;
    o->step = r->step;
    o->rank = r->rank;
    o->table = r->table;
    o->flags = r->flags;
    o->line = r->line;
    o->self_cpu = r->self_us[NFY_PDEV_CPU];
    o->self_acc = r->self_us[NFY_PDEV_ACCEL];
    o->total_cpu = r->total_us[NFY_PDEV_CPU];
    o->total_acc = r->total_us[NFY_PDEV_ACCEL];
    o->flops = r->flops;
    o->mem = r->mem_bytes[NFY_PDEV_CPU];
    o->self_mem = r->self_mem_bytes[NFY_PDEV_CPU];
    return 0;
}

/* Read text fed in chunks of chunk bytes (0: all at once). */
static void read_chunks(const char *text, size_t len, size_t chunk, got *g,
                        nfy_diags *d)
{
    memset(g, 0, sizeof *g);
    nfy_proflog_opts o = {"t.log", d, collect, g, 0};
    nfy_proflog_text *r = nfy_prof_text_new(&o);
    if (!chunk)
        chunk = len ? len : 1;
    for (size_t i = 0; i < len; i += chunk)
        assert_int_equal(
            nfy_prof_text_feed(r, text + i, i + chunk < len ? chunk : len - i),
            NFY_OK);
    assert_int_equal(nfy_prof_text_finish(r), NFY_OK);
    nfy_prof_text_free(r);
}

static void read_str(const char *text, got *g)
{
    read_chunks(text, strlen(text), 0, g, NULL);
}

/* A 1.13 grouped table with shapes (right-aligned, 55-wide names). */
#define SEP13                                                                  \
    "-------------------------------------------------------  ------------  "  \
    "------------  ------------  ------------  ------------  ------------  "   \
    "----------------------------------------  \n"
#define HDR13                                                                  \
    "                                                   Name    Self CPU %  "  \
    "    Self CPU   CPU total %     CPU total  CPU time avg    # of Calls    " \
    "                          Input Shapes  \n"

static const char table13[] = SEP13 HDR13 SEP13
    "                                            aten::addmm         3.67%  "
    "    63.000us         4.89%      84.000us      28.000us             3  "
    "       [[32], [8, 20], [20, 32], [], []]  \n"
    "                                      aten::nll_loss_nd        -0.17%  "
    "    -3.000us         1.69%      29.000us       9.667us             3  "
    "               [[8, 5], [8], [], [], []]  \n"
    "autograd::engine::evaluate_function: torch::autograd...         1.28%  "
    "    22.000us         5.30%      91.000us       7.583us            12  "
    "                                      []  \n" SEP13
    "Self CPU time total: 1.718ms\n\n";

/* ---- Cells -----------------------------------------------------------------
 */

static void test_times(void **state)
{
    (void)state;
    double us;
    assert_true(nfy_prof_parse_time(NFY_STR_LIT("12.345us"), &us));
    assert_true(fabs(us - 12.345) < 1e-9);
    assert_true(nfy_prof_parse_time(NFY_STR_LIT("1.500ms"), &us));
    assert_true(fabs(us - 1500) < 1e-9);
    assert_true(nfy_prof_parse_time(NFY_STR_LIT("3.000s"), &us));
    assert_true(fabs(us - 3e6) < 1e-6);
    assert_true(nfy_prof_parse_time(NFY_STR_LIT("-16028.000us"), &us));
    assert_true(fabs(us + 16028) < 1e-9);
    assert_true(nfy_prof_parse_time(NFY_STR_LIT("165.500us"), &us));
    assert_true(fabs(us - 165.5) < 1e-9);
    assert_false(nfy_prof_parse_time(NFY_STR_LIT("12.3x"), &us));
    assert_false(nfy_prof_parse_time(NFY_STR_LIT("us"), &us));
    assert_false(nfy_prof_parse_time(NFY_STR_LIT("12.0 us"), &us));
    assert_false(nfy_prof_parse_time(NFY_STR_LIT("3.67%"), &us));
}

static void test_percents(void **state)
{
    (void)state;
    double p;
    assert_true(nfy_prof_parse_pct(NFY_STR_LIT("12.34%"), &p));
    assert_true(fabs(p - 12.34) < 1e-9);
    assert_true(nfy_prof_parse_pct(NFY_STR_LIT("-0.24%"), &p));
    assert_true(fabs(p + 0.24) < 1e-9);
    assert_true(nfy_prof_parse_pct(NFY_STR_LIT("NaN"), &p));
    assert_true(isnan(p));
    assert_true(nfy_prof_parse_pct(NFY_STR_LIT("0"), &p));
    assert_true(p == 0);
    assert_false(nfy_prof_parse_pct(NFY_STR_LIT("abc%"), &p));
    assert_false(nfy_prof_parse_pct(NFY_STR_LIT("12.0us"), &p));
}

static void test_memory(void **state)
{
    (void)state;
    double b;
    assert_true(nfy_prof_parse_mem(NFY_STR_LIT("0 b"), &b));
    assert_true(b == 0);
    assert_true(nfy_prof_parse_mem(NFY_STR_LIT("283.77 Kb"), &b));
    assert_true(fabs(b - 283.77 * 1024) < 1e-6);
    assert_true(nfy_prof_parse_mem(NFY_STR_LIT("-128.12 Kb"), &b));
    assert_true(b < 0);
    assert_true(nfy_prof_parse_mem(NFY_STR_LIT("5.00 GB"), &b));
    assert_true(fabs(b - 5.0 * 1024 * 1024 * 1024) < 1);
    assert_true(nfy_prof_parse_mem(NFY_STR_LIT("24.59 Gb"), &b));
    assert_true(nfy_prof_parse_mem(NFY_STR_LIT("12 B"), &b));
    assert_true(b == 12);
    assert_false(nfy_prof_parse_mem(NFY_STR_LIT("12 Xb"), &b));
    assert_false(nfy_prof_parse_mem(NFY_STR_LIT("12Kb"), &b));
}

static void test_shape_cut_and_sniff(void **state)
{
    (void)state;
    assert_false(nfy_prof_shapes_truncated(NFY_STR_LIT("[[8, 20], []]")));
    assert_true(nfy_prof_shapes_truncated(NFY_STR_LIT("[[8, 20], [], []")));
    assert_true(
        nfy_prof_shapes_truncated(NFY_STR_LIT("[[5, 64, 56, 56], [64")));
    assert_false(nfy_prof_shapes_truncated(NFY_STR_LIT("[[[704]], []]")));
    assert_true(nfy_prof_sniff_trace("[{\"name\"", 8));
    assert_true(nfy_prof_sniff_trace("\n  {\n", 5));
    assert_true(nfy_prof_sniff_trace("\x1f\x8b\x08", 3));
    assert_false(nfy_prof_sniff_trace("[rank0]: ---", 12));
    assert_false(nfy_prof_sniff_trace("[W init.cpp]", 12));
    assert_false(nfy_prof_sniff_trace("epoch 1", 7));
}

/* ---- Layouts ------------------------------------------------------------- */

static void test_layout_113(void **state)
{
    (void)state;
    got g;
    read_str(table13, &g);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.rows[0].name, "aten::addmm");
    assert_string_equal(g.rows[0].shapes, "[[32], [8, 20], [20, 32], [], []]");
    assert_int_equal(g.rows[0].calls, 3);
    assert_true(fabs(g.rows[0].self_cpu - 63) < 1e-9);
    assert_true(fabs(g.rows[0].total_cpu - 84) < 1e-9);
    assert_true(isnan(g.rows[0].self_acc));
    assert_int_equal(g.rows[0].line, 4);
    assert_true(fabs(g.rows[1].self_cpu + 3) < 1e-9);
    assert_int_equal(g.rows[2].calls, 12);
    assert_true(g.rows[2].flags & NFY_PROW_NAME_TRUNCATED);
    assert_false(g.rows[0].flags & NFY_PROW_NAME_TRUNCATED);
    assert_true(g.rows[0].flags & NFY_PROW_HAS_SHAPES);
    assert_int_equal(g.rows[0].step, 1);
    assert_int_equal(g.rows[0].rank, NFY_PROF_RANK_NONE);
}

static void test_layout_old_left_aligned(void **state)
{
    (void)state;
    static const char t[] =
        "-----------------------  ---------------  ---------------  "
        "---------------  ---------------  ---------------  ---------------  "
        "---------------  ---------------  ---------------  "
        "-----------------------------------\n"
        "Name                     Self CPU total %  Self CPU total   CPU total "
        "%      CPU total        CPU time avg     CUDA total %     CUDA total "
        "      CUDA time avg    Number of Calls  Input Shapes\n"
        "-----------------------  ---------------  ---------------  "
        "---------------  ---------------  ---------------  ---------------  "
        "---------------  ---------------  ---------------  "
        "-----------------------------------\n"
        "lstm                     0.69%            4.606ms          5.30%     "
        "       35.507ms         35.507ms         NaN              0.000us    "
        "      0.000us          1                [[5, 3, 10]]\n"
        "conv2d                   0.80%            13.370us         100.00%   "
        "       1.671ms          1.671ms          25.34%           1.698ms    "
        "      1.698ms          2                [[5, 64, 56, 56], [64, 64, 3\n"
        "-----------------------  ---------------\n";
    got g;
    read_str(t, &g);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.rows[0].name, "lstm");
    assert_true(fabs(g.rows[0].self_cpu - 4606) < 1e-6);
    assert_true(fabs(g.rows[1].total_acc - 1698) < 1e-6);
    assert_string_equal(g.rows[1].accel, "CUDA");
    assert_int_equal(g.rows[1].calls, 2);
    assert_true(g.rows[1].flags & NFY_PROW_SHAPES_TRUNCATED);
    assert_false(g.rows[1].flags & NFY_PROW_TABLE_CUT);
}

static void test_layout_2x_devices_mem_flops(void **state)
{
    (void)state;
    /* 2.x: NPU columns as torch_npu names them, memory, FLOPs, a time
     * cell overflowing its column, Overload Name. */
    static const char t[] =
        "----------------  -------------  ------------  ------------  "
        "------------  ------------  ------------  ------------  ------------  "
        "------------  ------------  ------------\n"
        "            Name  Overload Name      Self CPU     CPU total      "
        "Self NPU    Self NPU %     NPU total       CPU Mem  Self CPU Mem    "
        "# of Calls  Total MFLOPs  Input Shapes\n"
        "----------------  -------------  ------------  ------------  "
        "------------  ------------  ------------  ------------  ------------  "
        "------------  ------------  ------------\n"
        "       aten::add         Tensor  -16028.000us       1.000ms      "
        "12.000us        50.00%      12.000us      24.59 Gb     -10.76 Gb   "
        "         64       536.871  [[2, 3], [2, 3], []]\n"
        "      aten::relu                     2.000us       2.000us       "
        "0.000us         0.00%       0.000us           0 B           0 B     "
        "        1            --  [[2, 3]]\n"
        "----------------  -------------  ------------  ------------\n";
    got g;
    read_str(t, &g);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.rows[0].name, "aten::add");
    assert_string_equal(g.rows[0].overload, "Tensor");
    assert_true(fabs(g.rows[0].self_cpu + 16028) < 1e-6);
    assert_true(fabs(g.rows[0].self_acc - 12) < 1e-9);
    assert_string_equal(g.rows[0].accel, "NPU");
    assert_true(fabs(g.rows[0].flops - 536.871e6) < 1);
    assert_true(g.rows[0].self_mem < 0);
    assert_int_equal(g.rows[0].calls, 64);
    assert_string_equal(g.rows[1].name, "aten::relu");
    assert_string_equal(g.rows[1].overload, "");
    assert_true(isnan(g.rows[1].flops));
    assert_true(g.rows[1].mem == 0);
}

/* A user label with two spaces inside (nothing forbids it): split-on-2
 * readers break it, matching from the right keeps it whole. */
static void test_name_with_double_space(void **state)
{
    (void)state;
    static const char t[] = "-----------------  ------------  ------------\n"
                            "             Name      Self CPU    # of Calls\n"
                            "-----------------  ------------  ------------\n"
                            "   my  label [1]       5.000us             2\n"
                            "-----------------  ------------  ------------\n";
    got g;
    read_str(t, &g);
    assert_int_equal(g.n, 1);
    assert_string_equal(g.rows[0].name, "my  label [1]");
    assert_int_equal(g.rows[0].calls, 2);
}

static void test_with_stack(void **state)
{
    (void)state;
    static const char t[] =
        "-----------  ------------  ---------------------\n"
        "       Name    # of Calls  Source Location\n"
        "-----------  ------------  ---------------------\n"
        "  aten::mm             1  <built-in method mm>\n"
        "                           torch/nn/linear.py(9): forward\n"
        "                           [] looks like shapes.py(1): x\n"
        "\n"
        "aten::relu             2  <built-in method relu>\n"
        "                           train.py(3): step\n"
        "                                                      \n"
        "-----------  ------------  ---------------------\n";
    got g;
    read_str(t, &g);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.rows[0].name, "aten::mm");
    /* the first frame in the user's code: torch's own and <built-in>
     * frames are skipped, continuation lines included */
    assert_string_equal(g.rows[0].srcloc, "[] looks like shapes.py(1): x");
    assert_string_equal(g.rows[1].name, "aten::relu");
    assert_int_equal(g.rows[1].calls, 2);
    assert_string_equal(g.rows[1].srcloc, "train.py(3): step");
}

/* ---- Prefixes, encodings, noise -------------------------------------------
 */

static void test_rank_prefixes_and_comments(void **state)
{
    (void)state;
    static const char t[] = "[rank1]: -----------  ------------\n"
                            "[0] -----------  ------------\n"
                            "[rank1]:        Name    # of Calls\n"
                            "[0] Name         Number of Calls\n"
                            "[rank1]: -----------  ------------\n"
                            "[0] -----------  ------------\n"
                            "[rank1]:    aten::mm             4\n"
                            "[0] pg::allreduce  10\n"
                            "[rank1]: -----------  ------------\n"
                            "[0] -----------  ------------\n"
                            "# -----------  ------------\n"
                            "#        Name    # of Calls\n"
                            "# -----------  ------------\n"
                            "#  aten::add_             7\n"
                            "# -----------  ------------\n"
                            "[default3]:-----------  ------------\n"
                            "[default3]:       Name    # of Calls\n"
                            "[default3]:-----------  ------------\n"
                            "[default3]:   aten::mul             5\n"
                            "[default3]:-----------  ------------\n";
    got g;
    read_str(t, &g);
    assert_int_equal(g.n, 4);
    assert_string_equal(g.rows[0].name, "aten::mm");
    assert_int_equal(g.rows[0].rank, 1);
    assert_string_equal(g.rows[1].name, "pg::allreduce");
    assert_int_equal(g.rows[1].rank, 0);
    assert_int_equal(g.rows[1].calls, 10);
    assert_string_equal(g.rows[2].name, "aten::add_");
    assert_int_equal(g.rows[2].rank, NFY_PROF_RANK_NONE);
    assert_string_equal(g.rows[3].name, "aten::mul");
    assert_int_equal(g.rows[3].rank, 3);
}

static void test_ansi_crlf_progress(void **state)
{
    (void)state;
    static const char t[] =
        "\x1b[32mINFO\x1b[0m start\r\n"
        "-----------  ------------\r\n"
        "       Name    # of Calls\r\n"
        "-----------  ------------\r\n"
        "\x1b[1m   aten::mm\x1b[0m             4\r\n"
        "loss 0.5\rtrain 10%\r   aten::add             2\r\n"
        "-----------  ------------\r\n";
    got g;
    read_str(t, &g);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.rows[0].name, "aten::mm");
    assert_int_equal(g.rows[0].calls, 4);
    assert_string_equal(g.rows[1].name, "aten::add");
}

/* UTF-16 with BOM, fed in every chunk size 1..7 (odd splits, surrogates). */
static void utf16_case(bool le)
{
    static const char src[] =
        "-----------  ------------\n"
        "       Name    # of Calls\n"
        "-----------  ------------\n"
        "    \xf0\x9f\x94\xa5 \xc3\xa9t\xc3\xa9             4\n"
        "-----------  ------------\n";
    /* UTF-8 -> UTF-16 by hand (BMP + one surrogate pair). */
    unsigned char buf[512];
    size_t n = 0;
    buf[n++] = le ? 0xff : 0xfe;
    buf[n++] = le ? 0xfe : 0xff;
    for (size_t i = 0; src[i];) {
        uint32_t cp;
        size_t k = nfy_utf8_decode(src + i, strlen(src + i), &cp);
        assert_true(k > 0);
        i += k;
        uint16_t units[2];
        size_t nu = 1;
        if (cp >= 0x10000) {
            units[0] = (uint16_t)(0xd800 + ((cp - 0x10000) >> 10));
            units[1] = (uint16_t)(0xdc00 + ((cp - 0x10000) & 0x3ff));
            nu = 2;
        } else {
            units[0] = (uint16_t)cp;
        }
        for (size_t u = 0; u < nu; u++) {
            buf[n++] = (unsigned char)(le ? units[u] & 0xff : units[u] >> 8);
            buf[n++] = (unsigned char)(le ? units[u] >> 8 : units[u] & 0xff);
        }
    }
    for (size_t chunk = 1; chunk <= 7; chunk++) {
        got g;
        read_chunks((const char *)buf, n, chunk, &g, NULL);
        assert_int_equal(g.n, 1);
        assert_string_equal(g.rows[0].name,
                            "\xf0\x9f\x94\xa5 \xc3\xa9t\xc3\xa9");
        assert_int_equal(g.rows[0].calls, 4);
    }
}

static void test_utf16le(void **state)
{
    (void)state;
    utf16_case(true);
}

static void test_utf16be(void **state)
{
    (void)state;
    utf16_case(false);
}

static void test_chunking_utf8(void **state)
{
    (void)state;
    for (size_t chunk = 1; chunk < 40; chunk += 3) {
        got g;
        read_chunks(table13, strlen(table13), chunk, &g, NULL);
        assert_int_equal(g.n, 3);
        assert_string_equal(g.rows[1].name, "aten::nll_loss_nd");
    }
}

static void test_cut_table_and_split_row(void **state)
{
    (void)state;
    static const char t[] =
        "-----------  ------------  ------------\n"
        "       Name      Self CPU    # of Calls\n"
        "-----------  ------------  ------------\n"
        "   aten::mm      1.000us [W x.cpp:1] Warning: noise\n"
        "        4\n"
        "  aten::add      2.000us             2\n"
        "not a row at all, just a log line\n"
        "  aten::mul      3.000us             1\n"
        "  aten::sub      3.0";
    nfy_diags d;
    nfy_diags_init(&d);
    got g;
    read_chunks(t, strlen(t), 0, &g, &d);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.rows[0].name, "aten::mm");
    assert_int_equal(g.rows[0].calls, 4);
    assert_int_equal(g.rows[0].line, 4);
    assert_string_equal(g.rows[2].name, "aten::mul");
    assert_true(g.rows[2].flags & NFY_PROW_TABLE_CUT);
    /* diagnostics: the split row, the skipped lines (with line numbers) and
     * the cut table */
    bool split = false, cut = false, skip7 = false;
    for (size_t i = 0; i < d.items.len; i++) {
        const nfy_diag *dg = &d.items.items[i];
        split |= !strcmp(dg->code, "prof-split-row") && dg->line == 4;
        cut |= !strcmp(dg->code, "prof-table-cut");
        skip7 |= !strcmp(dg->code, "prof-skip") && dg->line == 7;
    }
    assert_true(split);
    assert_true(cut);
    assert_true(skip7);
    nfy_diags_release(&d);
}

/* ---- Steps -----------------------------------------------------------------
 */

static void test_steps_tables_and_markers(void **state)
{
    (void)state;
    static const char t[] =
        /* aggregated table: one step */
        "-----------  ------------\n"
        "       Name    # of Calls\n"
        "-----------  ------------\n"
        "ProfilerStep*             2\n"
        "   aten::mm             4\n"
        "-----------  ------------\n"
        /* raw events: each ProfilerStep* opens a step */
        "-----------  ------------\n"
        "       Name    # of Calls\n"
        "-----------  ------------\n"
        "  aten::zeros             1\n"
        "ProfilerStep*             1\n"
        "   aten::mm             1\n"
        "   aten::mm             1\n"
        "ProfilerStep*             1\n"
        "  aten::add             1\n"
        "-----------  ------------\n";
    got g;
    read_str(t, &g);
    assert_int_equal(g.n, 8);
    assert_int_equal(g.rows[0].step, 1);
    assert_int_equal(g.rows[1].step, 1);
    assert_false(g.rows[1].flags & NFY_PROW_RAW_EVENT);
    assert_int_equal(g.rows[2].step, NFY_PROF_STEP_NONE); /* before marker */
    assert_true(g.rows[2].flags & NFY_PROW_RAW_EVENT);
    assert_int_equal(g.rows[3].step, 2);
    assert_true(g.rows[3].flags & NFY_PROW_STEP_MARKER);
    assert_int_equal(g.rows[5].step, 2);
    assert_int_equal(g.rows[6].step, 3);
    assert_int_equal(g.rows[7].step, 3);
    assert_int_equal(g.rows[7].table, 2);
}

/* ---- Op model -------------------------------------------------------------
 */

static void add(nfy_prof_table *t, const char *name, const char *shapes,
                int step, int calls)
{
    nfy_prof_row r;
    memset(&r, 0, sizeof r);
    r.name = nfy_str_from_cstr(name);
    r.shapes = nfy_str_from_cstr(shapes);
    r.calls = calls;
    r.step = step;
    r.rank = NFY_PROF_RANK_NONE;
    r.flags = NFY_PROW_HAS_SHAPES;
    for (int dv = 0; dv < NFY_PDEV__COUNT; dv++) {
        r.self_us[dv] = dv ? NAN : 1.0;
        r.total_us[dv] = NAN;
    }
    nfy_prof_table_add(t, &r);
}

static void test_dynamic(void **state)
{
    (void)state;
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    add(&t, "aten::addmm", "[[32], [8, 20]]", 1, 1);
    add(&t, "aten::addmm", "[[32], [8, 20]]", 2, 1);
    add(&t, "aten::addmm", "[[32], [5, 20]]", 3, 1); /* shape changed */
    add(&t, "aten::relu", "[[8, 32]]", 1, 1);
    add(&t, "aten::relu", "[[8, 32]]", 3, 1);  /* static */
    add(&t, "aten::mul_", "[[32], []]", 2, 2); /* new in a later step */
    add(&t, "aten::zero_", "[[1]]", 1, 1);     /* only in step 1 */
    nfy_prof_table_dynamic(&t, -1);
    assert_int_equal(nfy_prof_table_find(&t, NFY_STR_LIT("aten::addmm"))->dyn,
                     NFY_PDYN_SHAPE_CHANGED);
    assert_int_equal(nfy_prof_table_find(&t, NFY_STR_LIT("aten::relu"))->dyn,
                     NFY_PDYN_STATIC);
    assert_int_equal(nfy_prof_table_find(&t, NFY_STR_LIT("aten::mul_"))->dyn,
                     NFY_PDYN_NEW_LATER);
    assert_int_equal(nfy_prof_table_find(&t, NFY_STR_LIT("aten::zero_"))->dyn,
                     NFY_PDYN_STATIC);
    nfy_prof_op *mm = nfy_prof_table_find(&t, NFY_STR_LIT("aten::addmm"));
    assert_int_equal(mm->calls, 3);
    assert_int_equal(mm->shapes.len, 2);
    assert_int_equal(mm->steps.len, 3);
    assert_int_equal(mm->shapes.items[1].first_step, 3);
    /* with step 2 as the reference, mul_ is present there and addmm's new
     * shape still came later */
    nfy_prof_table_dynamic(&t, 2);
    assert_int_equal(nfy_prof_table_find(&t, NFY_STR_LIT("aten::mul_"))->dyn,
                     NFY_PDYN_STATIC);
    assert_int_equal(nfy_prof_table_find(&t, NFY_STR_LIT("aten::relu"))->dyn,
                     NFY_PDYN_NEW_LATER);
    nfy_prof_table_sort(&t);
    assert_non_null(nfy_prof_table_find(&t, NFY_STR_LIT("aten::relu")));
    nfy_prof_table_release(&t);
}

/* Sites: the user's frames only; at most NFY_PROF_SITES_MAX per op, the
 * calls of further sites counted apart. */
static void test_sites(void **state)
{
    (void)state;
    assert_true(nfy_prof_frame_is_user(NFY_STR_LIT("model.py(9): forward")));
    assert_true(nfy_prof_frame_is_user(NFY_STR_LIT("/a/b/c.py(1): f")));
    assert_false(nfy_prof_frame_is_user(
        NFY_STR_LIT("torch/nn/modules/linear.py(113): forward")));
    assert_false(nfy_prof_frame_is_user(
        NFY_STR_LIT("/usr/lib/python3/dist-packages/torch/_tensor.py(4): f")));
    assert_false(nfy_prof_frame_is_user(
        NFY_STR_LIT("<built-in method heaviside of type object at 0x1>")));
    assert_false(nfy_prof_frame_is_user(NFY_STR_LIT("<frozen runpy>(88): x")));
    assert_false(nfy_prof_frame_is_user(NFY_STR_LIT("nn.Module: Net_0")));
    nfy_str u = nfy_prof_first_user_frame(
        NFY_STR_LIT("<built-in function linear>;torch/nn/f.py(2): g;"
                    "nn.Module: L;net.py(7): forward;main.py(1): <module>"),
        ';');
    assert_true(nfy_str_eq(u, NFY_STR_LIT("net.py(7): forward")));
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    char frame[64];
    for (int i = 0; i < NFY_PROF_SITES_MAX + 8; i++)
        for (int rep = 0; rep < 2; rep++) {
            nfy_prof_row r;
            memset(&r, 0, sizeof r);
            r.name = NFY_STR_LIT("aten::heaviside");
            snprintf(frame, sizeof frame, "m.py(%d): f", i + 1);
            r.source_loc = nfy_str_from_cstr(frame);
            r.calls = 1;
            r.step = NFY_PROF_STEP_NONE;
            r.self_us[0] = r.self_us[1] = 0;
            nfy_prof_table_add(&t, &r);
        }
    nfy_prof_op *op = nfy_prof_table_find(&t, NFY_STR_LIT("aten::heaviside"));
    assert_non_null(op);
    assert_int_equal(op->sites.len, NFY_PROF_SITES_MAX);
    assert_int_equal(op->sites.items[0].calls, 2);
    assert_int_equal(op->other_site_calls, 16);
    nfy_str file, func;
    uint32_t line;
    nfy_prof_site_parts(op->sites.items[4].text, &file, &line, &func);
    assert_true(nfy_str_eq(file, NFY_STR_LIT("m.py")));
    assert_int_equal(line, 5);
    assert_true(nfy_str_eq(func, NFY_STR_LIT("f")));
    nfy_prof_table_release(&t);
}

static void test_classify(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        nfy_prof_kind kind;
    } cases[] = {
        {"aten::addmm", NFY_PKIND_OP},
        {"torchvision::nms", NFY_PKIND_OP},
        {"aten::_scaled_dot_product_efficient_attention_bac...", NFY_PKIND_OP},
        {"c10d::allreduce_", NFY_PKIND_COMM},
        {"pg::allreduce", NFY_PKIND_COMM},
        {"nccl:all_reduce", NFY_PKIND_COMM},
        {"AddmmBackward0", NFY_PKIND_AUTOGRAD},
        {"autograd::engine::evaluate_function: AddmmBackward0",
         NFY_PKIND_AUTOGRAD},
        {"torch::autograd::AccumulateGrad", NFY_PKIND_AUTOGRAD},
        {"Optimizer.step#SGD.step", NFY_PKIND_ANNOTATION},
        {"## forward, with comma & spaces ##", NFY_PKIND_ANNOTATION},
        {"model_inference", NFY_PKIND_ANNOTATION},
        {"ProfilerStep*", NFY_PKIND_STEP},
        {"ProfilerStep#3", NFY_PKIND_STEP},
        {"Torch-Compiled Region", NFY_PKIND_COMPILE},
        {"triton_poi_fused_gelu_0", NFY_PKIND_COMPILE},
        {"inductor::_reinterpret_tensor", NFY_PKIND_COMPILE},
        {"cudaLaunchKernel", NFY_PKIND_RUNTIME},
        {"cuLaunchKernel", NFY_PKIND_RUNTIME},
        {"void at::native::vectorized_elementwise_kernel<4, at...",
         NFY_PKIND_KERNEL},
        {"Memcpy DtoD (Device -> Device)", NFY_PKIND_KERNEL},
        {"ampere_sgemm_128x128_tn", NFY_PKIND_KERNEL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nfy_prof_kind k = nfy_prof_classify(nfy_str_from_cstr(cases[i].name));
        if (k != cases[i].kind)
            fail_msg("%s: got %s, want %s", cases[i].name,
                     nfy_prof_kind_name(k), nfy_prof_kind_name(cases[i].kind));
    }
}

static void test_truncated_resolution(void **state)
{
    (void)state;
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    nfy_prof_row r;
    memset(&r, 0, sizeof r);
    r.step = 1;
    r.calls = 1;
    r.rank = NFY_PROF_RANK_NONE;
    for (int dv = 0; dv < NFY_PDEV__COUNT; dv++)
        r.self_us[dv] = r.total_us[dv] = NAN;
    r.name =
        NFY_STR_LIT("aten::_scaled_dot_product_efficient_attention_backward");
    nfy_prof_table_add(&t, &r);
    r.name =
        NFY_STR_LIT("aten::_scaled_dot_product_efficient_attention_bac...");
    r.flags = NFY_PROW_NAME_TRUNCATED;
    nfy_prof_table_add(&t, &r);
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_op *op = nfy_prof_table_find(
        &t,
        NFY_STR_LIT("aten::_scaled_dot_product_efficient_attention_bac..."));
    assert_non_null(op);
    assert_true(nfy_str_eq_cstr(
        op->full_name,
        "aten::_scaled_dot_product_efficient_attention_backward"));
    nfy_prof_table_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_percents),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_shape_cut_and_sniff),
        cmocka_unit_test(test_layout_113),
        cmocka_unit_test(test_layout_old_left_aligned),
        cmocka_unit_test(test_layout_2x_devices_mem_flops),
        cmocka_unit_test(test_name_with_double_space),
        cmocka_unit_test(test_with_stack),
        cmocka_unit_test(test_rank_prefixes_and_comments),
        cmocka_unit_test(test_ansi_crlf_progress),
        cmocka_unit_test(test_utf16le),
        cmocka_unit_test(test_utf16be),
        cmocka_unit_test(test_chunking_utf8),
        cmocka_unit_test(test_cut_table_and_split_row),
        cmocka_unit_test(test_steps_tables_and_markers),
        cmocka_unit_test(test_dynamic),
        cmocka_unit_test(test_sites),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_truncated_resolution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
