/*
 * Unit tests for apidb's use of PyTorch's per-version operator tables
 * (data/torch/native_functions_v{1.13,2.2,2.4,2.6,2.7,2.9}.tsv): which
 * table serves
 * a torch_npu line (the nearest not newer, then the older ones for an
 * operator it lacks), operators new in 2.x and their kinds, and the lookup
 * of cut profiler names by prefix. Besides facts picked by hand from the
 * data files (named at each test), a cross-check re-reads the TSV files and
 * the NPU kernel lists and recomputes every status with the documented rule.
 * Run from the repository root (it reads data/).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* cmocka.h (included last) needs the standard headers above */
#include <cmocka.h>

#include "apidb/apidb.h"

static nfy_str S(const char *s)
{
    return (nfy_str){s, strlen(s)};
}

static const nfy_apidb_version *V(const char *name)
{
    const nfy_apidb_version *v = NULL;
    assert_int_equal(nfy_apidb_version_parse(S(name), &v), NFY_OK);
    assert_non_null(v);
    return v;
}

static nfy_op_status status(const char *ver, const char *name,
                            nfy_op_info *info)
{
    return nfy_apidb_op_status(V(ver), S(name), info);
}

/* ---- Which table, by hand ---------------------------------------------- */

static void test_new_in_2x_backend_op(void **state)
{
    (void)state;
    nfy_op_info info;
    /* _scaled_dot_product_flash_attention: a CUDA path of
     * scaled_dot_product_attention (data/npu/backend_ops.tsv), which
     * torch_npu registers from 2.1 on: that decides, on every 2.x */
    static const char *const vers[] = {"2.1", "2.3", "2.7", "2.12"};
    for (size_t i = 0; i < sizeof vers / sizeof vers[0]; i++) {
        assert_int_equal(
            status(vers[i], "aten::_scaled_dot_product_flash_attention", &info),
            NFY_OP_SUPPORTED);
        assert_string_equal(info.npu_counterpart,
                            "aten::scaled_dot_product_attention");
        assert_true(info.listed);
        assert_string_equal(info.matched,
                            "_scaled_dot_product_flash_attention");
    }
    /* _scaled_dot_product_flash_attention_for_cpu: in the 2.4 table, not
     * in 2.2's */
    assert_int_equal(status("2.5",
                            "aten::_scaled_dot_product_flash_attention_for_cpu",
                            &info),
                     NFY_OP_CPU_FALLBACK);
    assert_string_equal(info.torch_version, "2.4");
    assert_int_equal(status("2.3",
                            "aten::_scaled_dot_product_flash_attention_for_cpu",
                            NULL),
                     NFY_OP_UNKNOWN);
}

static void test_new_in_2x_composite_ops(void **state)
{
    (void)state;
    nfy_op_info info;
    /* rms_norm: CompositeImplicitAutograd from the 2.4 table on, absent
     * from 1.13 and 2.2, no NPU kernel */
    assert_int_equal(status("2.6", "aten::rms_norm", &info), NFY_OP_COMPOSITE);
    assert_false(info.explicit_composite);
    assert_string_equal(info.torch_version, "2.6");
    assert_int_equal(status("2.8", "aten::rms_norm", &info), NFY_OP_COMPOSITE);
    assert_string_equal(info.torch_version, "2.7");
    assert_int_equal(status("2.4", "aten::rms_norm", &info), NFY_OP_COMPOSITE);
    assert_string_equal(info.torch_version, "2.4");
    assert_int_equal(status("2.3", "aten::rms_norm", NULL), NFY_OP_UNKNOWN);
    /* _safe_softmax: CompositeExplicitAutograd from 2.6 on, not in 2.4 */
    assert_int_equal(status("2.5", "aten::_safe_softmax", NULL),
                     NFY_OP_UNKNOWN);
    /* _foreach_max (its slow path), _safe_softmax: CompositeExplicitAutograd
     * in 2.6, one kernel for every backend: composite */
    assert_int_equal(status("2.6", "aten::_foreach_max", &info),
                     NFY_OP_COMPOSITE);
    assert_true(info.explicit_composite);
    assert_int_equal(status("2.6", "aten::_safe_softmax", &info),
                     NFY_OP_COMPOSITE);
    assert_true(info.explicit_composite);
    /* sym_constrain_range: CompositeExplicitAutograd from the 2.2 table */
    assert_int_equal(status("2.3", "aten::sym_constrain_range", &info),
                     NFY_OP_COMPOSITE);
    assert_string_equal(info.torch_version, "2.2");
    /* scaled_dot_product_attention is composite in PyTorch, but torch_npu
     * registers a kernel: the kernel wins */
    assert_int_equal(status("2.6", "aten::scaled_dot_product_attention", NULL),
                     NFY_OP_SUPPORTED);
}

static void test_new_in_2_8_and_2_9(void **state)
{
    (void)state;
    nfy_op_info info;
    /* _grouped_mm (explicit) and _fused_rms_norm (implicit): in the 2.9.1
     * table, not in 2.7's; no NPU kernel up to 2.13 */
    assert_int_equal(status("2.12", "aten::_grouped_mm", &info),
                     NFY_OP_COMPOSITE);
    assert_true(info.explicit_composite);
    assert_string_equal(info.torch_version, "2.9");
    assert_int_equal(status("2.9", "aten::_fused_rms_norm", &info),
                     NFY_OP_COMPOSITE);
    assert_false(info.explicit_composite);
    assert_int_equal(status("2.9", "aten::_fused_rms_norm_backward", NULL),
                     NFY_OP_CPU_FALLBACK);
    /* 2.8 is served by the 2.7 table */
    assert_int_equal(status("2.8", "aten::_grouped_mm", &info), NFY_OP_UNKNOWN);
    assert_string_equal(info.torch_version, "2.7");
    /* mm.dtype: new in 2.8, and torch_npu 2.9 registers a kernel */
    assert_int_equal(status("2.9", "aten::mm.dtype", NULL), NFY_OP_SUPPORTED);
    assert_int_equal(status("2.8", "aten::mm.dtype", NULL), NFY_OP_UNKNOWN);
}

static void test_kind_changes_between_tables(void **state)
{
    (void)state;
    nfy_op_info info;
    /* _foreach_lgamma: "backend" in 1.13 and 2.2, CompositeExplicitAutograd
     * (the slow path) from 2.4 on; no NPU kernel in aten_ops_v2.{3,6}.txt */
    assert_int_equal(status("2.3", "aten::_foreach_lgamma", &info),
                     NFY_OP_CPU_FALLBACK);
    assert_string_equal(info.torch_version, "2.2");
    assert_int_equal(status("2.6", "aten::_foreach_lgamma", &info),
                     NFY_OP_COMPOSITE);
    assert_true(info.explicit_composite);
    assert_string_equal(info.torch_version, "2.6");
}

static void test_older_table_for_dropped_op(void **state)
{
    (void)state;
    nfy_op_info info;
    /* _native_decoder_only_multi_head_attention: in 1.13 only (a backend
     * op there); a 2.x target finds it in the older table */
    assert_int_equal(
        status("2.6", "aten::_native_decoder_only_multi_head_attention", &info),
        NFY_OP_CPU_FALLBACK);
    assert_string_equal(info.torch_version, "1.13");
    /* a name no table knows stays unknown, reporting the serving table */
    assert_int_equal(status("2.6", "aten::no_such_operator_xyz", &info),
                     NFY_OP_UNKNOWN);
    assert_string_equal(info.torch_version, "2.6");
}

/* ---- Prefix lookup ------------------------------------------------------ */

static size_t prefix(const char *ver, const char *p, nfy_str *match)
{
    return nfy_apidb_op_prefix(V(ver), S(p), match);
}

static void test_prefix_unique_and_ambiguous(void **state)
{
    (void)state;
    nfy_str m;
    /* a profiler cut of aten::_scaled_dot_product_flash_attention_for_cpu_
     * backward (58 chars) to 52: only that op in the 2.6 table */
    assert_int_equal(
        prefix("2.6", "aten::_scaled_dot_product_flash_attention_for_cpu_ba",
               &m),
        1);
    assert_true(nfy_str_eq_cstr(
        m, "_scaled_dot_product_flash_attention_for_cpu_backward"));
    /* bare names are aten names */
    assert_int_equal(
        prefix("2.6", "_scaled_dot_product_flash_attention_for_cpu_ba", &m), 1);
    /* the 2.2 table (serving 2.3) does not have it */
    assert_int_equal(
        prefix("2.3", "aten::_scaled_dot_product_flash_attention_for_cpu_ba",
               &m),
        0);
    assert_int_equal(m.len, 0);
    /* ..._fused_attention_overrideable and its _backward (2.6 table) */
    assert_int_equal(
        prefix("2.6", "aten::_scaled_dot_product_fused_attention_overrideab",
               &m),
        2);
    assert_int_equal(m.len, 0);
    /* overloads count once: addmm, addmm.out, addmm.dtype... and addmm_ */
    assert_int_equal(prefix("2.6", "aten::addmm", NULL), 2);
    /* nothing to look up */
    assert_int_equal(prefix("2.6", "", &m), 0);
    assert_int_equal(prefix("2.6", "aten::", &m), 0);
    assert_int_equal(prefix("2.6", "npu::", &m), 0);
    assert_int_equal(prefix("2.6", "c10d::allreduce", &m), 0);
    assert_int_equal(prefix("2.6", "aten::zz_no_such_prefix", &m), 0);
    assert_int_equal(prefix("2.6",
                            "aten::_scaled_dot_product_flash_attention_"
                            "for_cpu_backward_and_more",
                            &m),
                     0);
    assert_int_equal(nfy_apidb_op_prefix(NULL, S("aten::rms_nor"), &m) >= 1,
                     true);
}

/* ---- Cross-check with the data files ----------------------------------- */

typedef struct {
    char *key;  /* "add.Tensor" */
    char *kind; /* "implicit", "explicit", "backend"; "" in NPU lists */
} entry;

typedef struct {
    entry *items;
    size_t len, cap;
} entries;

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->key, ((const entry *)b)->key);
}

static char *dup_n(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    assert_non_null(c);
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* Rows of a data file, sorted by key: column 0 of every non-header line,
 * column 1 (the kind) when there is one. */
static void load(const char *path, entries *l)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (l->len == l->cap) {
            l->cap = l->cap ? l->cap * 2 : 1024;
            l->items = realloc(l->items, l->cap * sizeof *l->items);
            assert_non_null(l->items);
        }
        size_t tab = strcspn(line, "\t");
        const char *kind = line[tab] ? line + tab + 1 : "";
        l->items[l->len].key = dup_n(line, tab);
        l->items[l->len++].kind = dup_n(kind, strlen(kind));
    }
    fclose(f);
    qsort(l->items, l->len, sizeof *l->items, entry_cmp);
}

static const entry *find(const entries *l, const char *key)
{
    entry probe = {(char *)key, NULL};
    return bsearch(&probe, l->items, l->len, sizeof *l->items, entry_cmp);
}

static void release(entries *l)
{
    for (size_t i = 0; i < l->len; i++) {
        free(l->items[i].key);
        free(l->items[i].kind);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

typedef struct {
    const char *label;
    entries rows;
} table;

/* One key of table rows: the status the documented rule gives on ver,
 * with the serving table tabs[serving] and the older ones after it. */
/* The ops of one backend's own library, written out again here. */
static bool backend_family(const char *key)
{
    static const char *const prefixes[] = {"cudnn_",  "_cudnn_",  "miopen_",
                                           "mkldnn_", "_mkldnn_", "_nnpack_",
                                           "_fused_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(key, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

static void check_key(const nfy_apidb_version *v, const char *key,
                      const entries *npu, const table *tabs, int serving)
{
    char name[600];
    snprintf(name, sizeof name, "aten::%s%s", key,
             strchr(key, '.') ? "" : ".default");
    nfy_op_info info;
    nfy_op_status st = nfy_apidb_op_status(v, S(name), &info);
    if (find(npu, key)) {
        assert_int_equal(st, NFY_OP_SUPPORTED);
        return;
    }
    if (info.npu_counterpart) {
        /* a backend-only kernel: its counterpart decides (test_apidb.c) */
        assert_int_not_equal(st, NFY_OP_CPU_FALLBACK);
        assert_int_not_equal(st, NFY_OP_UNKNOWN);
        return;
    }
    const entry *e = NULL;
    int t = serving;
    for (; t >= 0 && !(e = find(&tabs[t].rows, key)); t--)
        ;
    assert_non_null(e);
    bool generic = strcmp(e->kind, "implicit") == 0 ||
                   (strcmp(e->kind, "explicit") == 0 && !backend_family(key));
    nfy_op_status want = generic ? NFY_OP_COMPOSITE : NFY_OP_CPU_FALLBACK;
    if (st != want || strcmp(info.torch_version, tabs[t].label) != 0)
        fail_msg("%s on %s: %s from %s, want %s from %s", name, v->name,
                 nfy_apidb_op_status_name(st), info.torch_version,
                 nfy_apidb_op_status_name(want), tabs[t].label);
    assert_int_equal(info.explicit_composite, strcmp(e->kind, "explicit") == 0);
}

static void cross_check(const char *ver, const table *tabs, int serving)
{
    char path[128];
    entries npu = {0};
    snprintf(path, sizeof path, "data/npu/aten_ops_v%s.txt", ver);
    load(path, &npu);
    const nfy_apidb_version *v = V(ver);
    for (int t = 0; t <= serving; t++)
        for (size_t i = 0; i < tabs[t].rows.len; i++)
            check_key(v, tabs[t].rows.items[i].key, &npu, tabs, serving);
    release(&npu);
}

static void test_cross_check_tables(void **state)
{
    (void)state;
    table tabs[] = {{"1.13", {0}}, {"2.2", {0}}, {"2.4", {0}},
                    {"2.6", {0}},  {"2.7", {0}}, {"2.9", {0}}};
    enum { NTABS = sizeof tabs / sizeof tabs[0] };
    for (int t = 0; t < NTABS; t++) {
        char path[128];
        snprintf(path, sizeof path, "data/torch/native_functions_v%s.tsv",
                 tabs[t].label);
        load(path, &tabs[t].rows);
        assert_true(tabs[t].rows.len > 2900);
    }
    /* the serving table: 2.1 -> 1.13, 2.3 -> 2.2, 2.5 -> 2.4, 2.6 -> 2.6,
     * 2.8 -> 2.7, 2.12 -> 2.9; then the older ones */
    cross_check("2.1", tabs, 0);
    cross_check("2.3", tabs, 1);
    cross_check("2.5", tabs, 2);
    cross_check("2.6", tabs, 3);
    cross_check("2.8", tabs, 4);
    cross_check("2.12", tabs, 5);
    for (int t = 0; t < NTABS; t++)
        release(&tabs[t].rows);
}

/* Distinct operators (keys cut at '.') of l starting with p, not in seen. */
static size_t count_bases(const entries *l, const char *p, const entries *seen)
{
    size_t n = 0;
    const char *last = "";
    size_t last_len = 0;
    for (size_t i = 0; i < l->len; i++) {
        const char *k = l->items[i].key;
        size_t len = strcspn(k, ".");
        if (strncmp(k, p, strlen(p)) != 0 ||
            (len == last_len && strncmp(k, last, len) == 0))
            continue;
        last = k;
        last_len = len;
        if (seen) {
            char base[512];
            snprintf(base, sizeof base, "%.*s", (int)len, k);
            if (find(seen, base))
                continue;
            int hit = 0; /* any overload of base in seen */
            for (size_t j = 0; j < seen->len && !hit; j++)
                hit = strncmp(seen->items[j].key, base, len) == 0 &&
                      seen->items[j].key[len] == '.';
            if (hit)
                continue;
        }
        n++;
    }
    return n;
}

/* The number of operators a prefix finds on 2.6 equals the distinct
 * operators of the 2.6 table and of the 2.6 NPU list (re-read here)
 * starting with it. */
static void test_cross_check_prefix(void **state)
{
    (void)state;
    entries tab = {0}, npu = {0};
    load("data/torch/native_functions_v2.6.tsv", &tab);
    load("data/npu/aten_ops_v2.6.txt", &npu);
    static const char *const probes[] = {"_foreach_", "_scaled_dot_product_",
                                         "upsample_", "native_",
                                         "npu_",      "rms_norm",
                                         "_fused_",   "conv",
                                         "sym_"};
    for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
        size_t want = count_bases(&tab, probes[p], NULL) +
                      count_bases(&npu, probes[p], &tab);
        char q[64];
        snprintf(q, sizeof q, "aten::%s", probes[p]);
        nfy_str m;
        size_t got = nfy_apidb_op_prefix(V("2.6"), S(q), &m);
        if (got != want)
            fail_msg("prefix %s: %zu operators, want %zu", q, got, want);
        assert_int_equal(m.len != 0, want == 1);
    }
    release(&tab);
    release(&npu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_new_in_2x_backend_op),
        cmocka_unit_test(test_new_in_2x_composite_ops),
        cmocka_unit_test(test_new_in_2_8_and_2_9),
        cmocka_unit_test(test_kind_changes_between_tables),
        cmocka_unit_test(test_older_table_for_dropped_op),
        cmocka_unit_test(test_prefix_unique_and_ambiguous),
        cmocka_unit_test(test_cross_check_tables),
        cmocka_unit_test(test_cross_check_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
