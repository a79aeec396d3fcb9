/*
 * Unit tests for names the profiler cut to 52 chars + "..." that the same
 * input never prints in full: nfy_prof_table_check resolves them against
 * the operators apidb knows for the target version (the native_functions
 * tables and NPU lists under data/), one candidate -> that operator,
 * several -> kept cut with their count in the notes. Also: a full name in
 * the input still wins, and a later check for another version redoes the
 * lookup.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
/* cmocka.h (included last) needs the standard headers above */
#include <cmocka.h>

#include "proflog/proflog.h"
#include "report/ops.h"

/* 2.6 table: ..._for_cpu_backward is the only operator with this start;
 * ..._overrideable and ..._overrideable_backward share theirs. */
#define CUT_UNIQUE  "aten::_scaled_dot_product_flash_attention_for_cpu_ba..."
#define FULL_UNIQUE "aten::_scaled_dot_product_flash_attention_for_cpu_backward"
#define CUT_TWO     "aten::_scaled_dot_product_fused_attention_overrideab..."

static const nfy_apidb_version *V(const char *name)
{
    const nfy_apidb_version *v = NULL;
    assert_int_equal(nfy_apidb_version_parse(nfy_str_from_cstr(name), &v),
                     NFY_OK);
    return v;
}

static void add_row(nfy_prof_table *t, const char *name, bool cut)
{
    nfy_prof_row r;
    memset(&r, 0, sizeof r);
    r.step = 1;
    r.calls = 2;
    r.rank = NFY_PROF_RANK_NONE;
    for (int d = 0; d < NFY_PDEV__COUNT; d++)
        r.self_us[d] = r.total_us[d] = NAN;
    r.self_us[NFY_PDEV_CPU] = 10;
    r.name = nfy_str_from_cstr(name);
    r.flags = cut ? NFY_PROW_NAME_TRUNCATED : 0;
    nfy_prof_table_add(t, &r);
}

static nfy_prof_op *get(nfy_prof_table *t, const char *name)
{
    nfy_prof_op *op = nfy_prof_table_find(t, nfy_str_from_cstr(name));
    assert_non_null(op);
    return op;
}

static void test_unique_known_operator(void **state)
{
    (void)state;
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    add_row(&t, CUT_UNIQUE, true);
    add_row(&t, "aten::mm", false);
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_op *op = get(&t, CUT_UNIQUE);
    assert_ptr_equal(op->full_name.ptr, op->name.ptr); /* not in the input */
    nfy_prof_table_check(&t, V("2.6"), false);
    op = get(&t, CUT_UNIQUE);
    assert_true(op->cut_from_known);
    assert_true(nfy_str_eq_cstr(op->full_name, FULL_UNIQUE));
    assert_int_equal(op->cut_candidates, 0);
    /* a backend op without NPU kernel: CPU fallback */
    assert_int_equal(op->status, NFY_PSTAT_FALLBACK);
    nfy_buf csv = NFY_BUF_INIT;
    nfy_report_prof_render_ops_csv(&t, NULL, &csv);
    assert_non_null(strstr(nfy_buf_cstr(&csv), FULL_UNIQUE ","));
    assert_non_null(
        strstr(nfy_buf_cstr(&csv), "resolved from the known operators"));
    nfy_buf_release(&csv);
    nfy_buf all = NFY_BUF_INIT;
    nfy_report_prof_render_all_ops(&t, &all);
    assert_non_null(strstr(nfy_buf_cstr(&all), FULL_UNIQUE "\n"));
    nfy_buf_release(&all);

    /* 2.3 is served by the 2.2 table, which lacks it: stays cut */
    nfy_prof_table_check(&t, V("2.3"), false);
    op = get(&t, CUT_UNIQUE);
    assert_false(op->cut_from_known);
    assert_ptr_equal(op->full_name.ptr, op->name.ptr);
    assert_int_equal(op->cut_candidates, 0);
    assert_int_equal(op->status, NFY_PSTAT_UNKNOWN);
    nfy_prof_table_release(&t);
}

static void test_ambiguous_known_operators(void **state)
{
    (void)state;
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    add_row(&t, CUT_TWO, true);
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_table_check(&t, V("2.6"), false);
    nfy_prof_op *op = get(&t, CUT_TWO);
    assert_false(op->cut_from_known);
    assert_ptr_equal(op->full_name.ptr, op->name.ptr);
    assert_int_equal(op->cut_candidates, 2);
    assert_int_equal(op->status, NFY_PSTAT_UNKNOWN);
    nfy_buf csv = NFY_BUF_INIT;
    nfy_report_prof_render_ops_csv(&t, NULL, &csv);
    assert_non_null(strstr(nfy_buf_cstr(&csv), "2 known operators start so"));
    assert_non_null(strstr(nfy_buf_cstr(&csv), CUT_TWO ","));
    nfy_buf_release(&csv);
    nfy_prof_table_release(&t);
}

static void test_input_name_wins(void **state)
{
    (void)state;
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    /* the input's own full name resolves it first, even one apidb does
     * not know */
    add_row(&t, "aten::_scaled_dot_product_flash_attention_for_cpu_bar_x",
            false);
    add_row(&t, CUT_UNIQUE, true);
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_table_check(&t, V("2.6"), false);
    nfy_prof_op *op = get(&t, CUT_UNIQUE);
    assert_false(op->cut_from_known);
    assert_true(nfy_str_eq_cstr(
        op->full_name,
        "aten::_scaled_dot_product_flash_attention_for_cpu_bar_x"));
    assert_int_equal(op->status, NFY_PSTAT_UNKNOWN);
    /* ambiguous in the input: the known operators are not asked */
    nfy_prof_table_release(&t);
    nfy_prof_table_init(&t);
    add_row(&t, "aten::_scaled_dot_product_flash_attention_for_cpu_ba_1",
            false);
    add_row(&t, "aten::_scaled_dot_product_flash_attention_for_cpu_ba_2",
            false);
    add_row(&t, CUT_UNIQUE, true);
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_table_check(&t, V("2.6"), false);
    op = get(&t, CUT_UNIQUE);
    assert_false(op->cut_from_known);
    assert_int_equal(op->cut_candidates, 0);
    assert_true(op->ambiguity.len > 0);
    nfy_prof_table_release(&t);
}

static void test_npu_and_other_namespaces(void **state)
{
    (void)state;
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    /* npu:: names are looked up among the custom ops (2.6 list has
     * npu_fusion_attention, _grad, _grad_v2, _v2 ...): several */
    add_row(&t, "npu::npu_fusion_attention...", true);
    /* another namespace is never resolved */
    add_row(&t, "c10d::allreduce_some_very_long_collective_name_cut_h...",
            true);
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_table_check(&t, V("2.6"), false);
    nfy_prof_op *op = get(&t, "npu::npu_fusion_attention...");
    assert_true(op->cut_candidates >= 4);
    op = get(&t, "c10d::allreduce_some_very_long_collective_name_cut_h...");
    assert_false(op->cut_from_known);
    assert_int_equal(op->cut_candidates, 0);
    nfy_prof_table_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unique_known_operator),
        cmocka_unit_test(test_ambiguous_known_operators),
        cmocka_unit_test(test_input_name_wins),
        cmocka_unit_test(test_npu_and_other_namespaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
