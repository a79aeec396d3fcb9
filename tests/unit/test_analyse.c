/*
 * Unit tests for src/analyse and the pieces it added elsewhere: the torch
 * API verdict per version from the shipped lists, the extension-name scan
 * of C++ sources, --mode parsing, the migrate observer end to end (torch
 * APIs, constructor and tensor receivers, custom-op call sites), the
 * dependency and C++ CUDA scans, the effort rule and apidb's set
 * iteration.
 */
/* cmocka needs these headers first. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
/* clang-format on */

#include "analyse/analyse.h"
#include "apidb/apidb.h"
#include "migrate/migrate.h"

static int judge(const char *ver, const char *name, nfy_analyse_verdict *d,
                 nfy_arena *a)
{
    return nfy_analyse_judge(ver, nfy_str_from_cstr(name), a, d);
}

static void test_judge_versions(void **state)
{
    (void)state;
    nfy_arena a = NFY_ARENA_INIT;
    nfy_analyse_verdict d;
    assert_int_equal(judge("2.1", "torch.cdist", &d, &a), NFY_API_UNSUPPORTED);
    assert_true(d.judged);
    assert_string_equal(d.api, "torch.cdist");
    assert_string_equal(d.source, "msFmkTransplt list 2.1");
    assert_int_equal(judge("2.1", "torch.nanquantile", &d, &a),
                     NFY_API_UNSUPPORTED);
    assert_int_equal(judge("2.1", "torch.nn.ConvTranspose3d", &d, &a),
                     NFY_API_UNSUPPORTED);
    /* 2.8's list has cdist, not nanquantile */
    assert_int_equal(judge("2.8", "torch.cdist", &d, &a), NFY_API_SUPPORTED);
    assert_int_equal(judge("2.8", "torch.nanquantile", &d, &a),
                     NFY_API_UNSUPPORTED);
    /* 2.3 has no list of its own: the 2.1 one serves it, and says so */
    assert_int_equal(judge("2.3", "torch.cdist", &d, &a), NFY_API_UNSUPPORTED);
    assert_string_equal(d.source, "msFmkTransplt list 2.1");
    /* 2.12: Huawei's native list for 2.12 decides before msFmkTransplt 2.8 */
    assert_int_equal(judge("2.12", "torch.cdist", &d, &a), NFY_API_SUPPORTED);
    assert_non_null(strstr(d.source, "native-API list 2.12.0"));
    assert_non_null(d.note);
    nfy_arena_release(&a);
}

static void test_judge_names(void **state)
{
    (void)state;
    nfy_arena a = NFY_ARENA_INIT;
    nfy_analyse_verdict d;
    /* modules and classes with listed members get no verdict */
    judge("2.1", "torch.nn", &d, &a);
    assert_false(d.judged);
    judge("2.1", "torch.nn.functional", &d, &a);
    assert_false(d.judged);
    /* not torch */
    judge("2.1", "numpy.zeros", &d, &a);
    assert_false(d.judged);
    /* a dunder tail is judged by its owner, any other tail by itself */
    assert_int_equal(judge("2.1", "torch.nn.Module.__init__", &d, &a),
                     NFY_API_SUPPORTED);
    assert_string_equal(d.api, "torch.nn.Module");
    assert_int_equal(judge("2.1", "torch.nn.Module.no_such_member", &d, &a),
                     NFY_API_UNKNOWN);
    assert_true(d.judged);
    assert_string_equal(d.api, "torch.nn.Module.no_such_member");
    assert_non_null(strstr(d.source, "msFmkTransplt list 2.1"));
    nfy_arena_release(&a);
}

static void test_namespace(void **state)
{
    (void)state;
    const nfy_apidb_version *v;
    assert_int_equal(nfy_apidb_version_parse(NFY_STR_LIT("2.1"), &v), NFY_OK);
    assert_true(nfy_apidb_torch_api_namespace(v, NFY_STR_LIT("torch.nn")));
    assert_true(nfy_apidb_torch_api_namespace(v, NFY_STR_LIT("torch.Tensor")));
    assert_false(nfy_apidb_torch_api_namespace(v, NFY_STR_LIT("torch.cdist")));
    assert_false(nfy_apidb_torch_api_namespace(v, NFY_STR_LIT("torch.n")));
    assert_false(nfy_apidb_torch_api_namespace(v, NFY_STR_LIT("")));
}

typedef struct {
    size_t n;
    char prev[256];
    bool sorted;
} walk_state;

static void on_name(void *ctx, const char *name, const char *note)
{
    (void)note;
    walk_state *w = ctx;
    if (w->n && strcmp(w->prev, name) >= 0)
        w->sorted = false;
    snprintf(w->prev, sizeof w->prev, "%s", name);
    w->n++;
}

static void test_set_each(void **state)
{
    (void)state;
    const nfy_apidb_version *v;
    assert_int_equal(nfy_apidb_version_parse(NFY_STR_LIT("2.1"), &v), NFY_OK);
    for (int s = 0; s < NFY_APIDB_SET_COUNT; s++) {
        walk_state w = {0, "", true};
        const char *dv = NULL;
        size_t n = nfy_apidb_set_each(v, (nfy_apidb_set)s, on_name, &w, &dv);
        assert_int_equal(n, w.n);
        assert_true(n > 100);
        assert_true(w.sorted); /* strictly increasing: sorted, no repeats */
        assert_non_null(dv);
        assert_int_equal(
            nfy_apidb_set_each(v, (nfy_apidb_set)s, NULL, NULL, NULL), n);
    }
    assert_int_equal(
        nfy_apidb_set_each(v, NFY_APIDB_SET_COUNT, NULL, NULL, NULL), 0);
    assert_string_equal(nfy_apidb_set_name(NFY_APIDB_SET_ATEN_OPS), "aten_ops");
}

static void test_modes(void **state)
{
    (void)state;
    unsigned m;
    assert_int_equal(nfy_analyse_modes_parse("all", &m), NFY_OK);
    assert_int_equal(m, NFY_ANALYSE_ALL);
    assert_int_equal(nfy_analyse_modes_parse("torch_apis,dependencies", &m),
                     NFY_OK);
    assert_int_equal(m, NFY_ANALYSE_TORCH_APIS | NFY_ANALYSE_DEPENDENCIES);
    assert_int_equal(nfy_analyse_modes_parse("torch_apis,", &m), NFY_OK);
    assert_int_equal(nfy_analyse_modes_parse("nope", &m), NFY_EUSAGE);
    assert_int_equal(nfy_analyse_modes_parse("", &m), NFY_EUSAGE);
    assert_int_equal(nfy_analyse_modes_parse(NULL, &m), NFY_EUSAGE);
}

static void scan_text(nfy_analyse_exts *x, const char *rel, const char *text)
{
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, rel, text, strlen(text)),
                     NFY_OK);
    nfy_analyse_exts_scan(x, &src, rel);
    nfy_source_release(&src);
}

static void test_exts_scan(void **state)
{
    (void)state;
    nfy_analyse_exts x;
    nfy_analyse_exts_init(&x);
    scan_text(
        &x, "a.cpp",
        "#include <torch/extension.h>\n"
        "PYBIND11_MODULE(TORCH_EXTENSION_NAME, mod) {\n"
        "  mod.def(\"fwd\", &fwd);\n"
        "  mod.def( \"bwd\" , &bwd, \"doc\");\n"
        "  other.def(\"not_this\", &x);\n"
        "}\n"
        "TORCH_LIBRARY(myops, m) { m.def(\"gelu(Tensor x) -> Tensor\"); }\n"
        "TORCH_LIBRARY_IMPL(myops, CUDA, m) { m.impl(\"gelu2\", &g); }\n"
        "TORCH_LIBRARY_FRAGMENT(frag, m) { m.def(\"f.out(Tensor x)\"); }\n");
    assert_string_equal(nfy_analyse_exts_find(
                            &x, NFY_STR_LIT("TORCH_EXTENSION_NAME.fwd"), NULL),
                        "a.cpp:3");
    assert_string_equal(nfy_analyse_exts_find(&x, NFY_STR_LIT("?.bwd"), NULL),
                        "a.cpp:4");
    assert_null(nfy_analyse_exts_find(&x, NFY_STR_LIT("?.not_this"), NULL));
    assert_string_equal(
        nfy_analyse_exts_find(&x, NFY_STR_LIT("myops::gelu"), NULL), "a.cpp:7");
    assert_non_null(
        nfy_analyse_exts_find(&x, NFY_STR_LIT("myops::gelu2"), NULL));
    assert_non_null(nfy_analyse_exts_find(&x, NFY_STR_LIT("frag::f"), NULL));
    assert_null(nfy_analyse_exts_find(&x, NFY_STR_LIT("myops::fwd"), NULL));
    /* CUDA or plain C++: by the registering file */
    bool cuda = false;
    assert_non_null(
        nfy_analyse_exts_find(&x, NFY_STR_LIT("myops::gelu"), &cuda));
    assert_true(cuda); /* a.cpp names CUDA (TORCH_LIBRARY_IMPL ... CUDA) */
    scan_text(&x, "cpu.cpp",
              "PYBIND11_MODULE(cpu_ops, m) { m.def(\"pairs\", &p); }\n");
    assert_non_null(
        nfy_analyse_exts_find(&x, NFY_STR_LIT("cpu_ops.pairs"), &cuda));
    assert_false(cuda);
    /* a .cu below the registering file's directory makes it CUDA */
    scan_text(&x, "tm/csrc/vision.cpp",
              "PYBIND11_MODULE(tm, m) { m.def(\"swap\", &s); }\n");
    assert_non_null(nfy_analyse_exts_find(&x, NFY_STR_LIT("tm.swap"), &cuda));
    assert_false(cuda);
    scan_text(&x, "tm/csrc/swap/swap_cuda.cu", "// kernels\n");
    assert_non_null(nfy_analyse_exts_find(&x, NFY_STR_LIT("tm.swap"), &cuda));
    assert_true(cuda);
    scan_text(&x, "k.cu", "PYBIND11_MODULE(k, m) { m.def(\"run\", &r); }");
    assert_non_null(nfy_analyse_exts_find(&x, NFY_STR_LIT("k.run"), &cuda));
    assert_true(cuda);
    /* cut and broken macros find nothing and do not crash */
    size_t before = x.len;
    scan_text(&x, "b.cu", "PYBIND11_MODULE(");
    scan_text(&x, "c.cu", "TORCH_LIBRARY(ns, m) { m.def(\"");
    scan_text(&x, "d.cu", "PYBIND11_MODULE(m, v) v.def(\"x\")");
    assert_int_equal(x.len, before);
    /* a second definition keeps the first location */
    scan_text(&x, "z.cpp", "TORCH_LIBRARY(myops, m) { m.def(\"gelu\"); }");
    assert_string_equal(
        nfy_analyse_exts_find(&x, NFY_STR_LIT("myops::gelu"), NULL), "a.cpp:7");
    nfy_analyse_exts_release(&x);
    assert_null(nfy_analyse_exts_find(NULL, NFY_STR_LIT("x"), NULL));
}

/* Run the migrate passes with the analyse observer over text. */
static void analyse_py(const char *text, const char *ver,
                       const nfy_analyse_exts *exts, nfy_report *rep)
{
    nfy_diags dg;
    nfy_diags_init(&dg);
    nfy_rule_set *rules = nfy_rule_set_new(&dg);
    assert_non_null(rules);
    nfy_analyse_opts ao = {rules, ver, NFY_ANALYSE_ALL, exts};
    nfy_migrate_observer obs = {nfy_analyse_python, &ao};
    nfy_migrate_opts mo = {
        .rules = rules, .torch_version = ver, .observer = &obs};
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "t.py", text, strlen(text)),
                     NFY_OK);
    nfy_edit_set es;
    nfy_edit_set_init(&es, &src);
    assert_int_equal(nfy_mig_file(&mo, &src, "t.py", &es, rep, NULL, &dg),
                     NFY_OK);
    nfy_edit_set_release(&es);
    nfy_source_release(&src);
    nfy_rule_set_free(rules);
    nfy_diags_release(&dg);
}

/* One file through a run's project (state kept across files) or alone:
 * the findings (rule, line, api, message) and edits must be the same. */
static void migrate_one(nfy_migrate_project *proj, const nfy_migrate_opts *mo,
                        const char *text, nfy_report *rep, nfy_buf *out)
{
    nfy_diags dg;
    nfy_diags_init(&dg);
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "t.py", text, strlen(text)),
                     NFY_OK);
    nfy_edit_set es;
    nfy_edit_set_init(&es, &src);
    nfy_migrate_info info;
    assert_int_equal(
        proj ? nfy_mig_project_file(proj, mo, &src, "t.py", &es, rep, &dg)
             : nfy_mig_file(mo, &src, "t.py", &es, rep, &info, &dg),
        NFY_OK);
    assert_int_equal(nfy_edit_set_apply(&es, &dg, out), NFY_OK);
    nfy_edit_set_release(&es);
    nfy_source_release(&src);
    nfy_diags_release(&dg);
}

static void same_findings(const nfy_report *a, const nfy_report *b)
{
    assert_int_equal(a->open_findings.len, b->open_findings.len);
    for (size_t i = 0; i < a->open_findings.len; i++) {
        const nfy_finding *x = &a->open_findings.items[i],
                          *y = &b->open_findings.items[i];
        assert_string_equal(x->rule, y->rule);
        assert_int_equal(x->start_line, y->start_line);
        assert_string_equal(x->api ? x->api : "", y->api ? y->api : "");
        assert_string_equal(x->message ? x->message : "",
                            y->message ? y->message : "");
    }
}

static void test_run_state_kept(void **state)
{
    (void)state;
    static const char *const files[] = {
        "import torch\nimport torch.nn as nn\nx = torch.cdist(a, b)\n"
        "torch.cuda.synchronize()\nm = nn.Module()\n",
        "import torch\nfrom torch.cuda import amp\ny = torch.cdist(a, b)\n"
        "d = torch.device('cuda:0')\nz = torch.zeros(2).cuda()\n"
        "torch.cuda.synchronize()\n",
        "import torch as th\nth.cuda.empty_cache()\nq = th.cdist(a, b)\n"};
    nfy_diags dg;
    nfy_diags_init(&dg);
    nfy_rule_set *rules = nfy_rule_set_new(&dg);
    assert_non_null(rules);
    nfy_analyse_opts ao = {rules, NULL, NFY_ANALYSE_ALL, NULL};
    nfy_migrate_observer obs = {nfy_analyse_python, &ao};
    nfy_migrate_opts mo = {.rules = rules, .observer = &obs};
    nfy_migrate_project proj;
    nfy_mig_project_init(&proj);
    size_t nonempty = 0;
    for (int pass = 0; pass < 2; pass++) { /* the second: all kept */
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            nfy_report kept, alone;
            nfy_report_init(&kept);
            nfy_report_init(&alone);
            nfy_buf ko = NFY_BUF_INIT, ao_out = NFY_BUF_INIT;
            migrate_one(&proj, &mo, files[i], &kept, &ko);
            migrate_one(NULL, &mo, files[i], &alone, &ao_out);
            same_findings(&kept, &alone);
            nonempty += kept.open_findings.len > 0;
            assert_string_equal(nfy_buf_cstr(&ko), nfy_buf_cstr(&ao_out));
            nfy_buf_release(&ko);
            nfy_buf_release(&ao_out);
            nfy_report_release(&kept);
            nfy_report_release(&alone);
        }
    }
    assert_int_equal(nonempty, 2 * (sizeof files / sizeof files[0]));
    assert_non_null(proj.run);
    assert_int_equal(proj.files, 6);
    nfy_mig_project_release(&proj);
    nfy_rule_set_free(rules);
    nfy_diags_release(&dg);
}

/* Number of findings of rule on line with api. */
static size_t count(const nfy_report *rep, const char *rule, uint32_t line,
                    const char *api)
{
    size_t n = 0;
    for (size_t i = 0; i < rep->open_findings.len; i++) {
        const nfy_finding *f = &rep->open_findings.items[i];
        n += f->rule && !strcmp(f->rule, rule) && f->start_line == line &&
             f->api && !strcmp(f->api, api);
    }
    return n;
}

static void test_observer_torch_apis(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    analyse_py("import torch as th\n"                        /* 1 */
               "from torch import nn\n"                      /* 2 */
               "def f(a: th.Tensor, b, flag):\n"             /* 3 */
               "    m = nn.MaxPool2d(2)\n"                   /* 4 */
               "    y = m(a)\n"                              /* 5 */
               "    t = th.randn(3)\n"                       /* 6 */
               "    q = t.nanquantile(0.5), a.cdist(a)\n"    /* 7 */
               "    r = b.cdist(b), t.shape\n"               /* 8 */
               "    k = nn.MaxPool2d(2) if flag else None\n" /* 9 */
               "    k = None\n"                              /* 10 */
               "    k(a)\n"                                  /* 11 */
               "    return th.cdist(a, a), th.float16\n",    /* 12 */
               "2.1", NULL, &rep);
    assert_int_equal(count(&rep, "NPU701", 4, "torch.nn.MaxPool2d"), 1);
    assert_int_equal(count(&rep, "NPU701", 5, "torch.nn.MaxPool2d"), 1);
    /* in no list, but torch's inventory: it decomposes into kernels
       torch_npu 2.1 registers (device-neutral, no finding) */
    assert_int_equal(count(&rep, "NPU702", 7, "torch.Tensor.nanquantile"), 0);
    /* no such public tensor method: really unknown */
    assert_int_equal(count(&rep, "NPU702", 7, "torch.Tensor.cdist"), 1);
    /* listed unsupported, but aten::cdist has an NPU kernel: a check */
    assert_int_equal(count(&rep, "NPU701", 12, "torch.cdist"), 0);
    assert_int_equal(count(&rep, "NPU702", 12, "torch.cdist"), 1);
    /* an unannotated parameter, an attribute, a conditional value, a
       dtype: no verdict */
    for (size_t i = 0; i < rep.open_findings.len; i++) {
        const nfy_finding *f = &rep.open_findings.items[i];
        if (strncmp(f->rule, "NPU70", 5) != 0)
            continue;
        assert_int_not_equal(f->start_line, 8);
        assert_int_not_equal(f->start_line, 11);
        assert_false(f->api && !strcmp(f->api, "torch.float16"));
    }
    nfy_report_release(&rep);
}

/* More distinct names than a memo keeps (16384): the names past it are
 * judged each time, with the same findings as the ones before. */
static void test_memo_limit(void **state)
{
    (void)state;
    enum { NAMES = 17000 };
    nfy_buf text = NFY_BUF_INIT;
    (void)nfy_buf_addstr(&text, "import torch\n");
    for (int i = 0; i < NAMES; i++)
        (void)nfy_buf_addf(&text, "torch.zq%05d()\n", i);
    (void)nfy_buf_addstr(&text, "torch.zq00000()\ntorch.cdist(a, b)\n");
    nfy_report rep;
    nfy_report_init(&rep);
    analyse_py(nfy_buf_cstr(&text), "2.1", NULL, &rep);
    size_t unknown = 0;
    const char *first = NULL, *last = NULL;
    for (size_t i = 0; i < rep.open_findings.len; i++) {
        const nfy_finding *f = &rep.open_findings.items[i];
        if (strcmp(f->rule, "NPU702") != 0 || strncmp(f->api, "torch.zq", 8))
            continue;
        unknown++;
        if (f->start_line == 2)
            first = f->message;
        if (f->start_line == NAMES + 1)
            last = f->message;
    }
    assert_int_equal(unknown, NAMES + 1);
    assert_non_null(first);
    assert_non_null(last);
    assert_string_equal(first, last); /* the texts do not name the API */
    assert_int_equal(count(&rep, "NPU702", NAMES + 2, "torch.zq00000"), 1);
    assert_int_equal(count(&rep, "NPU702", NAMES + 3, "torch.cdist"), 1);
    nfy_report_release(&rep);
    nfy_buf_release(&text);
}

static void test_observer_custom_ops(void **state)
{
    (void)state;
    nfy_analyse_exts x;
    nfy_analyse_exts_init(&x);
    scan_text(&x, "plain.cpp",
              "PYBIND11_MODULE(plain, m) { m.def(\"pairs\", &p); }\n");
    scan_text(
        &x, "ext.cu",
        "PYBIND11_MODULE(fused, m) { m.def(\"gelu\", &g); }\n"
        "TORCH_LIBRARY(myops, m) { m.def(\"act(Tensor x) -> Tensor\"); }\n");
    nfy_report rep;
    nfy_report_init(&rep);
    analyse_py("import torch\n"                               /* 1 */
               "import fused\n"                               /* 2 */
               "import other\n"                               /* 3 */
               "from torch.utils.cpp_extension import load\n" /* 4 */
               "j = load(name='x', sources=['ext.cu'])\n"     /* 5 */
               "fused.gelu(1)\n"                              /* 6 */
               "other.gelu(1)\n"                              /* 7 */
               "j.gelu(1)\n"                                  /* 8 */
               "torch.ops.myops.act(1)\n"                     /* 9 */
               "torch.ops.myops.nope(1)\n"                    /* 10 */
               "@triton.jit\n"                                /* 11 */
               "def k(x): pass\n"                             /* 12 */
               "try:\n"                                       /* 13 */
               "    import plain\n"                           /* 14 */
               "except ImportError:\n"                        /* 15 */
               "    plain = None\n"                           /* 16 */
               "plain.pairs(1)\n",                            /* 17 */
               "2.8", &x, &rep);
    assert_int_equal(count(&rep, "NPU504", 6, "fused.gelu"), 1);
    assert_int_equal(count(&rep, "NPU504", 7, "other.gelu"), 0);
    assert_int_equal(count(&rep, "NPU504", 8, "j.gelu"), 1);
    assert_int_equal(count(&rep, "NPU504", 9, "torch.ops.myops.act"), 1);
    assert_int_equal(count(&rep, "NPU504", 10, "torch.ops.myops.nope"), 0);
    /* triton not imported: the decorator does not resolve, no kernel */
    assert_int_equal(count(&rep, "NPU705", 12, "k"), 0);
    /* a plain C++ op: NPU711, and the try import is named */
    assert_int_equal(count(&rep, "NPU711", 17, "plain.pairs"), 1);
    assert_int_equal(count(&rep, "NPU504", 17, "plain.pairs"), 0);
    for (size_t i = 0; i < rep.open_findings.len; i++)
        if (!strcmp(rep.open_findings.items[i].rule, "NPU711"))
            assert_non_null(
                strstr(rep.open_findings.items[i].message, "inside try"));
    nfy_report_release(&rep);
    nfy_analyse_exts_release(&x);
}

static void analyse_file(const char *rel, const char *text, nfy_report *rep)
{
    nfy_diags dg;
    nfy_diags_init(&dg);
    nfy_rule_set *rules = nfy_rule_set_new(&dg);
    nfy_analyse_opts ao = {rules, "2.8", NFY_ANALYSE_ALL, NULL};
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, rel, text, strlen(text)),
                     NFY_OK);
    assert_true(nfy_analyse_text_wanted(rel));
    nfy_analyse_text(&ao, &src, rel, rep);
    nfy_source_release(&src);
    nfy_rule_set_free(rules);
    nfy_diags_release(&dg);
}

static void test_text_files(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    analyse_file("requirements-dev.txt",
                 "Torch==2.1.0+cu118  # pinned\n"
                 "numpy\n"
                 "flash_attn>=2\n"
                 "# xformers\n",
                 &rep);
    assert_int_equal(count(&rep, "NPU706", 1, "torch+cu118"), 1);
    assert_int_equal(count(&rep, "NPU706", 3, "flash-attn"), 1);
    assert_int_equal(rep.open_findings.len, 2);
    analyse_file("k.cu",
                 "// x.is_cuda() in a comment\n"
                 "/* k<<<1,1>>>();\n"
                 "   still comment */ bool c = x.is_cuda();\n"
                 "auto s = c10::cuda::getCurrentCUDAStream();\n",
                 &rep);
    assert_int_equal(count(&rep, "NPU708", 3, ".is_cuda()"), 1);
    assert_int_equal(
        count(&rep, "NPU708", 4, "c10::cuda::getCurrentCUDAStream"), 1);
    assert_int_equal(rep.open_findings.len, 4);
    assert_false(nfy_analyse_text_wanted("train.py"));
    assert_false(nfy_analyse_text_wanted("README.md"));
    /* Dockerfiles are convert's container line rules, not NPU706's */
    assert_false(nfy_analyse_text_wanted("docker/Dockerfile"));
    assert_true(nfy_analyse_text_wanted("requirements-dev.txt"));
    nfy_report_release(&rep);
}

static void test_effort(void **state)
{
    (void)state;
    nfy_effort_counts c = {0};
    assert_int_equal(nfy_report_effort_of(&c), NFY_EFFORT_NONE);
    c.edits = 1;
    assert_int_equal(nfy_report_effort_of(&c), NFY_EFFORT_LOW);
    c.manual = 10;
    assert_int_equal(nfy_report_effort_of(&c), NFY_EFFORT_MEDIUM);
    c.manual = 0;
    c.blocking = 1;
    assert_int_equal(nfy_report_effort_of(&c), NFY_EFFORT_MEDIUM);
    c.blocking = 10;
    assert_int_equal(nfy_report_effort_of(&c), NFY_EFFORT_HIGH);
    c.blocking = 1;
    c.kernels = 1;
    assert_int_equal(nfy_report_effort_of(&c), NFY_EFFORT_HIGH);

    nfy_report rep;
    nfy_report_init(&rep);
    nfy_report_add_file(&rep, "a.py", NFY_FILE_UNCHANGED, NULL);
    nfy_report_add_file(&rep, "b.py", NFY_FILE_UNCHANGED, NULL);
    nfy_finding f = {0};
    f.file = "a.py";
    f.rule = "NPU504";
    f.cat = NFY_CAT_UNSUPPORTED_API;
    nfy_report_add_finding(&rep, &f);
    f.file = "b.py";
    f.rule = "NPU702";
    f.cat = NFY_CAT_UNKNOWN_API;
    f.safety = NFY_SAFETY_MANUAL;
    nfy_report_add_finding(&rep, &f);
    assert_true(nfy_report_finding_is_kernel(&rep.open_findings.items[0]));
    assert_false(nfy_report_finding_is_blocking(&rep.open_findings.items[1]));
    assert_int_equal(nfy_report_effort(&rep, "a.py", NULL), NFY_EFFORT_HIGH);
    /* an unknown API is to verify, not work */
    assert_int_equal(nfy_report_effort(&rep, "b.py", NULL), NFY_EFFORT_NONE);
    nfy_effort_counts pc;
    assert_int_equal(nfy_report_effort(&rep, NULL, &pc), NFY_EFFORT_HIGH);
    assert_int_equal(pc.kernels, 1);
    assert_string_equal(nfy_report_effort_name(NFY_EFFORT_MEDIUM), "medium");
    nfy_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge_versions),
        cmocka_unit_test(test_judge_names),
        cmocka_unit_test(test_namespace),
        cmocka_unit_test(test_set_each),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_exts_scan),
        cmocka_unit_test(test_observer_torch_apis),
        cmocka_unit_test(test_memo_limit),
        cmocka_unit_test(test_run_state_kept),
        cmocka_unit_test(test_observer_custom_ops),
        cmocka_unit_test(test_text_files),
        cmocka_unit_test(test_effort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
