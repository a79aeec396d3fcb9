/*
 * Unit tests for the migration passes: each rule family with positive and
 * negative cases, the exact rewritten text, the findings (rule, category,
 * line), version-dependent renames, idempotence and the project-level AMP
 * finding. Uses the built-in rule catalogue.
 */
/* cmocka needs these headers first. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
/* clang-format on */

#include "migrate/migrate.h"
#include "rules/rules.h"

typedef struct {
    nfy_report rep;
    nfy_migrate_info info;
    char *out;
    size_t nedits;
} result;

static nfy_rule_set *rules_get(void)
{
    nfy_diags d;
    nfy_diags_init(&d);
    nfy_rule_set *rs = nfy_rule_set_new(&d);
    nfy_diags_release(&d);
    assert_non_null(rs);
    return rs;
}

/* Migrate text; fills res (release with result_release). */
static void run(const char *text, const char *ver, unsigned flags, result *res)
{
    nfy_rule_set *rs = rules_get();
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "t.py", text, strlen(text)),
                     NFY_OK);
    nfy_migrate_opts mo = {.rules = rs, .torch_version = ver, .flags = flags};
    nfy_report_init(&res->rep);
    nfy_edit_set es;
    nfy_edit_set_init(&es, &src);
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(
        nfy_mig_file(&mo, &src, "t.py", &es, &res->rep, &res->info, &d),
        NFY_OK);
    nfy_buf out = NFY_BUF_INIT;
    assert_int_equal(nfy_edit_set_apply(&es, &d, &out), NFY_OK);
    res->nedits = es.edits.len;
    res->out = strdup(nfy_buf_cstr(&out));
    nfy_buf_release(&out);
    nfy_diags_release(&d);
    nfy_edit_set_release(&es);
    nfy_source_release(&src);
    nfy_rule_set_free(rs);
}

static void result_release(result *res)
{
    free(res->out);
    nfy_report_release(&res->rep);
}

/* Migrating text gives want; migrating want again changes nothing. */
static void expect_out(const char *text, const char *want)
{
    result r;
    run(text, NULL, 0, &r);
    if (strcmp(r.out, want) != 0)
        fail_msg("input:\n%s\ngot:\n%s\nwant:\n%s", text, r.out, want);
    result again;
    run(r.out, NULL, 0, &again);
    if (again.nedits != 0)
        fail_msg("not idempotent: %zu edits on\n%s\ngiving\n%s", again.nedits,
                 r.out, again.out);
    result_release(&again);
    result_release(&r);
}

static size_t count_findings(const result *r, const char *rule,
                             nfy_finding_cat cat, uint32_t line)
{
    size_t n = 0;
    for (size_t i = 0; i < r->rep.open_findings.len; i++) {
        const nfy_finding *f = &r->rep.open_findings.items[i];
        if ((rule == NULL || strcmp(f->rule, rule) == 0) && f->cat == cat &&
            (line == 0 || f->start_line == line))
            n++;
    }
    return n;
}

static void expect_finding(const char *text, const char *ver, const char *rule,
                           nfy_finding_cat cat, uint32_t line)
{
    result r;
    run(text, ver, 0, &r);
    if (count_findings(&r, rule, cat, line) == 0) {
        for (size_t i = 0; i < r.rep.open_findings.len; i++) {
            const nfy_finding *f = &r.rep.open_findings.items[i];
            print_message("  have %s %s line %u: %s\n", f->rule,
                          nfy_finding_cat_name(f->cat), f->start_line,
                          f->message ? f->message : "");
        }
        fail_msg("no %s finding (%s) at line %u", rule,
                 nfy_finding_cat_name(cat), line);
    }
    result_release(&r);
}

/* ---- imports ---------------------------------------------------------------
 */

static void test_insert_import_position(void **state)
{
    (void)state;
    expect_out("#!/usr/bin/env python\n"
               "# -*- coding: utf-8 -*-\n"
               "\"\"\"Doc.\"\"\"\n"
               "from __future__ import annotations\n"
               "import os\n"
               "import torch  # the framework\n"
               "x = 1\n",
               "#!/usr/bin/env python\n"
               "# -*- coding: utf-8 -*-\n"
               "\"\"\"Doc.\"\"\"\n"
               "from __future__ import annotations\n"
               "import os\n"
               "import torch  # the framework\n"
               "import torch_npu\n"
               "x = 1\n");
    /* already there: nothing; no torch: nothing */
    expect_out("import torch\nimport torch_npu\n",
               "import torch\nimport torch_npu\n");
    expect_out("import numpy as np\nx = 'cuda'\n",
               "import numpy as np\nx = 'cuda'\n");
    /* CRLF line ends and an indented first import */
    expect_out(
        "try:\r\n    import torch\r\nexcept ImportError:\r\n    pass\r\n",
        "try:\r\n    import torch\r\n    import torch_npu\r\nexcept "
        "ImportError:\r\n    pass\r\n");
}

static void test_remove_amp_c(void **state)
{
    (void)state;
    expect_out("import amp_C\nimport os\n", "import os\n");
    expect_out("import os, amp_C, sys\n", "import os, sys\n");
    expect_out("try:\n    import amp_C\nexcept ImportError:\n    pass\n",
               "try:\n    pass\nexcept ImportError:\n    pass\n");
}

static void test_import_renames(void **state)
{
    (void)state;
    expect_out("import torch.cuda as tc\ntc.synchronize()\n",
               "import torch_npu\nimport torch.npu as tc\ntc.synchronize()\n");
    expect_out(
        "import torch\nfrom torch.cuda.amp import autocast, GradScaler\n",
        "import torch\nimport torch_npu\n"
        "from torch.npu.amp import autocast, GradScaler\n");
    expect_out("import torch\nfrom torch.cuda import amp as A\nA.autocast()\n",
               "import torch\nimport torch_npu\nfrom torch.npu import amp as "
               "A\nA.autocast()\n");
}

/* ---- CUDA API
 * ---------------------------------------------------------------- */

static void test_alias_rename(void **state)
{
    (void)state;
    expect_out("import torch as th\nth.cuda.synchronize()\n",
               "import torch as th\nimport torch_npu\nth.npu.synchronize()\n");
    expect_out("import torch\nn = torch.cuda.device_count()\n"
               "torch.cuda.set_device(local_rank)\n",
               "import torch\nimport torch_npu\nn = torch.npu.device_count()\n"
               "torch.npu.set_device(local_rank)\n");
}

static void test_local_cuda_not_module(void **state)
{
    (void)state;
    const char *src = "import torch\n"
                      "def f(cuda):\n"
                      "    cuda.synchronize()\n";
    expect_out(src, "import torch\nimport torch_npu\n"
                    "def f(cuda):\n"
                    "    cuda.synchronize()\n");
}

static void test_apidb_by_version(void **state)
{
    (void)state;
    const char *src = "import torch\n"
                      "f = torch.cuda.get_per_process_memory_fraction()\n";
    result r;
    run(src, "2.8", 0, &r);
    assert_non_null(strstr(r.out, "torch.npu.get_per_process_memory_fraction"));
    result_release(&r);
    run(src, "2.1", 0, &r);
    assert_non_null(
        strstr(r.out, "torch.cuda.get_per_process_memory_fraction"));
    assert_true(count_findings(&r, "NPU202", NFY_CAT_CUDA_OP, 2) == 1);
    result_release(&r);
    /* no counterpart in any version: flagged, not renamed */
    expect_finding("import torch\nx = torch.cuda.get_arch_list()\n", NULL,
                   "NPU211", NFY_CAT_CUDA_OP, 2);
}

static void test_profiler(void **state)
{
    (void)state;
    expect_out("import torch\n"
               "with torch.profiler.profile(schedule=s, "
               "experimental_config=cfg) as p:\n"
               "    pass\n",
               "import torch\nimport torch_npu\n"
               "with torch_npu.profiler.profile(schedule=s) as p:\n"
               "    pass\n");
}

static void test_cudnn_and_dataparallel(void **state)
{
    (void)state;
    expect_finding("import torch\ntorch.backends.cudnn.benchmark = True\n",
                   NULL, "NPU203", NFY_CAT_CUDA_OP, 2);
    expect_finding("import torch.nn as nn\nm = nn.DataParallel(m)\n", NULL,
                   "NPU306", NFY_CAT_UNSUPPORTED_API, 2);
    expect_finding("from torch.nn import DataParallel as DP\nm = DP(m)\n", NULL,
                   "NPU306", NFY_CAT_UNSUPPORTED_API, 2);
}

/* ---- device
 * ------------------------------------------------------------------ */

static void test_method_and_attr(void **state)
{
    (void)state;
    expect_out("import torch\nm = Net().cuda()\nx = x.cuda(non_blocking=True)\n"
               "if x.is_cuda:\n    pass\n",
               "import torch\nimport torch_npu\nm = Net().npu()\n"
               "x = x.npu(non_blocking=True)\nif x.is_npu:\n    pass\n");
}

static void test_device_strings(void **state)
{
    (void)state;
    expect_out("import torch\n"
               "a = torch.device('cuda')\n"
               "b = torch.device(\"cuda:0\")\n"
               "c = torch.device(f\"cuda:{i}\")\n"
               "d = torch.device(\"cuda:%d\" % i)\n"
               "e = torch.device(\"cuda:{}\".format(i))\n"
               "f = torch.device(\"cuda:\" + str(i))\n"
               "x = torch.zeros(3, device='cuda')\n"
               "s = torch.load(p, map_location='cuda:0')\n"
               "with torch.autocast(device_type='cuda'):\n"
               "    y = x.to('cuda')\n"
               "if x.device.type == 'cuda':\n"
               "    pass\n",
               "import torch\nimport torch_npu\n"
               "a = torch.device('npu')\n"
               "b = torch.device(\"npu:0\")\n"
               "c = torch.device(f\"npu:{i}\")\n"
               "d = torch.device(\"npu:%d\" % i)\n"
               "e = torch.device(\"npu:{}\".format(i))\n"
               "f = torch.device(\"npu:\" + str(i))\n"
               "x = torch.zeros(3, device='npu')\n"
               "s = torch.load(p, map_location='npu:0')\n"
               "with torch.autocast(device_type='npu'):\n"
               "    y = x.to('npu')\n"
               "if x.device.type == 'npu':\n"
               "    pass\n");
}

static void test_fstring_expressions(void **state)
{
    (void)state;
    expect_out("import torch as th\n"
               "d = th.device(f\"cuda:{th.cuda.current_device()}\")\n"
               "print(f\"{cuda.x} {th.cuda.nvtx}\")\n",
               "import torch as th\nimport torch_npu\n"
               "d = th.device(f\"npu:{th.npu.current_device()}\")\n"
               "print(f\"{cuda.x} {th.cuda.nvtx}\")\n");
}

static void test_strings_out_of_context(void **state)
{
    (void)state;
    const char *src = "import torch\n"
                      "print(\"running on cuda\")\n"
                      "name = 'cuda_kernel.cu'\n"
                      "table = {'cuda': 1}\n"
                      "# cuda comment\n";
    result r;
    run(src, NULL, 0, &r);
    assert_non_null(strstr(r.out, "print(\"running on cuda\")"));
    assert_non_null(strstr(r.out, "table = {'cuda': 1}"));
    assert_int_equal(r.nedits, 1); /* the import only */
    assert_int_equal(count_findings(&r, "NPU107", NFY_CAT_LEFT_UNCHANGED, 2),
                     1);
    assert_int_equal(count_findings(&r, "NPU107", NFY_CAT_LEFT_UNCHANGED, 5),
                     1);
    result_release(&r);
}

static void test_device_variable_flow(void **state)
{
    (void)state;
    expect_out("import torch\ndev = 'cuda'\nx = x.to(dev)\n",
               "import torch\nimport torch_npu\ndev = 'npu'\nx = x.to(dev)\n");
    expect_out("import torch\nloc = 'cuda:{}'.format(g)\n"
               "ck = torch.load(p, map_location=loc)\n",
               "import torch\nimport torch_npu\nloc = 'npu:{}'.format(g)\n"
               "ck = torch.load(p, map_location=loc)\n");
    expect_out("import torch\nmsg = 'cuda'\nprint(msg)\n",
               "import torch\nimport torch_npu\nmsg = 'cuda'\nprint(msg)\n");
    expect_out("import torch\n"
               "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n",
               "import torch\nimport torch_npu\n"
               "device = 'npu' if torch.npu.is_available() else 'cpu'\n");
}

static void test_argparse(void **state)
{
    (void)state;
    expect_out("import argparse, torch\n"
               "p.add_argument('--device', default='cuda', "
               "choices=['cuda', 'cpu'], help='cuda or cpu')\n",
               "import argparse, torch\nimport torch_npu\n"
               "p.add_argument('--device', default='npu', "
               "choices=['npu', 'cpu'], help='cuda or cpu')\n");
}

static void test_int_device(void **state)
{
    (void)state;
    expect_out("import torch, os\n"
               "p.add_argument('--local-rank', type=int, default=0)\n"
               "args = p.parse_args()\n"
               "rank = int(os.environ['LOCAL_RANK'])\n"
               "x = x.to(0)\n"
               "y = y.to(args.local_rank)\n"
               "z = torch.zeros(2, device=rank)\n"
               "w = x.cuda(args.local_rank)\n"
               "d = torch.device(rank)\n"
               "e = torch.device('cuda', rank)\n",
               "import torch, os\nimport torch_npu\n"
               "p.add_argument('--local-rank', type=int, default=0)\n"
               "args = p.parse_args()\n"
               "rank = int(os.environ['LOCAL_RANK'])\n"
               "x = x.to(\"npu:0\")\n"
               "y = y.to(f\"npu:{args.local_rank}\")\n"
               "z = torch.zeros(2, device=f\"npu:{rank}\")\n"
               "w = x.npu(args.local_rank)\n"
               "d = torch.device(f\"npu:{rank}\")\n"
               "e = torch.device('npu', rank)\n");
    /* unknown int-looking value: reported, not rewritten */
    result r;
    run("import torch\ny = y.to(args.gpu)\n", NULL, 0, &r);
    assert_non_null(strstr(r.out, "y.to(args.gpu)"));
    assert_int_equal(count_findings(&r, "NPU105", NFY_CAT_UNKNOWN_API, 2), 1);
    result_release(&r);
}

/* ---- distributed
 * --------------------------------------------------------------- */

static void test_nccl(void **state)
{
    (void)state;
    expect_out("import torch.distributed as dist\n"
               "dist.init_process_group('nccl', init_method=u)\n"
               "dist.init_process_group(backend=\"nccl\")\n"
               "ok = dist.is_nccl_available()\n"
               "b = dist.Backend.NCCL\n",
               "import torch.distributed as dist\nimport torch_npu\n"
               "dist.init_process_group('hccl', init_method=u)\n"
               "dist.init_process_group(backend=\"hccl\")\n"
               "ok = dist.is_hccl_available()\n"
               "b = dist.Backend.HCCL\n");
    expect_finding("import torch.distributed as dist\n"
                   "if kind == 'nccl':\n    pass\n",
                   NULL, "NPU308", NFY_CAT_UNSUPPORTED_API, 2);
    expect_out("import torch.distributed as dist\n"
               "if dist.get_backend() == 'nccl':\n    pass\n",
               "import torch.distributed as dist\nimport torch_npu\n"
               "if dist.get_backend() == 'hccl':\n    pass\n");
}

static void test_env_names(void **state)
{
    (void)state;
    expect_out("import os, torch\n"
               "os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
               "v = os.getenv(\"NCCL_SOCKET_IFNAME\")\n"
               "w = os.environ.get('NCCL_DEBUG')\n"
               "print('CUDA_VISIBLE_DEVICES')\n",
               "import os, torch\nimport torch_npu\n"
               "os.environ['ASCEND_RT_VISIBLE_DEVICES'] = '0'\n"
               "v = os.getenv(\"HCCL_SOCKET_IFNAME\")\n"
               "w = os.environ.get('NCCL_DEBUG')\n"
               "print('CUDA_VISIBLE_DEVICES')\n");
}

/* ---- manual findings, AMP, robustness
 * ------------------------------------------- */

static void test_manual_findings(void **state)
{
    (void)state;
    expect_finding("import triton\n", NULL, "NPU505", NFY_CAT_UNSUPPORTED_API,
                   1);
    expect_finding("from torch.utils.cpp_extension import load\n"
                   "m = load(name='k', sources=['k.cpp', 'k.cu'])\n",
                   NULL, "NPU502", NFY_CAT_UNSUPPORTED_API, 2);
    expect_finding("import torch\nc = torch.cuda.get_device_capability()\n",
                   NULL, "NPU508", NFY_CAT_UNSUPPORTED_API, 2);
    expect_finding("import torch\nx = x.double()\n", NULL, "NPU510",
                   NFY_CAT_PRECISION_ADVICE, 2);
}

static size_t count_rule(const nfy_report *rep, const char *rule)
{
    size_t n = 0;
    for (size_t i = 0; i < rep->open_findings.len; i++)
        n += strcmp(rep->open_findings.items[i].rule, rule) == 0;
    return n;
}

static void test_amp_detection(void **state)
{
    (void)state;
    result r;
    run("import torch\nwith torch.autocast('cuda'):\n    pass\n", NULL, 0, &r);
    assert_true(r.info.uses_amp);
    assert_int_equal(r.info.amp_line, 2);
    result_release(&r);
    run("import torch\nx = 1\n", NULL, 0, &r);
    assert_false(r.info.uses_amp);
    assert_true(r.info.uses_torch);

    nfy_rule_set *rs = rules_get();
    nfy_migrate_opts mo = {.rules = rs};
    nfy_migrate_project p;
    nfy_mig_project_init(&p);
    nfy_mig_project_add(&p, "t.py", &r.info);
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_mig_project_finish(&p, &mo, &rep);
    assert_int_equal(count_rule(&rep, "NPU402"), 1);
    assert_int_equal(count_rule(&rep, "NPU607"), 3); /* global advice rows */
    for (size_t i = 0; i < rep.open_findings.len; i++)
        assert_null(rep.open_findings.items[i].file);
    nfy_report_release(&rep);
    /* with AMP somewhere: no project finding */
    nfy_migrate_info amp = r.info;
    amp.uses_amp = true;
    nfy_mig_project_add(&p, "b.py", &amp);
    nfy_report_init(&rep);
    nfy_mig_project_finish(&p, &mo, &rep);
    assert_int_equal(count_rule(&rep, "NPU402"), 0);
    assert_int_equal(count_rule(&rep, "NPU607"), 3);
    nfy_report_release(&rep);
    nfy_mig_project_release(&p);
    /* a project without torch gets no project findings at all */
    nfy_migrate_info none = {0};
    none.scanned = true;
    nfy_mig_project_init(&p);
    nfy_mig_project_add(&p, "x.py", &none);
    nfy_report_init(&rep);
    nfy_mig_project_finish(&p, &mo, &rep);
    assert_int_equal(rep.open_findings.len, 0);
    nfy_report_release(&rep);
    nfy_mig_project_release(&p);
    nfy_rule_set_free(rs);
    result_release(&r);
}

static void test_amp_insert(void **state)
{
    (void)state;
    const char *src = "import torch\n"
                      "def step(m, opt, x):\n"
                      "    out = m(x)\n"
                      "    loss = out.sum()\n"
                      "    loss.backward()\n"
                      "    opt.step()\n";
    result r;
    run(src, NULL, NFY_MIGRATE_AMP, &r);
    assert_string_equal(r.out, "import torch\nimport torch_npu\n"
                               "amp_scaler = torch.npu.amp.GradScaler()\n"
                               "def step(m, opt, x):\n"
                               "    with torch.autocast(device_type=\"npu\"):\n"
                               "        out = m(x)\n"
                               "        loss = out.sum()\n"
                               "    amp_scaler.scale(loss).backward()\n"
                               "    amp_scaler.step(opt)\n"
                               "    amp_scaler.update()\n");
    result again;
    run(r.out, NULL, NFY_MIGRATE_AMP, &again);
    assert_int_equal(again.nedits, 0);
    result_release(&again);
    result_release(&r);
    /* without --amp, or with AMP already there: untouched */
    run(src, NULL, 0, &r);
    assert_null(strstr(r.out, "autocast"));
    result_release(&r);
}

static void test_syntax_error_no_edits(void **state)
{
    (void)state;
    result r;
    run("import torch\nx = x.cuda(\ndef f(:\n", NULL, 0, &r);
    assert_true(r.info.syntax_error);
    assert_int_equal(r.nedits, 0);
    result_release(&r);
}

static void test_auto_mode(void **state)
{
    (void)state;
    result r;
    run("import torch\nx = x.cuda()\nif __name__ == '__main__':\n    main()\n",
        NULL, NFY_MIGRATE_AUTO, &r);
    assert_string_equal(
        r.out, "import torch\nimport torch_npu\n"
               "from torch_npu.contrib import transfer_to_npu\n"
               "x = x.cuda()\nif __name__ == '__main__':\n    main()\n");
    result_release(&r);
    run("import torch\nx = x.cuda()\n", NULL, NFY_MIGRATE_AUTO, &r);
    assert_int_equal(r.nedits, 0);
    result_release(&r);
    /* an entry script without torch: after the docstring and __future__ */
    run("\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nfrom lib import "
        "run\n"
        "if __name__ == '__main__':\n    run()\n",
        NULL, NFY_MIGRATE_AUTO, &r);
    assert_string_equal(r.out,
                        "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n"
                        "import torch_npu\n"
                        "from torch_npu.contrib import transfer_to_npu\n"
                        "from lib import run\n"
                        "if __name__ == '__main__':\n    run()\n");
    result_release(&r);
}

static void test_bad_version(void **state)
{
    (void)state;
    nfy_rule_set *rs = rules_get();
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "t.py", "x\n", 2), NFY_OK);
    nfy_migrate_opts mo = {.rules = rs, .torch_version = "banana"};
    nfy_edit_set es;
    nfy_edit_set_init(&es, &src);
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_mig_file(&mo, &src, "t.py", &es, NULL, NULL, &d),
                     NFY_EUSAGE);
    assert_true(nfy_diags_count(&d, NFY_SEV_ERROR) >= 1);
    nfy_diags_release(&d);
    nfy_edit_set_release(&es);
    nfy_source_release(&src);
    nfy_rule_set_free(rs);
}

/* ---- user classes with their own cuda(), self.torch, prefix tests ---- */

static void test_member_alias(void **state)
{
    (void)state;
    expect_out("import torch\n"
               "class B:\n"
               "    def cuda(self, d=None):\n"
               "        return B(self.t.cuda(d))\n"
               "\n"
               "    @property\n"
               "    def is_cuda(self):\n"
               "        return True\n"
               "class C(B):\n"
               "    def cuda(self): return super().cuda()\n"
               "b = B().cuda()\n",
               "import torch\n"
               "import torch_npu\n"
               "class B:\n"
               "    def cuda(self, d=None):\n"
               "        return B(self.t.npu(d))\n"
               "    npu = cuda\n"
               "\n"
               "    @property\n"
               "    def is_cuda(self):\n"
               "        return True\n"
               "    is_npu = is_cuda\n"
               "class C(B):\n"
               "    def cuda(self): return super().npu()\n"
               "    npu = cuda\n"
               "b = B().npu()\n");
    /* a class with its own npu, a function named cuda, no final newline */
    expect_out("class D:\n"
               "    def cuda(self):\n"
               "        return 1\n"
               "    def npu(self):\n"
               "        return 2\n"
               "def cuda(x):\n"
               "    return x\n"
               "class E:\n"
               "    def cuda(self):\n"
               "        return 3",
               "class D:\n"
               "    def cuda(self):\n"
               "        return 1\n"
               "    def npu(self):\n"
               "        return 2\n"
               "def cuda(x):\n"
               "    return x\n"
               "class E:\n"
               "    def cuda(self):\n"
               "        return 3\n"
               "    npu = cuda");
    /* class attributes: a literal is no method, a name may be one; an
     * attribute rule (is_cuda) renames every access */
    expect_out("class F:\n"
               "    cuda = \"x\"\n"
               "    is_cuda = False\n"
               "class G:\n"
               "    cuda = _to_cuda  # shared helper\n"
               "    x = 1\n",
               "class F:\n"
               "    cuda = \"x\"\n"
               "    is_cuda = False\n"
               "    is_npu = is_cuda\n"
               "class G:\n"
               "    cuda = _to_cuda  # shared helper\n"
               "    npu = cuda\n"
               "    x = 1\n");
    expect_finding("class B:\n    def cuda(self):\n        pass\n", NULL,
                   "NPU111", NFY_CAT_CHANGE, 0);
    /* --mode auto edits nothing but imports */
    result r;
    run("import torch\nclass B:\n    def cuda(self):\n        pass\n", NULL,
        NFY_MIGRATE_AUTO, &r);
    assert_null(strstr(r.out, "npu = cuda"));
    result_release(&r);
}

static void test_self_module_attr(void **state)
{
    (void)state;
    expect_out("class T:\n"
               "    def __init__(self):\n"
               "        import torch\n"
               "        self.torch = torch\n"
               "        self.amp = torch.cuda.amp\n"
               "    def go(self):\n"
               "        self.torch.cuda.synchronize()\n"
               "        with self.amp.autocast():\n"
               "            pass\n",
               "class T:\n"
               "    def __init__(self):\n"
               "        import torch\n"
               "        import torch_npu\n"
               "        self.torch = torch\n"
               "        self.amp = torch.npu.amp\n"
               "    def go(self):\n"
               "        self.torch.npu.synchronize()\n"
               "        with self.amp.autocast():\n"
               "            pass\n");
    /* a rename of the module itself cannot be spelled through self.p */
    expect_finding("import torch\n"
                   "class T:\n"
                   "    def __init__(self):\n"
                   "        self.p = torch.profiler\n"
                   "    def go(self):\n"
                   "        self.p.profile()\n",
                   NULL, "NPU205", NFY_CAT_UNSUPPORTED_API, 6);
}

/* String literals that meet one name are rewritten together or not at
 * all; report.json names the set of each. */
static void test_value_sets(void **state)
{
    (void)state;
    const char *dev = "import torch\n"
                      "def f(x, accel=\"cuda\"):\n"
                      "    assert accel in (\"cpu\", \"cuda\")\n"
                      "    return x.to(torch.device(accel))\n"
                      "f(1, accel=\"cuda\")\n";
    expect_out(dev, "import torch\nimport torch_npu\n"
                    "def f(x, accel=\"npu\"):\n"
                    "    assert accel in (\"cpu\", \"npu\")\n"
                    "    return x.to(torch.device(accel))\n"
                    "f(1, accel=\"npu\")\n");
    result r;
    run(dev, NULL, 0, &r);
    size_t tagged = 0;
    for (size_t i = 0; i < r.rep.open_findings.len; i++) {
        const nfy_finding *f = &r.rep.open_findings.items[i];
        if (strcmp(f->rule, "NPU103") == 0) {
            assert_non_null(f->value_set_id);
            assert_string_equal(f->value_set_id, "vs2.15");
            assert_string_equal(f->value_set, "accel");
            tagged++;
        }
    }
    assert_int_equal(tagged, 3);
    result_release(&r);
    /* a kernel selector: no member rewritten, one finding */
    const char *impl = "import torch\n"
                       "def g(x, impl=\"cuda\"):\n"
                       "    assert impl in [\"ref\", \"cuda\"]\n"
                       "    if impl == \"cuda\":\n"
                       "        return x.to(\"cuda\")\n"
                       "    return x\n";
    expect_out(impl, "import torch\nimport torch_npu\n"
                     "def g(x, impl=\"cuda\"):\n"
                     "    assert impl in [\"ref\", \"cuda\"]\n"
                     "    if impl == \"cuda\":\n"
                     "        return x.to(\"npu\")\n"
                     "    return x\n");
    run(impl, NULL, 0, &r);
    assert_int_equal(count_findings(&r, "NPU112", NFY_CAT_UNSUPPORTED_API, 0),
                     1);
    assert_int_equal(count_findings(&r, "NPU112", NFY_CAT_UNSUPPORTED_API, 2),
                     1);
    result_release(&r);
}

/* A device test whose branch reaches CUDA-only code stays; one that guards
 * device-generic code is rewritten. */
static void test_cuda_guards(void **state)
{
    (void)state;
    const char *src = "import torch\nimport cupy\n"
                      "def k(x):\n"
                      "    if x.is_cuda:\n"
                      "        return cupy.asarray(x)\n"
                      "    return x.numpy()\n"
                      "def p(x):\n"
                      "    return x.pin_memory() if x.device.type == \"cuda\" "
                      "else x\n";
    expect_out(src, "import torch\nimport torch_npu\nimport cupy\n"
                    "def k(x):\n"
                    "    if x.is_cuda:\n"
                    "        return cupy.asarray(x)\n"
                    "    return x.numpy()\n"
                    "def p(x):\n"
                    "    return x.pin_memory() if x.device.type == \"npu\" "
                    "else x\n");
    expect_finding(src, NULL, "NPU113", NFY_CAT_UNSUPPORTED_API, 4);
}

static void test_device_prefix(void **state)
{
    (void)state;
    expect_out("import torch\n"
               "def f(args, name, dev):\n"
               "    a = args.device.startswith('cuda:')\n"
               "    b = str(dev).startswith(\"cuda\")\n"
               "    c = name.startswith('cuda')\n"
               "    self.map_location = 'cuda' if a else 'cpu'\n",
               "import torch\n"
               "import torch_npu\n"
               "def f(args, name, dev):\n"
               "    a = args.device.startswith('npu:')\n"
               "    b = str(dev).startswith(\"cuda\")\n"
               "    c = name.startswith('cuda')\n"
               "    self.map_location = 'npu' if a else 'cpu'\n");
    /* members of a compared display; a call's tuple argument is not one */
    expect_out("def f(d, g):\n"
               "    a = d.type in {'cuda', 'mps'}\n"
               "    b = d not in ('cpu', 'cuda:0')\n"
               "    c = g(('cuda', 1)) in d\n",
               "def f(d, g):\n"
               "    a = d.type in {'npu', 'mps'}\n"
               "    b = d not in ('cpu', 'npu:0')\n"
               "    c = g(('cuda', 1)) in d\n");
    /* a literal in one branch reaches the device through the variable */
    expect_out("import torch\n"
               "def sel(cpu):\n"
               "    if cpu:\n"
               "        arg = 'cpu'\n"
               "    else:\n"
               "        arg = 'cuda:0'\n"
               "    return torch.device(arg)\n"
               "def other():\n"
               "    arg = 'cuda'\n"
               "    return arg\n",
               "import torch\n"
               "import torch_npu\n"
               "def sel(cpu):\n"
               "    if cpu:\n"
               "        arg = 'cpu'\n"
               "    else:\n"
               "        arg = 'npu:0'\n"
               "    return torch.device(arg)\n"
               "def other():\n"
               "    arg = 'cuda'\n"
               "    return arg\n");
}

/* The registry's built/preview column says what the library runs. */
static void test_pass_states(void **state)
{
    (void)state;
    for (int id = 0; id < NFY_PASS_COUNT; id++) {
        const nfy_pass_info *p = nfy_rules_pass_info_of((nfy_pass_id)id);
        assert_non_null(p);
        if (nfy_mig_runs_pass((nfy_pass_id)id) != (p->state == NFY_PASS_BUILT))
            fail_msg("pass %s: marked %s", p->name,
                     p->state == NFY_PASS_BUILT ? "built, not run"
                                                : "preview, but run");
    }
}

/* The tree's own modules: each file from every directory that may be an
 * import root (not inside a regular package), __init__.py as its package,
 * a directory without __init__.py no module; other files add nothing. */
static void test_project_modules(void **state)
{
    (void)state;
    nfy_migrate_modules m;
    nfy_mig_modules_init(&m);
    static const char *const paths[] = {
        "mmcv/ops/__init__.py", "mmcv/__init__.py",  "mmcv/testing.py",
        "src/tools/train.py",   "bench/te/ddp.py",   "README.md",
        "csrc/cuda/kernel.cu",  "utils/__init__.py", "utils/te.py"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        nfy_mig_modules_add(&m, paths[i]);
    nfy_mig_modules_finish(&m);
    static const char *const dirs[] = {"mmcv", "mmcv.ops", "utils"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        const nfy_migrate_module *x =
            nfy_mig_module_find(&m, nfy_str_from_cstr(dirs[i]));
        assert_non_null(x);
        assert_false(x->file);
    }
    static const char *const files[] = {
        "mmcv.testing", "src.tools.train", "tools.train", "train",
        "bench.te.ddp", "te.ddp",          "ddp",         "utils.te"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const nfy_migrate_module *x =
            nfy_mig_module_find(&m, nfy_str_from_cstr(files[i]));
        assert_non_null(x);
        assert_true(x->file);
    }
    /* "te": bench/te/ has no __init__.py, utils/ is a package */
    static const char *const absent[] = {
        "ops",      "testing", "mmcv.ops.__init__",
        "__init__", "README",  "cuda",
        "csrc",     "te",      "tools",
        "src",      "bench",   "mmcv.fused_cuda",
        "mmcv.op",  ""};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
        assert_null(nfy_mig_module_find(&m, nfy_str_from_cstr(absent[i])));
    for (size_t i = 1; i < m.items.len; i++) /* each name once */
        assert_true(strcmp(m.items.items[i - 1].name, m.items.items[i].name) <
                    0);
    assert_null(nfy_mig_module_find(NULL, NFY_STR_LIT("mmcv")));
    nfy_mig_modules_release(&m);
    nfy_mig_modules_init(&m); /* a tree without Python */
    nfy_mig_modules_add(&m, "README.md");
    nfy_mig_modules_finish(&m);
    assert_null(nfy_mig_module_find(&m, NFY_STR_LIT("README")));
    nfy_mig_modules_release(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_import_position),
        cmocka_unit_test(test_remove_amp_c),
        cmocka_unit_test(test_import_renames),
        cmocka_unit_test(test_alias_rename),
        cmocka_unit_test(test_local_cuda_not_module),
        cmocka_unit_test(test_apidb_by_version),
        cmocka_unit_test(test_profiler),
        cmocka_unit_test(test_cudnn_and_dataparallel),
        cmocka_unit_test(test_method_and_attr),
        cmocka_unit_test(test_device_strings),
        cmocka_unit_test(test_fstring_expressions),
        cmocka_unit_test(test_strings_out_of_context),
        cmocka_unit_test(test_device_variable_flow),
        cmocka_unit_test(test_argparse),
        cmocka_unit_test(test_int_device),
        cmocka_unit_test(test_nccl),
        cmocka_unit_test(test_env_names),
        cmocka_unit_test(test_manual_findings),
        cmocka_unit_test(test_amp_detection),
        cmocka_unit_test(test_amp_insert),
        cmocka_unit_test(test_syntax_error_no_edits),
        cmocka_unit_test(test_auto_mode),
        cmocka_unit_test(test_bad_version),
        cmocka_unit_test(test_member_alias),
        cmocka_unit_test(test_self_module_attr),
        cmocka_unit_test(test_device_prefix),
        cmocka_unit_test(test_pass_states),
        cmocka_unit_test(test_value_sets),
        cmocka_unit_test(test_cuda_guards),
        cmocka_unit_test(test_project_modules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
