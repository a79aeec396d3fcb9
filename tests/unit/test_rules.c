/*
 * Unit tests of the rules module: the built-in catalogue loads cleanly and
 * is well-formed, lookups rank as documented, both custom-rule schemas load,
 * and every kind of malformed file is rejected at the expected line:col
 * without adding any rule.
 */
/* cmocka.h needs these headers first. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "rules/rules.h"

/* ---- Helpers ------------------------------------------------------------- */

static nfy_rule_set *builtin(void)
{
    nfy_diags d;
    nfy_diags_init(&d);
    nfy_rule_set *set = nfy_rule_set_new(&d);
    for (size_t i = 0; i < d.items.len; i++)
        fprintf(stderr, "%s:%u:%u: %s\n", d.items.items[i].file,
                d.items.items[i].line, d.items.items[i].col + 1,
                d.items.items[i].msg);
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_NOTE), 0);
    nfy_diags_release(&d);
    assert_non_null(set);
    return set;
}

static nfy_status load_text(nfy_rule_set *set, const char *text, nfy_diags *d)
{
    return nfy_rules_load_mem(set, "t.json", text, strlen(text), d);
}

/* ---- Built-in catalogue
 * ------------------------------------------------------ */

static void test_builtin_wellformed(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    size_t n = nfy_rule_set_count(set);
    assert_true(n >= 70);
    for (size_t i = 0; i < n; i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        assert_non_null(r->message);
        assert_non_null(r->hint);
        assert_non_null(r->before);
        assert_string_equal(r->origin, "builtin");
        assert_int_not_equal(r->category, NFY_RULE_CAT_CUSTOM);
        assert_int_equal(r->category, nfy_rules_category_of_id(r->id));
        if (i > 0) /* sorted, hence unique */
            assert_true(strcmp(nfy_rules_set_at(set, i - 1)->id, r->id) < 0);
        if (r->kind == NFY_RULE_FLAG)
            assert_int_equal(r->safety, NFY_SAFETY_MANUAL);
        if (r->fallback)
            assert_non_null(nfy_rules_set_find(set, r->fallback));
    }
    assert_null(nfy_rules_set_at(set, n));
    nfy_rule_set_free(set);
}

static void test_builtin_catalogue_content(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    const nfy_rule *r = nfy_rules_set_find(set, "NPU001");
    assert_non_null(r);
    assert_int_equal(r->kind, NFY_RULE_INSERT_IMPORT);
    assert_string_equal(r->replacement, "import torch_npu");
    r = nfy_rules_set_find(set, "NPU003");
    assert_int_equal(r->kind, NFY_RULE_REMOVE_IMPORT);
    assert_string_equal(r->pattern, "amp_C");
    r = nfy_rules_set_find(set, "NPU103");
    assert_int_equal(r->match, NFY_MATCH_STRING);
    assert_true(r->flags & NFY_RULE_F_DEVICE_FORM);
    assert_true(r->nctx >= 10);
    assert_int_equal(r->ctx[0].kind, NFY_CTX_ARG);
    assert_string_equal(r->ctx[0].name, "torch.device");
    assert_int_equal(r->ctx[0].pos, 0);
    assert_string_equal(r->ctx[0].kw, "type");
    r = nfy_rules_set_find(set, "NPU201");
    assert_true(r->flags & NFY_RULE_F_APIDB);
    assert_string_equal(r->fallback, "NPU202");
    r = nfy_rules_set_find(set, "NPU290");
    assert_false(r->enabled);
    assert_true(r->nmap >= 40);
    assert_null(nfy_rules_set_find(set, "NPU999"));
    assert_null(nfy_rules_set_find(set, "npu101"));
    nfy_rule_set_free(set);
}

static void test_iterate(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    nfy_rule_iter it;
    size_t renames = 0, all = 0, with_off = 0;
    nfy_rules_iter_init(&it, set, NFY_RULE_RENAME, -1);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        assert_int_equal(r->kind, NFY_RULE_RENAME);
        assert_true(r->enabled);
        renames++;
    }
    nfy_rules_iter_init(&it, set, -1, -1);
    while (nfy_rules_iter_next(&it))
        all++;
    nfy_rules_iter_init(&it, set, -1, -1);
    it.include_disabled = true;
    while (nfy_rules_iter_next(&it))
        with_off++;
    assert_true(renames >= 10);
    assert_true(all < with_off);
    assert_int_equal(with_off, nfy_rule_set_count(set));
    nfy_rules_iter_init(&it, set, NFY_RULE_FLAG, NFY_MATCH_PASS);
    const nfy_rule *r = nfy_rules_iter_next(&it);
    assert_non_null(r);
    assert_int_equal(r->match, NFY_MATCH_PASS);
    nfy_rule_set_free(set);
}

/* Iterating one kind (by its chain) yields what a scan of every rule
 * filtered the same way does, in the same order, for every kind and match,
 * disabled rules in or out. */
static void test_iterate_kinds(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    for (int kind = 0; kind < NFY_RULE_KIND_COUNT; kind++) {
        for (int match = -1; match < NFY_MATCH_COUNT; match++) {
            for (int off = 0; off < 2; off++) {
                nfy_rule_iter it;
                nfy_rules_iter_init(&it, set, kind, match);
                it.include_disabled = off;
                size_t i = 0;
                for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
                    const nfy_rule *want = NULL;
                    for (; i < nfy_rule_set_count(set) && want == NULL; i++) {
                        const nfy_rule *x = nfy_rules_set_at(set, i);
                        if ((int)x->kind == kind &&
                            (match < 0 || (int)x->match == match) &&
                            (x->enabled || off))
                            want = x;
                    }
                    assert_ptr_equal(r, want);
                }
                for (; i < nfy_rule_set_count(set); i++) {
                    const nfy_rule *x = nfy_rules_set_at(set, i);
                    assert_false((int)x->kind == kind &&
                                 (match < 0 || (int)x->match == match) &&
                                 (x->enabled || off));
                }
            }
        }
    }
    nfy_rule_set_free(set);
}

/* ---- Lookup
 * -------------------------------------------------------------------- */

static size_t lookup(const nfy_rule_set *set, nfy_lookup_space sp,
                     const char *key, nfy_rule_hit *hits, size_t max)
{
    return nfy_rules_set_lookup(set, sp, nfy_str_from_cstr(key), hits, max);
}

static bool has_hit(const nfy_rule_hit *hits, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(hits[i].rule->id, id))
            return true;
    return false;
}

static void test_lookup_qualname(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    nfy_rule_hit h[8];
    size_t n =
        lookup(set, NFY_LOOKUP_QUALNAME, "torch.cuda.amp.autocast", h, 8);
    assert_true(n >= 2);
    assert_string_equal(h[0].rule->id, "NPU401"); /* longest prefix */
    assert_int_equal(h[0].matched_len, strlen("torch.cuda.amp"));
    assert_string_equal(h[1].rule->id, "NPU201");

    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.cuda.synchronize", h, 8);
    assert_false(has_hit(h, n, "NPU290")); /* off by default */
    assert_int_equal(nfy_rules_set_enable(set, "NPU290", true), NFY_OK);
    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.cuda.synchronize", h, 8);
    assert_string_equal(h[0].rule->id, "NPU290");
    assert_non_null(h[0].pair);
    assert_string_equal(h[0].pair->to, "torch_npu.npu.synchronize");
    assert_int_equal(nfy_rules_set_enable(set, "NOPE", true), NFY_ENOENT);
    assert_int_equal(nfy_rules_set_enable(set, "NPU290", false), NFY_OK);

    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.cuda.nvtx.range_push", h, 8);
    assert_string_equal(h[0].rule->id, "NPU208");
    assert_string_equal(h[0].pair->to, "torch_npu.npu.mstx.range_push");

    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.distributed.is_nccl_available",
               h, 8);
    assert_int_equal(n, 1);
    assert_string_equal(h[0].rule->replacement,
                        "torch.distributed.is_hccl_available");

    n = lookup(set, NFY_LOOKUP_QUALNAME, "triton.language", h, 8);
    assert_true(has_hit(h, n, "NPU505"));
    n = lookup(set, NFY_LOOKUP_QUALNAME, "tritonx", h, 8);
    assert_false(has_hit(h, n, "NPU505"));
    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.cudax.foo", h, 8);
    assert_int_equal(n, 0);

    /* A flag and a rename on the same name: the edit ranks first. */
    n = lookup(set, NFY_LOOKUP_QUALNAME,
               "torch.backends.cuda.matmul.allow_tf32", h, 8);
    assert_true(n >= 2);
    assert_string_equal(h[0].rule->id, "NPU603");
    assert_true(has_hit(h, n, "NPU204"));

    /* One hit per rule: the exact row, not also the catch-all row. */
    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.backends.cuda.sdp_kernel", h,
               8);
    assert_int_equal(n, 1);
    assert_string_equal(h[0].pair->from, "torch.backends.cuda.sdp_kernel");
    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.backends.cuda.other", h, 8);
    assert_int_equal(n, 1);
    assert_string_equal(h[0].pair->from, "torch.backends.cuda");
    /* The apidb fallback is a pass rule: not reported for every name. */
    n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.cuda.synchronize", h, 8);
    assert_false(has_hit(h, n, "NPU202"));

    /* max smaller than the total keeps the best. */
    size_t total =
        lookup(set, NFY_LOOKUP_QUALNAME, "torch.cuda.amp.autocast", h, 1);
    assert_true(total >= 2);
    assert_string_equal(h[0].rule->id, "NPU401");
    assert_int_equal(
        lookup(set, NFY_LOOKUP_QUALNAME, "torch.cuda.amp.x", NULL, 0), total);
    nfy_rule_set_free(set);
}

static void test_lookup_member_string_env_file(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    nfy_rule_hit h[8];
    size_t n = lookup(set, NFY_LOOKUP_MEMBER, "cuda", h, 8);
    assert_int_equal(n, 1);
    assert_string_equal(h[0].rule->id, "NPU101");
    n = lookup(set, NFY_LOOKUP_MEMBER, "is_cuda", h, 8);
    assert_string_equal(h[0].rule->replacement, "is_npu");
    assert_int_equal(lookup(set, NFY_LOOKUP_MEMBER, "npu", h, 8), 0);

    n = lookup(set, NFY_LOOKUP_STRING, "cuda:0", h, 8);
    assert_true(has_hit(h, n, "NPU103"));
    assert_false(has_hit(h, n, "NPU405")); /* exact form only */
    n = lookup(set, NFY_LOOKUP_STRING, "cuda", h, 8);
    assert_true(has_hit(h, n, "NPU103") && has_hit(h, n, "NPU405"));
    n = lookup(set, NFY_LOOKUP_STRING, "cudax", h, 8);
    assert_false(has_hit(h, n, "NPU103"));
    n = lookup(set, NFY_LOOKUP_STRING, "cpu:gloo,cuda:nccl", h, 8);
    assert_true(has_hit(h, n, "NPU302"));
    assert_false(has_hit(h, n, "NPU301"));
    n = lookup(set, NFY_LOOKUP_STRING, "nccl", h, 8);
    assert_true(has_hit(h, n, "NPU301"));

    n = lookup(set, NFY_LOOKUP_ENV, "CUDA_VISIBLE_DEVICES", h, 8);
    assert_int_equal(n, 1);
    assert_string_equal(h[0].pair->to, "ASCEND_RT_VISIBLE_DEVICES");
    n = lookup(set, NFY_LOOKUP_ENV, "TORCH_NCCL_BLOCKING_WAIT", h, 8);
    assert_string_equal(h[0].pair->to, "TORCH_HCCL_BLOCKING_WAIT");
    n = lookup(set, NFY_LOOKUP_ENV, "NCCL_MADE_UP", h, 8);
    assert_int_equal(n, 1);
    assert_null(h[0].pair);
    assert_int_equal(lookup(set, NFY_LOOKUP_ENV, "HOME", h, 8), 0);

    assert_int_equal(lookup(set, NFY_LOOKUP_FILE, "kern.cu", h, 8), 1);
    assert_string_equal(h[0].rule->id, "NPU503");
    assert_int_equal(lookup(set, NFY_LOOKUP_FILE, "kern.cuh", h, 8), 1);
    assert_int_equal(lookup(set, NFY_LOOKUP_FILE, "kern.cpp", h, 8), 0);
    nfy_rule_set_free(set);
}

/* ---- Small helpers
 * ------------------------------------------------------------------ */

static void test_glob_version_option(void **state)
{
    (void)state;
    assert_true(nfy_rules_glob("*.cu|*.cuh", NFY_STR_LIT("a.cuh")));
    assert_false(nfy_rules_glob("*.cu|*.cuh", NFY_STR_LIT("a.cux")));
    assert_true(nfy_rules_glob("*NCCL_*", NFY_STR_LIT("TORCH_NCCL_X")));
    assert_true(nfy_rules_glob("a?c", NFY_STR_LIT("abc")));
    assert_false(nfy_rules_glob("a?c", NFY_STR_LIT("ac")));
    assert_false(nfy_rules_glob("*device*", NFY_STR_LIT("DEVICE")));
    assert_true(nfy_rules_glob_nocase("*device*", NFY_STR_LIT("MY_DEVICE")));
    assert_true(nfy_rules_version_cmp("2.10", "2.9") > 0);
    assert_true(nfy_rules_version_cmp("2.1", "2.1.0") == 0);
    assert_true(nfy_rules_version_cmp("1.11", "2.0") < 0);

    nfy_rule_set *set = builtin();
    const nfy_rule *g = nfy_rules_set_find(set, "NPU210"); /* min 2.1 */
    assert_false(nfy_rules_applies_to_torch(g, "2.0"));
    assert_true(nfy_rules_applies_to_torch(g, "2.1.0"));
    assert_true(nfy_rules_applies_to_torch(g, NULL));
    const nfy_rule *d = nfy_rules_set_find(set, "NPU307");
    const char *const dist[] = {"amp", "distributed", NULL};
    const char *const none[] = {NULL};
    assert_true(nfy_rules_option_on(d, dist));
    assert_false(nfy_rules_option_on(d, none));
    assert_true(nfy_rules_option_on(nfy_rules_set_find(set, "NPU101"), none));
    assert_string_equal(nfy_rules_operation(nfy_rules_set_find(set, "NPU001")),
                        "INSERT");
    assert_string_equal(nfy_rules_operation(nfy_rules_set_find(set, "NPU003")),
                        "DELETE");
    assert_string_equal(nfy_rules_operation(nfy_rules_set_find(set, "NPU306")),
                        "UNSUPPORTED");
    assert_string_equal(nfy_rules_operation(nfy_rules_set_find(set, "NPU101")),
                        "MODIFY");
    nfy_rule_set_free(set);
    assert_int_equal(nfy_rules_category_of_id("NPU305"),
                     NFY_RULE_CAT_DISTRIBUTED);
    assert_int_equal(nfy_rules_category_of_id("NPU905"), NFY_RULE_CAT_CUSTOM);
    assert_int_equal(nfy_rules_category_of_id("USR001"), NFY_RULE_CAT_CUSTOM);
}

/* ---- Good custom files
 * ------------------------------------------------------------------ */

static const char good_ours[] =
    "{\"schema\": \"npuify-rules/1\", \"rules\": [\n"
    " {\"id\": \"USR001\", \"kind\": \"rewrite-argument\", \"match\": "
    "\"call\",\n"
    "  \"pattern\": \"mylib.load\", \"arg_kw\": \"device\", \"arg_pos\": 1,\n"
    "  \"replacement\": \"f'npu:{$ARG}'\", \"skip\": \"cpu\",\n"
    "  \"message\": \"m\", \"option\": \"distributed,specify_device\"},\n"
    " {\"id\": \"USR002\", \"kind\": \"rewrite-string-in-context\", "
    "\"match\": \"string\",\n"
    "  \"pattern\": \"gpu\", \"replacement\": \"npu\", \"device_form\": "
    "true,\n"
    "  \"ctx\": [\"kw:target\", \"arg:.place@0=where\", \"assign:*dev*\"],\n"
    "  \"message\": \"m\", \"default\": false,\n"
    "  \"map\": [[\"a\", \"b\"], [\"c\", \"\", \"none\"]]}]}\n";

static void test_load_ours(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    size_t before = nfy_rule_set_count(set);
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(load_text(set, good_ours, &d), NFY_OK);
    assert_int_equal(d.items.len, 0);
    assert_int_equal(nfy_rule_set_count(set), before + 2);
    const nfy_rule *r = nfy_rules_set_find(set, "USR001");
    assert_int_equal(r->kind, NFY_RULE_REWRITE_ARG);
    assert_int_equal(r->arg_pos, 1);
    assert_string_equal(r->arg_kw, "device");
    assert_string_equal(r->origin, "t.json");
    assert_int_equal(r->category, NFY_RULE_CAT_CUSTOM);
    const char *const sd[] = {"specify_device", NULL};
    assert_true(nfy_rules_option_on(r, sd));
    r = nfy_rules_set_find(set, "USR002");
    assert_false(r->enabled);
    assert_int_equal(r->nctx, 3);
    assert_int_equal(r->ctx[1].kind, NFY_CTX_ARG);
    assert_string_equal(r->ctx[1].name, ".place");
    assert_int_equal(r->ctx[1].pos, 0);
    assert_string_equal(r->ctx[1].kw, "where");
    assert_int_equal(r->ctx[2].kind, NFY_CTX_ASSIGN);
    assert_int_equal(r->nmap, 2);
    assert_string_equal(r->map[1].note, "none");
    assert_non_null(nfy_rules_map_find(r, NFY_STR_LIT("c")));
    assert_null(nfy_rules_map_find(r, NFY_STR_LIT("z")));
    /* Loading the same file again: its IDs are now duplicates. */
    assert_int_equal(load_text(set, good_ours, &d), NFY_ERULE);
    assert_int_equal(nfy_rule_set_count(set), before + 2);
    nfy_diags_release(&d);
    nfy_rule_set_free(set);
}

static const char good_msft[] =
    "{\"rules\": {\n"
    " \"ArgsModifyRule\": [\n"
    "  {\"func_name\": \"to\", \"arg_idx\": 0, \"arg_new\": "
    "\"f'npu:{replace_device_int}'\",\n"
    "   \"white_list\": [\"cpu\", \"int|long\"], \"feature_switch\": "
    "[\"2.1.0\"]},\n"
    "  {\"func_name\": \"torch.profiler.profile\", \"arg_keyword\": "
    "\"experimental_config\", \"arg_new\": \"\",\n"
    "   \"feature_switch\": [\"specify_device\", \"distributed\"]}],\n"
    " \"FuncNameModifyRule\": [{\"old_name\": \"torch.cuda.synchronize\", "
    "\"new_name\": \"torch_npu.npu.synchronize\"},\n"
    "  {\"old_name\": \"cuda\", \"new_name\": \"npu\"}],\n"
    " \"ModuleNameModifyRule\": [{\"old_name\": \"cuda\", \"new_name\": "
    "\"npu\", \"parent_module\": \"torch\"}],\n"
    " \"ReplaceStringRule\": [{\"str_old\": \"cuda:\", \"str_new\": "
    "\"npu:\", \"strict\": false}],\n"
    " \"ReplaceAttributeRule\": [{\"old_name\": \"is_cuda\", \"new_name\": "
    "\"is_npu\"}]}}\n";

static void test_load_msft(void **state)
{
    (void)state;
    nfy_rule_set *set = nfy_rules_set_new_empty();
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(load_text(set, good_msft, &d), NFY_OK);
    assert_int_equal(d.items.len, 0);
    assert_int_equal(nfy_rule_set_count(set), 7);
    const nfy_rule *r = nfy_rules_set_find(set, "MSFT-ARGS-001");
    assert_non_null(r);
    assert_int_equal(r->kind, NFY_RULE_REWRITE_ARG);
    assert_int_equal(r->match, NFY_MATCH_CALL);
    assert_int_equal(r->arg_pos, 0);
    assert_string_equal(r->replacement, "f'npu:{$ARG}'");
    assert_string_equal(r->skip, "(cpu)|(int|long)");
    assert_null(r->option);
    r = nfy_rules_set_find(set, "MSFT-ARGS-002");
    assert_true(r->flags & NFY_RULE_F_DELETE);
    assert_string_equal(r->option, "specify_device,distributed");
    r = nfy_rules_set_find(set, "MSFT-FUNC-003");
    assert_int_equal(r->match, NFY_MATCH_NAME);
    r = nfy_rules_set_find(set, "MSFT-FUNC-004");
    assert_int_equal(r->match, NFY_MATCH_METHOD);
    r = nfy_rules_set_find(set, "MSFT-MODULE-005");
    assert_int_equal(r->match, NFY_MATCH_MODULE);
    assert_string_equal(r->pattern, "torch.cuda");
    assert_string_equal(r->replacement, "torch.npu");
    r = nfy_rules_set_find(set, "MSFT-STRING-006");
    assert_true(r->flags & NFY_RULE_F_SUBSTRING);
    r = nfy_rules_set_find(set, "MSFT-ATTR-007");
    assert_int_equal(r->match, NFY_MATCH_ATTR);

    /* Bare func_name: matched on the callee's last name. */
    nfy_rule_hit h[4];
    size_t n = lookup(set, NFY_LOOKUP_QUALNAME, "torch.npu.foo.to", h, 4);
    assert_true(has_hit(h, n, "MSFT-ARGS-001"));
    /* A second file continues the numbering. */
    assert_int_equal(load_text(set, good_msft, &d), NFY_OK);
    assert_non_null(nfy_rules_set_find(set, "MSFT-ARGS-008"));
    nfy_diags_release(&d);
    nfy_rule_set_free(set);
}

/* ---- Malformed files
 * ---------------------------------------------------------------------- */

typedef struct {
    const char *name;
    const char *text;
    nfy_status status;
    const char *code;
    uint32_t line, col; /* col 1-based, as rendered */
    const char *needle; /* expected in the message */
} bad_case;

#define RULE_HEAD "{\"rules\": [\n"
#define MIN_RULE(id)                                                           \
    "{\"id\": \"" id "\", \"kind\": \"flag\", "                                \
    "\"match\": \"import\", \"pattern\": \"x\", "                              \
    "\"message\": \"m\""

static const bad_case bad_cases[] = {
    {"syntax", "{\"rules\": [\n  {\"id\": \"A1\",}\n]}", NFY_ESYNTAX,
     "rule-json", 2, 15, "invalid JSON"},
    {"empty", "", NFY_ESYNTAX, "rule-json", 1, 1, "invalid JSON"},
    {"truncated", "{\"rules\": [", NFY_ESYNTAX, "rule-json", 1, 11,
     "invalid JSON"},
    {"dup key", "{\"rules\": [],\n \"rules\": []}", NFY_ESYNTAX, "rule-json", 2,
     2, "duplicate"},
    {"not utf8", "{\"rules\": [\"\xff\"]}", NFY_ESYNTAX, "rule-json", 1, 0,
     "invalid JSON"},
    {"root array", "[1, 2]", NFY_ERULE, "rule-invalid", 1, 1, "JSON object"},
    {"no rules", "{\"schema\": \"npuify-rules/1\"}", NFY_ERULE, "rule-invalid",
     1, 1, "missing field 'rules'"},
    {"bad schema", "{\"schema\": \"v2\", \"rules\": []}", NFY_ERULE,
     "rule-invalid", 1, 12, "schema must be"},
    {"root unknown", "{\"rules\": [], \"extra\": 1}", NFY_ERULE, "rule-invalid",
     1, 15, "unknown field 'extra'"},
    {"unknown field", RULE_HEAD "  " MIN_RULE("A1") ",\n   \"colour\": 1}]}",
     NFY_ERULE, "rule-invalid", 3, 4, "rules[0].colour: unknown field"},
    {"bad kind",
     RULE_HEAD "{\"id\": \"A1\", \"kind\": \"renam\", \"match\": "
               "\"name\", \"pattern\": \"a\", \"message\": \"m\"}]}",
     NFY_ERULE, "rule-invalid", 2, 22, "bad kind value 'renam'"},
    {"missing field", RULE_HEAD "\n  {\"id\": \"A1\", \"kind\": \"flag\"}]}",
     NFY_ERULE, "rule-invalid", 3, 3, "missing required field 'match'"},
    {"dup id", RULE_HEAD MIN_RULE("A1") "},\n" MIN_RULE("A1") "}]}", NFY_ERULE,
     "rule-invalid", 3, 8, "rules[1].id: duplicate rule id 'A1'"},
    {"builtin id", RULE_HEAD MIN_RULE("NPU101") "}]}", NFY_ERULE,
     "rule-invalid", 2, 8, "duplicate rule id 'NPU101'"},
    {"bad id", RULE_HEAD MIN_RULE("1bad") "}]}", NFY_ERULE, "rule-invalid", 2,
     8, "rules[0].id"},
    {"wrong type", RULE_HEAD MIN_RULE("A1") ", \"arg_pos\": \"1\"}]}",
     NFY_ERULE, "rule-invalid", 2, 92, "arg_pos must be"},
    {"bad regex", RULE_HEAD MIN_RULE("A1") ",\n \"skip\": \"(cpu\"}]}",
     NFY_ERULE, "rule-invalid", 3, 10, "invalid regular expression"},
    {"bad line regex",
     RULE_HEAD "{\"id\": \"A1\", \"kind\": \"flag\", \"match\": "
               "\"line\",\n \"pattern\": \"docker(\", \"message\": \"m\"}]}",
     NFY_ERULE, "rule-invalid", 3, 13, "invalid regular expression"},
    /* a back-reference, at its own column past a \u escape */
    {"backref",
     RULE_HEAD "{\"id\": \"A1\", \"kind\": \"flag\", \"match\": "
               "\"line\",\n \"pattern\": \"\\u00e9(a*)\\\\1\", "
               "\"message\": \"m\"}]}",
     NFY_ERULE, "rule-invalid", 3, 24, "back-reference \\1"},
    {"newline replacement",
     RULE_HEAD "{\"id\": \"A1\", \"kind\": \"rename-qualified-api\", "
               "\"match\": \"name\", \"pattern\": \"a.b\",\n "
               "\"replacement\": \"a.c\\nd\", \"message\": \"m\"}]}",
     NFY_ERULE, "rule-invalid", 3, 21, "a line break in the replacement"},
    {"line not flag",
     RULE_HEAD "{\"id\": \"A1\", \"kind\": \"rewrite-argument\", "
               "\"match\": \"line\", \"pattern\": \"a\", \"replacement\": "
               "\"b\", \"message\": \"m\"}]}",
     NFY_ERULE, "rule-invalid", 2, 51, "does not fit kind"},
    {"bad ctx",
     RULE_HEAD MIN_RULE("A1") ",\n \"ctx\": [\"kw:a\", \"where\"]}]}",
     NFY_ERULE, "rule-invalid", 3, 18, "rules[0].ctx[1]: bad context"},
    {"bad ctx pos", RULE_HEAD MIN_RULE("A1") ",\n \"ctx\": [\"arg:f@x\"]}]}",
     NFY_ERULE, "rule-invalid", 3, 10, "position after '@'"},
    {"kind/match",
     RULE_HEAD "{\"id\": \"A1\", \"kind\": \"insert-import\", "
               "\"match\": \"name\", \"pattern\": \"a\", \"replacement\": "
               "\"import b\", \"message\": \"m\"}]}",
     NFY_ERULE, "rule-invalid", 2, 48, "does not fit kind"},
    {"flag safety", RULE_HEAD MIN_RULE("A1") ", \"safety\": \"safe\"}]}",
     NFY_ERULE, "rule-invalid", 2, 91, "safety must be manual"},
    {"bad map row", RULE_HEAD MIN_RULE("A1") ",\n \"map\": [[\"a\", 1]]}]}",
     NFY_ERULE, "rule-invalid", 3, 10, "rules[0].map[0]"},
    {"bad fallback", RULE_HEAD MIN_RULE("A1") ", \"fallback\": \"ZZ1\"}]}",
     NFY_ERULE, "rule-invalid", 2, 93, "fallback 'ZZ1'"},
    {"rename no repl",
     RULE_HEAD "{\"id\": \"A1\", \"kind\": "
               "\"rename-qualified-api\", \"match\": \"name\", "
               "\"pattern\": \"a\", \"message\": \"m\"}]}",
     NFY_ERULE, "rule-invalid", 2, 1, "needs a replacement"},
    {"bad version", RULE_HEAD MIN_RULE("A1") ", \"min_torch\": \"two\"}]}",
     NFY_ERULE, "rule-invalid", 2, 94, "a version is like"},
    {"msft class", "{\"rules\": {\n \"InsertGlobalRule\": []}}", NFY_ERULE,
     "rule-invalid", 2, 2, "unsupported msFmkTransplt rule class"},
    {"msft field",
     "{\"rules\": {\"FuncNameModifyRule\": [\n {\"old_name\": "
     "\"a\", \"new_name\": \"b\", \"new_nmae\": \"c\"}]}}",
     NFY_ERULE, "rule-invalid", 2, 37, "unknown field 'new_nmae'"},
    {"msft missing",
     "{\"rules\": {\"FuncNameModifyRule\": [\n {\"old_name\": "
     "\"a\"}]}}",
     NFY_ERULE, "rule-invalid", 2, 2, "missing required field 'new_name'"},
    {"msft args",
     "{\"rules\": {\"ArgsModifyRule\": [\n {\"func_name\": "
     "\"f\", \"arg_new\": \"x\"}]}}",
     NFY_ERULE, "rule-invalid", 2, 2, "needs arg_idx or arg_keyword"},
    {"msft list", "{\"rules\": {\"ArgsModifyRule\": {}}}", NFY_ERULE,
     "rule-invalid", 1, 30, "must be an array"},
};

/* Returns whether the case behaved as expected (printing what it got). */
static bool run_bad_case(const bad_case *bc)
{
    nfy_rule_set *set = builtin();
    size_t before = nfy_rule_set_count(set);
    nfy_diags d;
    nfy_diags_init(&d);
    nfy_status st = load_text(set, bc->text, &d);
    bool ok = st == bc->status && d.items.len > 0 &&
              nfy_rule_set_count(set) == before;
    if (ok) {
        const nfy_diag *dg = &d.items.items[0];
        ok = !strcmp(dg->code, bc->code) && dg->line == bc->line &&
             (!bc->col || dg->col + 1 == bc->col) &&
             strstr(dg->msg, bc->needle) && !strcmp(dg->file, "t.json");
        if (!ok)
            print_error("%s: got %s %u:%u '%s'\n", bc->name, dg->code, dg->line,
                        dg->col + 1, dg->msg);
    } else {
        print_error("%s: status %s, %zu diagnostics\n", bc->name,
                    nfy_status_name(st), d.items.len);
    }
    nfy_diags_release(&d);
    nfy_rule_set_free(set);
    return ok;
}

static void test_bad_files(void **state)
{
    (void)state;
    size_t failed = 0;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++)
        failed += !run_bad_case(&bad_cases[i]);
    assert_int_equal(failed, 0);
}

static void test_reports_every_error(void **state)
{
    (void)state;
    const char *text = RULE_HEAD MIN_RULE("A1") ", \"x\": 1},\n" MIN_RULE(
        "A2") ", \"y\": 2}]}";
    nfy_rule_set *set = nfy_rules_set_new_empty();
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(load_text(set, text, &d), NFY_ERULE);
    assert_int_equal(d.items.len, 2);
    assert_int_equal(d.items.items[1].line, 3);
    assert_int_equal(nfy_rule_set_count(set), 0);
    nfy_diags_release(&d);
    nfy_rule_set_free(set);
}

/* Every truncation and every single-byte corruption of a good file loads
 * cleanly or fails with diagnostics; a failed load adds nothing. */
static void test_mangled_files(void **state)
{
    (void)state;
    const char *texts[] = {good_ours, good_msft};
    static const char junk[] = {'\0', '"', '}', ']', ',', ':', 'x', '\xff'};
    char buf[2048];
    for (size_t t = 0; t < 2; t++) {
        size_t len = strlen(texts[t]);
        assert_true(len < sizeof buf);
        for (size_t cut = 0; cut <= len; cut++) {
            for (size_t j = 0; j <= sizeof junk; j++) {
                memcpy(buf, texts[t], len);
                size_t n = cut;
                if (j < sizeof junk) { /* corrupt byte `cut` instead */
                    if (cut == len)
                        continue;
                    buf[cut] = junk[j];
                    n = len;
                }
                nfy_rule_set *set = nfy_rules_set_new_empty();
                nfy_diags d;
                nfy_diags_init(&d);
                nfy_status st = nfy_rules_load_mem(set, "m.json", buf, n, &d);
                if (st != NFY_OK) {
                    assert_int_equal(nfy_rule_set_count(set), 0);
                    assert_true(d.items.len > 0);
                    assert_true(d.items.items[0].line >= 1);
                }
                nfy_diags_release(&d);
                nfy_rule_set_free(set);
            }
        }
    }
}

static void test_load_file_errors(void **state)
{
    (void)state;
    nfy_rule_set *set = nfy_rules_set_new_empty();
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_rules_load_file(set, "/nonexistent/r.json", &d),
                     NFY_ENOENT);
    assert_int_equal(d.items.len, 1);
    assert_string_equal(d.items.items[0].file, "/nonexistent/r.json");
    assert_int_equal(nfy_rules_load_file(set, "/nonexistent/r.json", NULL),
                     NFY_ENOENT);
    nfy_diags_release(&d);
    nfy_rule_set_free(set);
}

/* ---- Rendering ----------------------------------------------------------- */

static void test_render_roundtrip(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    nfy_buf json = NFY_BUF_INIT, again = NFY_BUF_INIT;
    nfy_rules_render_json(set, -1, true, &json);
    nfy_rule_set *copy = nfy_rules_set_new_empty();
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(
        nfy_rules_load_mem(copy, "builtin", json.data, json.len, &d), NFY_OK);
    assert_int_equal(nfy_rule_set_count(copy), nfy_rule_set_count(set));
    nfy_rules_render_json(copy, -1, true, &again);
    assert_string_equal(nfy_buf_cstr(&json), nfy_buf_cstr(&again));
    for (size_t i = 0; i < nfy_rule_set_count(set); i++) {
        const nfy_rule *a = nfy_rules_set_at(set, i);
        const nfy_rule *b = nfy_rules_set_at(copy, i);
        assert_string_equal(a->id, b->id);
        assert_int_equal(a->enabled, b->enabled);
        assert_int_equal(a->nctx, b->nctx);
        assert_int_equal(a->nmap, b->nmap);
    }
    nfy_diags_release(&d);
    nfy_buf_release(&json);
    nfy_buf_release(&again);
    nfy_rule_set_free(copy);
    nfy_rule_set_free(set);
}

static void test_render_text(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    nfy_buf t = NFY_BUF_INIT;
    nfy_rules_render_table(set, NFY_RULE_FLAG, false, &t);
    const char *s = nfy_buf_cstr(&t);
    assert_non_null(strstr(s, "NPU306  flag"));
    assert_null(strstr(s, "NPU101"));
    assert_null(strstr(s, "NPU290")); /* off, not included */
    nfy_buf_reset(&t);
    nfy_rules_render_explain(nfy_rules_set_find(set, "NPU101"), &t);
    s = nfy_buf_cstr(&t);
    assert_non_null(strstr(s, "before:\n    model = model.cuda()"));
    assert_non_null(strstr(s, "after:\n    model = model.npu()"));
    nfy_buf_release(&t);
    nfy_rule_set_free(set);
}

/* ---- Activation and the pass registry ------------------------------------ */

static nfy_rule_activity activity(const nfy_rule_set *set, const char *id,
                                  const char *ver, const char *opt, bool unsafe)
{
    nfy_rule_env env = {ver, {opt, NULL}, unsafe, false};
    return nfy_rules_activity_in(nfy_rules_set_find(set, id), &env);
}

static void test_activity(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    /* safe, manual, unsafe */
    assert_int_equal(activity(set, "NPU101", "2.8", NULL, false),
                     NFY_RULE_EDITS);
    assert_int_equal(activity(set, "NPU306", "2.8", NULL, false),
                     NFY_RULE_REPORTS);
    assert_int_equal(activity(set, "NPU208", "2.8", NULL, false),
                     NFY_RULE_REPORTS);
    assert_int_equal(activity(set, "NPU208", "2.8", NULL, true),
                     NFY_RULE_EDITS);
    /* option gate: closed, open (the option allows the unsafe edit) */
    assert_int_equal(activity(set, "NPU403", "2.8", NULL, true),
                     NFY_RULE_INACTIVE);
    assert_int_equal(activity(set, "NPU403", "2.8", "amp", false),
                     NFY_RULE_EDITS);
    /* torch range: NPU210 applies from 2.1 */
    assert_int_equal(activity(set, "NPU210", "2.1", NULL, true),
                     NFY_RULE_EDITS);
    assert_int_equal(activity(set, "NPU210", "1.11", NULL, true),
                     NFY_RULE_INACTIVE);
    /* preview: an option no command offers (every pass is built) */
    assert_true(nfy_rules_is_preview(nfy_rules_set_find(set, "NPU290")));
    assert_false(nfy_rules_is_preview(nfy_rules_set_find(set, "NPU504")));
    assert_false(nfy_rules_is_preview(nfy_rules_set_find(set, "NPU104")));
    assert_int_equal(activity(set, "NPU290", "2.8", NULL, true),
                     NFY_RULE_INACTIVE);
    /* --distributed opens ddp-rewrite, nothing else does */
    assert_int_equal(activity(set, "NPU307", "2.8", "distributed", false),
                     NFY_RULE_EDITS);
    assert_int_equal(activity(set, "NPU307", "2.8", NULL, true),
                     NFY_RULE_INACTIVE);
    /* --mode auto: only the import rules edit */
    nfy_rule_env autom = {"2.8", {"auto", NULL}, false, true};
    assert_int_equal(
        nfy_rules_activity_in(nfy_rules_set_find(set, "NPU002"), &autom),
        NFY_RULE_EDITS);
    assert_int_equal(
        nfy_rules_activity_in(nfy_rules_set_find(set, "NPU305"), &autom),
        NFY_RULE_REPORTS);
    /* disabled */
    assert_int_equal(nfy_rules_set_enable(set, "NPU101", false), NFY_OK);
    assert_int_equal(activity(set, "NPU101", "2.8", NULL, false),
                     NFY_RULE_INACTIVE);
    nfy_rule_set_free(set);
}

static void test_pass_registry(void **state)
{
    (void)state;
    nfy_rule_set *set = builtin();
    /* every pass rule of the catalogue names a registered pass */
    for (size_t i = 0; i < nfy_rule_set_count(set); i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (r->match != NFY_MATCH_PASS) {
            assert_int_equal(r->pass, NFY_PASS_NONE);
            continue;
        }
        const nfy_pass_info *p = nfy_rules_pass_info_of(r->pass);
        assert_non_null(p);
        assert_string_equal(p->name, r->pattern);
        assert_int_equal(p->kind, (int)r->kind);
    }
    assert_int_equal(nfy_rules_pass_parse(NFY_STR_LIT("amp-insert")),
                     NFY_PASS_AMP_INSERT);
    assert_int_equal(nfy_rules_pass_parse(NFY_STR_LIT("amp-insertx")),
                     NFY_PASS_NONE);
    /* a generic pass is in the table but no rule may name it */
    assert_int_equal(nfy_rules_pass_info_of(NFY_PASS_STRINGS)->kind, -1);
    assert_int_equal(nfy_rules_pass_parse(NFY_STR_LIT("strings")),
                     NFY_PASS_NONE);
    assert_null(nfy_rules_pass_info_of(NFY_PASS_NONE));
    nfy_rule_set_free(set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_wellformed),
        cmocka_unit_test(test_builtin_catalogue_content),
        cmocka_unit_test(test_iterate),
        cmocka_unit_test(test_lookup_qualname),
        cmocka_unit_test(test_lookup_member_string_env_file),
        cmocka_unit_test(test_glob_version_option),
        cmocka_unit_test(test_load_ours),
        cmocka_unit_test(test_load_msft),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_reports_every_error),
        cmocka_unit_test(test_mangled_files),
        cmocka_unit_test(test_load_file_errors),
        cmocka_unit_test(test_render_roundtrip),
        cmocka_unit_test(test_render_text),
        cmocka_unit_test(test_activity),
        cmocka_unit_test(test_pass_registry),
        cmocka_unit_test(test_iterate_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
