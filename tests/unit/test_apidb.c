/*
 * Unit tests for apidb: facts picked by hand from the shipped data files
 * (named in each test), the version rules (parsing, default, nearest-older
 * fallback, "master"), name forms, and a full cross-check of every aten,
 * cpu-fallback and unsupported list entry against the generated tables.
 * Run from the repository root (the cross-check reads data/).
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
#include "apidb/apidb_data.h"

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

static nfy_op_status op(const char *ver, const char *name)
{
    return nfy_apidb_op_status(V(ver), S(name), NULL);
}

/* ---- Versions ---------------------------------------------------------- */

static void test_versions_listed_oldest_first(void **state)
{
    (void)state;
    /* data/npu/aten_ops_v{1.11,2.0,2.1..2.13}.txt: 15 files */
    assert_int_equal(nfy_apidb_version_count(), 15);
    assert_string_equal(nfy_apidb_version_at(0)->name, "1.11");
    assert_string_equal(nfy_apidb_version_at(1)->name, "2.0");
    assert_string_equal(nfy_apidb_version_at(11)->name, "2.10");
    assert_string_equal(nfy_apidb_version_at(14)->name, "2.13");
    assert_null(nfy_apidb_version_at(15));
    for (size_t i = 0; i < nfy_apidb_version_count(); i++)
        assert_int_equal(nfy_apidb_version_at(i)->index, i);
    assert_string_equal(nfy_apidb_version_list(),
                        "1.11, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, "
                        "2.9, 2.10, 2.11, 2.12, 2.13");
}

static void test_version_tags_and_default(void **state)
{
    (void)state;
    /* headers of aten_ops_v2.1.txt / v2.13.txt name these tags */
    assert_string_equal(V("2.1")->npu_tag, "V7.2.0.1-pytorch2.1.0");
    assert_string_equal(V("1.11")->npu_tag, "v6.0.rc2.1-pytorch1.11.0");
    assert_string_equal(V("2.13")->npu_tag, "v26.2.0-beta.1-pytorch2.13.0");
    assert_true(V("2.13")->beta);
    assert_false(V("2.12")->beta);
    /* the default skips the beta line */
    assert_string_equal(nfy_apidb_version_default()->name, "2.12");
}

static void test_version_parse_forms(void **state)
{
    (void)state;
    static const char *const good[] = {
        "2.1",      "2.1.0",     "v2.1.0",          "V2.1",        " 2.1.0 ",
        "2.1.0rc1", "2.1.0+cpu", "2.1.0a0+git1234", "2.1.0.post1", "2.1\n"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_string_equal(V(good[i])->name, "2.1");
    assert_string_equal(V("2.10.1")->name, "2.10");
    assert_string_equal(V("1.11.0")->name, "1.11");
}

static void test_version_parse_errors(void **state)
{
    (void)state;
    const nfy_apidb_version *v = (const nfy_apidb_version *)&v;
    static const char *const bad[] = {
        "",     "2",       "2.",    ".1",     "two.one", "2.x",       "2.1-cpu",
        "2..1", "22222.1", "2.1 0", "latest", "v",       "2.1.0 +cpu"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = nfy_apidb_version_at(0);
        assert_int_equal(nfy_apidb_version_parse(S(bad[i]), &v), NFY_EUSAGE);
        assert_null(v);
    }
    static const char *const unknown[] = {"1.10", "1.13", "2.14", "3.0",
                                          "0.4.1"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        v = nfy_apidb_version_at(0);
        assert_int_equal(nfy_apidb_version_parse(S(unknown[i]), &v),
                         NFY_ENOENT);
        assert_null(v);
    }
    /* embedded NUL is not part of a version */
    nfy_str nul = {"2.1\0x", 5};
    assert_int_equal(nfy_apidb_version_parse(nul, &v), NFY_EUSAGE);
}

/* ---- Operators --------------------------------------------------------- */

static void test_ops_present_everywhere(void **state)
{
    (void)state;
    /* ascend_tools.md D.2 spot checks, in every aten_ops_v*.txt */
    static const char *const ops[] = {
        "aten::add.Tensor", "aten::mm",  "native_layer_norm",
        "aten::nonzero",    "aten::add", "torch.ops.aten.mm.default"};
    for (size_t i = 0; i < nfy_apidb_version_count(); i++)
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
            assert_int_equal(
                nfy_apidb_op_status(nfy_apidb_version_at(i), S(ops[k]), NULL),
                NFY_OP_SUPPORTED);
}

static void test_sdpa_from_2_1(void **state)
{
    (void)state;
    /* scaled_dot_product_attention: in aten_ops_v2.1.txt and later, not in
     * v1.11/v2.0, and not in PyTorch 1.13's native_functions.yaml */
    assert_int_equal(op("2.0", "aten::scaled_dot_product_attention"),
                     NFY_OP_UNKNOWN);
    assert_int_equal(op("2.1", "aten::scaled_dot_product_attention"),
                     NFY_OP_SUPPORTED);
    const nfy_apidb_version *first =
        nfy_apidb_op_first_supported(S("aten::scaled_dot_product_attention"));
    assert_non_null(first);
    assert_string_equal(first->name, "2.1");
    /* a CUDA path of scaled_dot_product_attention: supported where that
     * is */
    first = nfy_apidb_op_first_supported(
        S("aten::_scaled_dot_product_flash_attention"));
    assert_string_equal(first->name, "2.1");
    /* the first version newer than the target, not merely the oldest */
    first = nfy_apidb_op_first_supported_after(
        V("1.11"), S("aten::scaled_dot_product_attention"));
    assert_string_equal(first->name, "2.1");
    first = nfy_apidb_op_first_supported_after(V("2.1"), S("aten::mm"));
    assert_string_equal(first->name, "2.2");
    assert_null(nfy_apidb_op_first_supported_after(
        nfy_apidb_version_at(nfy_apidb_version_count() - 1), S("aten::mm")));
    assert_null(nfy_apidb_op_first_supported(S("aten::linalg_lstsq.out")));
    first = nfy_apidb_op_first_supported(S("aten::mm"));
    assert_string_equal(first->name, "1.11");
}

static void test_listed_fallback_and_unsupported(void **state)
{
    (void)state;
    nfy_op_info info;
    /* aten_cpu_fallback_v1.11.txt: _cholesky_helper */
    assert_int_equal(
        nfy_apidb_op_status(V("1.11"), S("aten::_cholesky_helper"), &info),
        NFY_OP_CPU_FALLBACK);
    assert_true(info.listed);
    assert_string_equal(info.matched, "_cholesky_helper");
    /* aten_unsupported_v1.11.txt: _conj */
    assert_int_equal(nfy_apidb_op_status(V("1.11"), S("aten::_conj"), &info),
                     NFY_OP_UNSUPPORTED);
    assert_true(info.listed);
    /* 2.1 has no lists; _conj is CompositeExplicitAutograd in 1.13: one
     * kernel (a view) for every backend, so composite */
    assert_int_equal(nfy_apidb_op_status(V("2.1"), S("aten::_conj"), &info),
                     NFY_OP_COMPOSITE);
    assert_true(info.explicit_composite);
    assert_false(info.listed);
    assert_string_equal(info.torch_version, "1.13");
    /* aten_ops_v2.2.txt registers _conj */
    assert_int_equal(op("2.2", "aten::_conj"), NFY_OP_SUPPORTED);
}

static void test_composite_implicit(void **state)
{
    (void)state;
    nfy_op_info info;
    /* no dispatch in native_functions.yaml 1.13 and in no aten_ops_v*.txt */
    static const char *const ops[] = {"aten::linear", "aten::reshape",
                                      "aten::conv2d", "aten::layer_norm",
                                      "aten::einsum"};
    for (size_t i = 0; i < nfy_apidb_version_count(); i++) {
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            assert_int_equal(
                nfy_apidb_op_status(nfy_apidb_version_at(i), S(ops[k]), &info),
                NFY_OP_COMPOSITE);
            assert_false(info.explicit_composite);
        }
    }
    /* matmul, dropout are CompositeImplicitAutograd, but torch_npu
     * registers them (aten_ops_v2.1.txt) */
    assert_int_equal(op("2.1", "aten::matmul"), NFY_OP_SUPPORTED);
    assert_int_equal(op("2.1", "aten::dropout"), NFY_OP_SUPPORTED);
}

static void test_known_op_without_kernel(void **state)
{
    (void)state;
    nfy_op_info info;
    /* _nested_tensor_offsets: backend-only in 1.13, in no NPU list of
     * 1.11 or 2.1 */
    assert_int_equal(nfy_apidb_op_status(
                         V("1.11"), S("aten::_nested_tensor_offsets"), &info),
                     NFY_OP_UNSUPPORTED);
    assert_false(info.listed);
    assert_int_equal(
        nfy_apidb_op_status(V("2.1"), S("aten::_nested_tensor_offsets"), &info),
        NFY_OP_CPU_FALLBACK);
    assert_false(info.listed);
    assert_string_equal(info.matched, "_nested_tensor_offsets");
    assert_null(info.npu_counterpart);
}

static void test_cuda_only_kernels(void **state)
{
    (void)state;
    nfy_op_info info;
    /* cuDNN/MIOpen/fused CUDA kernels of a GPU log: their NPU counterpart
     * (data/npu/backend_ops.tsv) decides, never a CPU fallback */
    static const struct {
        const char *ver, *op, *to;
        nfy_op_status st;
    } cases[] = {
        {"2.1", "aten::cudnn_convolution", "aten::convolution",
         NFY_OP_SUPPORTED},
        {"1.11", "aten::cudnn_batch_norm", "aten::native_batch_norm",
         NFY_OP_SUPPORTED},
        {"2.1", "aten::cudnn_convolution_transpose", "aten::convolution",
         NFY_OP_SUPPORTED},
        {"2.1", "aten::_cudnn_rnn", "aten::lstm", NFY_OP_SUPPORTED},
        {"2.1", "aten::miopen_convolution", "aten::convolution",
         NFY_OP_SUPPORTED},
        {"2.1", "aten::_fused_adam_", "npu::npu_apply_adam", NFY_OP_SUPPORTED},
        {"2.1", "aten::_fused_dropout", "aten::native_dropout",
         NFY_OP_SUPPORTED},
        {"2.1", "aten::_scaled_dot_product_efficient_attention",
         "aten::scaled_dot_product_attention", NFY_OP_SUPPORTED},
        /* torch_npu 2.0 has no scaled_dot_product_attention */
        {"2.0", "aten::_scaled_dot_product_flash_attention",
         "aten::scaled_dot_product_attention", NFY_OP_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nfy_op_status st =
            nfy_apidb_op_status(V(cases[i].ver), S(cases[i].op), &info);
        if (st != cases[i].st || !info.npu_counterpart ||
            strcmp(info.npu_counterpart, cases[i].to) != 0)
            fail_msg("%s on %s: %s via %s", cases[i].op, cases[i].ver,
                     nfy_apidb_op_status_name(st),
                     info.npu_counterpart ? info.npu_counterpart : "-");
    }
    /* _fused_adamw_ has an NPU kernel from 2.1 on: no counterpart needed */
    assert_int_equal(
        nfy_apidb_op_status(V("2.1"), S("aten::_fused_adamw_"), &info),
        NFY_OP_SUPPORTED);
    assert_null(info.npu_counterpart);
    /* a device-neutral op is never mapped */
    assert_int_equal(
        nfy_apidb_op_status(V("2.1"), S("aten::convolution"), &info),
        NFY_OP_SUPPORTED);
    assert_null(info.npu_counterpart);
}

/* ---- The API lists asked together --------------------------------------- */

static bool str_same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* nfy_apidb_api_ask says what the three single lookups say. */
static void check_ask(const nfy_apidb_version *v, const nfy_apidb_api_lists *l,
                      nfy_str q)
{
    nfy_apidb_api_answer a;
    nfy_apidb_api_ask(l, q, true, &a);
    nfy_api_info info;
    assert_int_equal(a.msft.status, nfy_apidb_torch_api(v, q, &info));
    assert_true(str_same(a.msft.note, info.note));
    assert_true(str_same(a.msft.data_version, info.data_version));
    nfy_native_api n;
    assert_int_equal(a.native_found, nfy_apidb_native_api(v, q, &n));
    assert_true(str_same(a.native.data_version, n.data_version));
    assert_true(str_same(a.native.api, n.api));
    assert_true(str_same(a.native.note, n.note));
    assert_true(str_same(a.native.products, n.products));
    assert_int_equal(a.native.supported, n.supported);
    assert_int_equal(a.has_members, nfy_apidb_torch_api_namespace(v, q));
    nfy_apidb_api_ask(l, q, false, &a);
    assert_false(a.has_members);
    assert_int_equal(a.msft.status, info.status);
}

typedef struct {
    const nfy_apidb_version *v;
    const nfy_apidb_api_lists *l;
    size_t n;
} ask_walk;

/* Every listed name, its owner (a module or class) and a near miss. */
static void ask_row(void *ctx, const char *name, const char *note)
{
    (void)note;
    ask_walk *w = ctx;
    w->n++;
    nfy_str q = S(name);
    check_ask(w->v, w->l, q);
    const char *dot = strrchr(name, '.');
    if (dot)
        check_ask(w->v, w->l, (nfy_str){name, (size_t)(dot - name)});
    check_ask(w->v, w->l, (nfy_str){name, q.len > 1 ? q.len - 1 : q.len});
}

/* Every listed name of v and a few unlisted ones asked of l. */
static void ask_every_name(const nfy_apidb_version *v,
                           const nfy_apidb_api_lists *l, ask_walk *w)
{
    static const nfy_apidb_set sets[] = {NFY_APIDB_SET_API_SUPPORTED,
                                         NFY_APIDB_SET_API_UNSUPPORTED,
                                         NFY_APIDB_SET_NATIVE_API};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
        (void)nfy_apidb_set_each(v, sets[k], ask_row, w, NULL);
    check_ask(v, l, S(""));
    check_ask(v, l, S("torch"));
    check_ask(v, l, S("torch.nn"));
    check_ask(v, l, S("torch.no_such_thing"));
}

/* torch's own API inventory: kinds and the backend kernels a name reaches
 * (data/torch/api_inventory_v1.13.tsv) */
static void test_torch_inventory(void **state)
{
    (void)state;
    nfy_torch_entry e;
    assert_true(nfy_apidb_torch_inventory(NFY_STR_LIT("torch.pi"), &e));
    assert_int_equal(e.kind, NFY_TORCH_CONST);
    assert_null(e.ops);
    assert_string_equal(e.torch_version, "1.13");
    assert_true(nfy_apidb_torch_inventory(
        NFY_STR_LIT("torch.utils.data.DataLoader"), &e));
    assert_int_equal(e.kind, NFY_TORCH_CLASS);
    assert_true(nfy_apidb_torch_inventory(
        NFY_STR_LIT("torch.distributed.destroy_process_group"), &e));
    assert_int_equal(e.kind, NFY_TORCH_FUNC);
    assert_null(e.ops);
    assert_true(nfy_apidb_torch_inventory(NFY_STR_LIT("torch.lgamma"), &e));
    assert_int_equal(e.kind, NFY_TORCH_OP);
    assert_string_equal(e.ops, "lgamma");
    /* a Python function reaches its aten binding through torch._VF */
    assert_true(
        nfy_apidb_torch_inventory(NFY_STR_LIT("torch.unique_consecutive"), &e));
    assert_int_equal(e.kind, NFY_TORCH_FUNC);
    assert_string_equal(e.ops, "unique_consecutive");
    assert_false(nfy_apidb_torch_inventory(NFY_STR_LIT("torch.compile"), &e));
    assert_int_equal(e.kind, NFY_TORCH_NONE);
    assert_string_equal(nfy_apidb_torch_kind_name(NFY_TORCH_NONE),
                        "not in torch's API");
}

/* Huawei's texts in English: the shipped translation table and the
 * product codes in words */
static void test_english(void **state)
{
    (void)state;
    bool partial = true;
    assert_string_equal(
        nfy_apidb_note_english(NFY_STR_LIT("input仅支持fp32"), &partial),
        "input: only fp32");
    assert_false(partial);
    assert_string_equal(
        nfy_apidb_note_english(NFY_STR_LIT("可能回退至CPU执行"), NULL),
        "may fall back to the CPU");
    assert_null(nfy_apidb_note_english(NFY_STR_LIT("no such note"), NULL));
    char buf[128];
    assert_string_equal(
        nfy_apidb_products_english("A2=Y,A3=N,950DT=N", buf, sizeof buf),
        "Atlas A2 training series: yes, Atlas A3 training series: no, "
        "Ascend 950DT: no");
    assert_string_equal(nfy_apidb_products_english("X9=Y", buf, sizeof buf),
                        "X9=Y");
    char tiny[8];
    nfy_apidb_products_english("A2=Y", tiny, sizeof tiny); /* cut, ended */
    assert_true(strlen(tiny) < sizeof tiny);
}

static void test_api_ask_matches_lookups(void **state)
{
    (void)state;
    for (size_t i = 0; i < nfy_apidb_version_count(); i++) {
        const nfy_apidb_version *v = nfy_apidb_version_at(i);
        nfy_apidb_api_lists l;
        nfy_apidb_api_lists_init(&l, v);
        assert_ptr_equal(l.v, v);
        ask_walk w = {v, &l, 0};
        ask_every_name(v, &l, &w);
        nfy_apidb_api_lists_index(&l); /* the same answers from the hash */
        assert_non_null(l.index);
        ask_every_name(v, &l, &w);
        nfy_apidb_api_lists_release(&l);
        assert_null(l.index);
    }
    nfy_apidb_api_lists l;
    nfy_apidb_api_lists_init(&l, NULL);
    assert_ptr_equal(l.v, nfy_apidb_version_default());
}

static void test_composite_explicit(void **state)
{
    (void)state;
    nfy_op_info info;
    /* t, expand, randn: CompositeExplicitAutograd, one kernel for every
     * backend, no NPU kernel of their own: composite */
    static const char *const generic[] = {"aten::t", "aten::expand",
                                          "aten::randn"};
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++) {
        nfy_op_status st = nfy_apidb_op_status(V("2.1"), S(generic[i]), &info);
        if (st != NFY_OP_COMPOSITE || !info.explicit_composite)
            fail_msg("%s: %s", generic[i], nfy_apidb_op_status_name(st));
    }
    /* mkldnn_convolution: filed as CompositeExplicitAutograd but calls
     * oneDNN; on NPU convolution runs instead (backend_ops.tsv) */
    nfy_op_status st =
        nfy_apidb_op_status(V("2.1"), S("aten::mkldnn_convolution"), &info);
    assert_int_equal(st, NFY_OP_SUPPORTED);
    assert_string_equal(info.npu_counterpart, "aten::convolution");
    /* a backend family op without a counterpart row is no composite:
     * _cudnn_init_dropout_state.out is explicit (autogen) in 2.9 */
    st = nfy_apidb_op_status(V("2.12"),
                             S("aten::_cudnn_init_dropout_state.out"), &info);
    assert_int_not_equal(st, NFY_OP_COMPOSITE);
}

static void test_overloads(void **state)
{
    (void)state;
    nfy_op_info info;
    /* aten_ops_v2.1.txt: add.Scalar add.Tensor add.out, no add.Scalar_out;
     * add.Scalar_out is CompositeExplicitAutograd (autogen) in 1.13 */
    assert_int_equal(nfy_apidb_op_status(V("2.1"), S("aten::add"), &info),
                     NFY_OP_SUPPORTED);
    assert_string_equal(info.matched, "add.Scalar");
    assert_int_equal(op("2.1", "add.out"), NFY_OP_SUPPORTED);
    assert_int_equal(
        nfy_apidb_op_status(V("2.1"), S("aten::add.Scalar_out"), &info),
        NFY_OP_COMPOSITE);
    assert_true(info.explicit_composite);
    assert_int_equal(op("2.1", "aten::add.NoSuchOverload"), NFY_OP_UNKNOWN);
    /* a prefix of a real name is not that name */
    assert_int_equal(op("2.1", "aten::ad"), NFY_OP_UNKNOWN);
    assert_int_equal(op("2.1", "aten::mm_"), NFY_OP_UNKNOWN);
}

static void test_custom_ops(void **state)
{
    (void)state;
    nfy_op_info info;
    bool pub = true;
    /* npu_custom_ops_v2.1.txt has npu_fusion_attention (exposed: also in
     * npu_public_ops_v2.1.txt) and _npu_dtype_cast (not exposed); v1.11 has
     * no npu_fusion_attention */
    assert_true(
        nfy_apidb_npu_custom_op(V("2.1"), S("npu_fusion_attention"), &pub));
    assert_true(pub);
    assert_true(nfy_apidb_npu_custom_op(
        V("2.1"), S("torch.ops.npu._npu_dtype_cast"), &pub));
    assert_false(pub);
    assert_false(
        nfy_apidb_npu_custom_op(V("1.11"), S("npu_fusion_attention"), NULL));
    assert_true(
        nfy_apidb_npu_custom_op(V("2.1"), S("torch_npu.fast_gelu"), &pub));
    assert_true(pub);
    assert_true(nfy_apidb_npu_custom_op(
        V("2.1"), S("npu::npu_format_cast.Tensor"), &pub));
    assert_true(pub);
    assert_false(nfy_apidb_npu_custom_op(V("2.1"), S("aten::fast_gelu"), NULL));
    assert_int_equal(
        nfy_apidb_op_status(V("2.1"), S("npu::npu_fusion_attention"), &info),
        NFY_OP_SUPPORTED);
    assert_true(info.custom);
    assert_int_equal(
        nfy_apidb_op_status(V("2.1"), S("npu_fusion_attention"), &info),
        NFY_OP_SUPPORTED);
    assert_true(info.custom);
    assert_int_equal(op("1.11", "npu::npu_fusion_attention"), NFY_OP_UNKNOWN);
}

static void test_bad_op_names(void **state)
{
    (void)state;
    static const char *const names[] = {"",
                                        "aten::",
                                        "c10d::allreduce_",
                                        "profiler::_record_function_enter",
                                        ".",
                                        "aten::.Tensor",
                                        "::",
                                        "npu::"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        assert_int_equal(nfy_apidb_op_status(NULL, S(names[k]), NULL),
                         NFY_OP_UNKNOWN);
    nfy_str nul = {"mm\0", 3};
    assert_int_equal(nfy_apidb_op_status(NULL, nul, NULL), NFY_OP_UNKNOWN);
    assert_int_equal(nfy_apidb_op_status(NULL, S("  aten::mm \r\n"), NULL),
                     NFY_OP_SUPPORTED);
    assert_string_equal(nfy_apidb_op_status_name(NFY_OP_CPU_FALLBACK),
                        "cpu-fallback");
    assert_string_equal(nfy_apidb_op_status_name(NFY_OP_COMPOSITE),
                        "composite");
    assert_string_equal(nfy_apidb_op_status_name((nfy_op_status)99), "unknown");
}

/* ---- Cross-check with the data files ----------------------------------- */

/* Every entry of data/npu/<prefix><ver>.txt gets status want in ver. */
static size_t check_list(const char *prefix, const char *ver,
                         nfy_op_status want)
{
    char path[256], line[512];
    snprintf(path, sizeof path, "data/npu/%s%s.txt", prefix, ver);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = 0;
    const nfy_apidb_version *v = V(ver);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char name[600];
        snprintf(name, sizeof name, "aten::%s", line);
        nfy_op_info info;
        nfy_op_status st = nfy_apidb_op_status(v, S(name), &info);
        if (want == NFY_OP_SUPPORTED || st == want) {
            assert_int_equal(st, want);
            assert_string_equal(info.matched, line);
        } else {
            /* a list entry can also have a kernel: the kernel wins */
            assert_int_equal(st, NFY_OP_SUPPORTED);
        }
        n++;
    }
    fclose(f);
    return n;
}

static void test_every_listed_op(void **state)
{
    (void)state;
    size_t total = 0;
    for (size_t i = 0; i < nfy_apidb_version_count(); i++) {
        const char *ver = nfy_apidb_version_at(i)->name;
        size_t n = check_list("aten_ops_v", ver, NFY_OP_SUPPORTED);
        assert_true(n > 900); /* ascend_tools.md D.2: 973-1113 per version */
        total += n;
        total += check_list("aten_cpu_fallback_v", ver, NFY_OP_CPU_FALLBACK);
        total += check_list("aten_unsupported_v", ver, NFY_OP_UNSUPPORTED);
    }
    assert_true(total > 15 * 900);
}

/* ---- torch.npu, torch APIs, native list -------------------------------- */

static void test_npu_module(void **state)
{
    (void)state;
    const char *dv = NULL;
    /* host_empty_cache: torch_npu_npu_module_v2.6.txt, not v2.1 */
    assert_false(
        nfy_apidb_npu_module_has(V("2.5"), S("host_empty_cache"), &dv));
    assert_string_equal(dv, "2.1");
    assert_true(nfy_apidb_npu_module_has(V("2.6"), S("host_empty_cache"), &dv));
    assert_true(nfy_apidb_npu_module_has(V("2.7"), S("host_empty_cache"), &dv));
    assert_string_equal(dv, "2.6");
    /* get_per_process_memory_fraction: v2.8 and later files */
    assert_false(nfy_apidb_npu_module_has(
        V("2.7"), S("torch.cuda.get_per_process_memory_fraction"), NULL));
    assert_true(nfy_apidb_npu_module_has(
        V("2.9"), S("torch.npu.get_per_process_memory_fraction"), &dv));
    assert_string_equal(dv, "2.8");
    /* ExternalStream: only the master file; 2.13 is newer than 2.12 */
    assert_false(nfy_apidb_npu_module_has(V("2.12"), S("ExternalStream"), &dv));
    assert_string_equal(dv, "2.12");
    assert_true(nfy_apidb_npu_module_has(V("2.13"), S("ExternalStream"), &dv));
    assert_string_equal(dv, "master");
    /* 2.0 has no file: nearest older is 1.11 */
    assert_true(nfy_apidb_npu_module_has(V("2.0"), S("synchronize"), &dv));
    assert_string_equal(dv, "1.11");
    assert_true(nfy_apidb_npu_module_has(V("2.1"),
                                         S("torch_npu.npu.synchronize"), NULL));
    assert_true(
        nfy_apidb_npu_module_has(V("2.1"), S("Stream.synchronize"), NULL));
    /* not in __all__: nvtx, jiterator, get_arch_list (ascend_tools.md A.4) */
    assert_false(
        nfy_apidb_npu_module_has(NULL, S("torch.cuda.nvtx.range_push"), NULL));
    assert_false(nfy_apidb_npu_module_has(NULL, S("jiterator"), NULL));
    assert_false(nfy_apidb_npu_module_has(NULL, S("get_arch_list"), NULL));
    assert_false(nfy_apidb_npu_module_has(NULL, S(""), NULL));
}

static void test_torch_api(void **state)
{
    (void)state;
    nfy_api_info info;
    /* torch_api_unsupported_v2.{1,6,7,8}.txt: torch.nn.DataParallel */
    for (size_t i = 0; i < nfy_apidb_version_count(); i++)
        assert_int_equal(nfy_apidb_torch_api(nfy_apidb_version_at(i),
                                             S("torch.nn.DataParallel"), NULL),
                         NFY_API_UNSUPPORTED);
    /* conv3d: unsupported in 2.1 and 2.6, supported with a note in 2.7/2.8 */
    const char *conv3d = "torch.nn.functional.conv3d";
    assert_int_equal(nfy_apidb_torch_api(V("2.6"), S(conv3d), &info),
                     NFY_API_UNSUPPORTED);
    assert_string_equal(info.data_version, "2.6");
    assert_int_equal(nfy_apidb_torch_api(V("2.5"), S(conv3d), &info),
                     NFY_API_UNSUPPORTED);
    assert_string_equal(info.data_version, "2.1");
    assert_int_equal(nfy_apidb_torch_api(V("2.7"), S(conv3d), &info),
                     NFY_API_SUPPORTED);
    assert_non_null(info.note);
    assert_non_null(strstr(info.note, "bf16"));
    assert_int_equal(nfy_apidb_torch_api(V("2.13"), S(conv3d), &info),
                     NFY_API_SUPPORTED);
    assert_string_equal(info.data_version, "2.8");
    /* 1.11 predates every list: the oldest (2.1) is used */
    assert_int_equal(nfy_apidb_torch_api(V("1.11"), S(conv3d), &info),
                     NFY_API_UNSUPPORTED);
    assert_string_equal(info.data_version, "2.1");
    /* torch.optim.AdamW is listed with note '-' in v2.1 */
    assert_int_equal(
        nfy_apidb_torch_api(V("2.1"), S("torch.optim.AdamW"), &info),
        NFY_API_SUPPORTED);
    assert_null(info.note);
    assert_int_equal(
        nfy_apidb_torch_api(V("2.1"), S("torch.no_such_api"), &info),
        NFY_API_UNKNOWN);
}

static void test_native_api(void **state)
{
    (void)state;
    nfy_native_api n;
    /* torch_native_api_support_v2.12.0.tsv */
    assert_true(
        nfy_apidb_native_api(V("2.12"), S("torch.cuda.synchronize"), &n));
    assert_string_equal(n.npu_name, "torch_npu.npu.synchronize");
    assert_string_equal(n.products, "A2=Y,A3=Y,950DT=Y");
    assert_int_equal(n.supported, 'Y');
    assert_null(n.note);
    assert_false(n.is_class);
    assert_string_equal(n.data_version, "2.12.0");
    assert_true(nfy_apidb_native_api(V("2.12"), S("torch.Tensor.double"), &n));
    assert_non_null(n.note);
    assert_null(n.npu_name);
    /* "torch.Tensor (class)" rows */
    assert_true(nfy_apidb_native_api(V("2.12"), S("torch.Tensor"), &n));
    assert_true(n.is_class);
    /* v2.7.1: torch.cuda.memory_usage is supported nowhere */
    assert_true(
        nfy_apidb_native_api(V("2.8"), S("torch.cuda.memory_usage"), &n));
    assert_string_equal(n.data_version, "2.7.1");
    assert_int_equal(n.supported, 'N');
    assert_false(
        nfy_apidb_native_api(V("2.12"), S("torch.cuda.nvtx.mark"), &n));
    assert_string_equal(n.data_version, "2.12.0");
}

/* ---- Tables ------------------------------------------------------------ */

static void test_transfer_wrapped(void **state)
{
    (void)state;
    const char *dv = NULL;
    /* torch.Generator: v1.11 list only */
    assert_true(
        nfy_apidb_transfer_wrapped(V("2.0"), S("torch.Generator"), &dv));
    assert_string_equal(dv, "1.11");
    assert_false(
        nfy_apidb_transfer_wrapped(V("2.1"), S("torch.Generator"), NULL));
    /* torch.get_device_module: from v2.6 */
    assert_false(nfy_apidb_transfer_wrapped(
        V("2.5"), S("torch.get_device_module"), NULL));
    assert_true(nfy_apidb_transfer_wrapped(V("2.6"),
                                           S("torch.get_device_module"), NULL));
    /* init_process_group: master only; 2.7+ is newer than the 2.6 file */
    assert_false(nfy_apidb_transfer_wrapped(
        V("2.6"), S("torch.distributed.init_process_group"), NULL));
    assert_true(nfy_apidb_transfer_wrapped(
        V("2.7"), S("torch.distributed.init_process_group"), &dv));
    assert_string_equal(dv, "master");
    assert_true(nfy_apidb_transfer_wrapped(NULL, S("torch.zeros"), NULL));
}

static void test_msft_tables(void **state)
{
    (void)state;
    /* msfmktransplt_func_rename.tsv: 43 rows */
    assert_string_equal(nfy_apidb_msft_rename(S("torch.cuda.current_device")),
                        "torch_npu.npu.current_device");
    assert_null(nfy_apidb_msft_rename(S("torch.cuda.nvtx")));
    nfy_apidb_pair p;
    size_t n = 0;
    while (nfy_apidb_msft_rename_at(n, &p)) {
        assert_non_null(p.to);
        assert_string_equal(nfy_apidb_msft_rename(S(p.from)), p.to);
        n++;
    }
    assert_int_equal(n, 43);
    /* msfmktransplt_affinity_apis.tsv: 17 rows, file order */
    nfy_apidb_affinity a;
    assert_true(nfy_apidb_affinity_at(0, &a));
    assert_string_equal(a.kind, "function");
    assert_string_equal(a.name, "single_level_responsible_flags");
    assert_true(nfy_apidb_affinity_find(S("torch.matmul"), &a));
    assert_string_equal(a.kind, "torch");
    assert_string_equal(a.replacement,
                        "torch_npu.contrib.function.matmul_transpose");
    assert_false(nfy_apidb_affinity_at(17, &a));
    assert_false(nfy_apidb_affinity_find(S("torch.add"), &a));
    /* msfmktransplt_common_rules.tsv: 75 rows, first is ArgsModifyRule to */
    nfy_apidb_msft_rule r;
    assert_true(nfy_apidb_msft_rule_at(0, &r));
    assert_string_equal(r.kind, "ArgsModifyRule");
    assert_string_equal(r.fields[0], "to");
    assert_int_equal(r.nfields, 5);
    size_t strings = 0, rows = 0;
    while (nfy_apidb_msft_rule_at(rows, &r))
        strings += strcmp(r.kind, "ReplaceStringRule") == 0, rows++;
    assert_int_equal(rows, 75);
    assert_int_equal(strings, 5);
}

static void test_cpp_and_documented(void **state)
{
    (void)state;
    /* cpp_npu_api_cuda_equivalents.tsv */
    assert_string_equal(
        nfy_apidb_cpp_npu_equivalent(S("c10::cuda::getCurrentCUDAStream")),
        "c10_npu::getCurrentNPUStream");
    assert_null(nfy_apidb_cpp_npu_equivalent(S("-")));
    nfy_apidb_pair p;
    assert_true(nfy_apidb_cpp_api_at(0, &p));
    assert_string_equal(p.from, "torch_npu::init_npu");
    assert_null(p.to);
    /* torch_npu_apis.txt / _beta.txt */
    bool beta = false;
    assert_true(nfy_apidb_npu_api_documented(
        S("torch.distributed.is_hccl_available"), &beta));
    assert_true(beta);
    assert_false(nfy_apidb_npu_api_documented(S("torch_npu.no_such"), &beta));
    assert_false(beta);
}

/* Random and hostile names: no crash, no out-of-bounds read (ASan). */
static void test_random_names_never_crash(void **state)
{
    (void)state;
    static const char alphabet[] = "aten:npu._torch.opsAB0\x01\xff\x80 \t";
    unsigned seed = 12345;
    char buf[40];
    for (int iter = 0; iter < 20000; iter++) {
        seed = seed * 1103515245u + 12345u;
        size_t len = (seed >> 16) % sizeof buf;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        /* exact-size heap copy so ASan sees any read past the end */
        char *name = malloc(len ? len : 1);
        assert_non_null(name);
        memcpy(name, buf, len);
        nfy_str s = {name, len};
        const nfy_apidb_version *v = nfy_apidb_version_at(iter % 15);
        nfy_op_info info;
        nfy_op_status st = nfy_apidb_op_status(v, s, &info);
        assert_true(st >= NFY_OP_UNKNOWN && st <= NFY_OP_COMPOSITE);
        nfy_status pst = nfy_apidb_version_parse(s, &v);
        assert_true(pst == NFY_OK || pst == NFY_EUSAGE || pst == NFY_ENOENT);
        assert_true((pst == NFY_OK) == (v != NULL));
        (void)nfy_apidb_npu_module_has(NULL, s, NULL);
        (void)nfy_apidb_torch_api(NULL, s, NULL);
        nfy_native_api n;
        (void)nfy_apidb_native_api(NULL, s, &n);
        (void)nfy_apidb_npu_custom_op(NULL, s, NULL);
        (void)nfy_apidb_transfer_wrapped(NULL, s, NULL);
        (void)nfy_apidb_msft_rename(s);
        (void)nfy_apidb_cpp_npu_equivalent(s);
        free(name);
    }
    /* every prefix of real names, as truncated profiler columns give */
    static const char *const real[] = {"torch.ops.aten.add.Tensor",
                                       "npu::npu_format_cast.Tensor",
                                       "aten::native_layer_norm_backward"};
    for (size_t k = 0; k < sizeof real / sizeof real[0]; k++) {
        for (size_t len = 0; len <= strlen(real[k]); len++) {
            char *name = malloc(len ? len : 1);
            assert_non_null(name);
            memcpy(name, real[k], len);
            nfy_op_status st =
                nfy_apidb_op_status(NULL, (nfy_str){name, len}, NULL);
            if (len == strlen(real[k]))
                assert_int_equal(st, NFY_OP_SUPPORTED);
            free(name);
        }
    }
}

static void test_family_order_matches_generator(void **state)
{
    (void)state;
    static const char *const names[NFY__FAM_COUNT] = {"aten_ops",
                                                      "aten_cpu_fallback",
                                                      "aten_unsupported",
                                                      "npu_custom_ops",
                                                      "npu_public_ops",
                                                      "npu_module",
                                                      "transfer_wrapped",
                                                      "torch_api_supported",
                                                      "torch_api_unsupported",
                                                      "native_api",
                                                      "torch_ops",
                                                      "npu_apis",
                                                      "npu_apis_beta",
                                                      "msft_rename",
                                                      "affinity",
                                                      "msft_rules",
                                                      "cpp_apis",
                                                      "backend_ops",
                                                      "notes_en",
                                                      "restriction_effects",
                                                      "torch_inventory"};
    assert_int_equal(nfy__apidb_family_count, NFY__FAM_COUNT);
    for (int f = 0; f < NFY__FAM_COUNT; f++)
        assert_string_equal(nfy__apidb_fam((nfy__apidb_fam_id)f)->name,
                            names[f]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions_listed_oldest_first),
        cmocka_unit_test(test_torch_inventory),
        cmocka_unit_test(test_english),
        cmocka_unit_test(test_version_tags_and_default),
        cmocka_unit_test(test_version_parse_forms),
        cmocka_unit_test(test_version_parse_errors),
        cmocka_unit_test(test_ops_present_everywhere),
        cmocka_unit_test(test_sdpa_from_2_1),
        cmocka_unit_test(test_listed_fallback_and_unsupported),
        cmocka_unit_test(test_composite_implicit),
        cmocka_unit_test(test_known_op_without_kernel),
        cmocka_unit_test(test_overloads),
        cmocka_unit_test(test_custom_ops),
        cmocka_unit_test(test_bad_op_names),
        cmocka_unit_test(test_every_listed_op),
        cmocka_unit_test(test_npu_module),
        cmocka_unit_test(test_torch_api),
        cmocka_unit_test(test_native_api),
        cmocka_unit_test(test_transfer_wrapped),
        cmocka_unit_test(test_msft_tables),
        cmocka_unit_test(test_cpp_and_documented),
        cmocka_unit_test(test_random_names_never_crash),
        cmocka_unit_test(test_family_order_matches_generator),
        cmocka_unit_test(test_cuda_only_kernels),
        cmocka_unit_test(test_composite_explicit),
        cmocka_unit_test(test_api_ask_matches_lookups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
