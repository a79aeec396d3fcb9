/*
 * Unit tests for resolve: qualified names through every import form and
 * Python's scope rules (shadowing by assignment, parameter, for/with
 * targets, global, class bodies, function-local imports, try/except
 * ImportError fallbacks, dotted aliases, module-valued self attributes).
 */
/* cmocka needs these headers first. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
/* clang-format on */

#include "pysyn/pysyn.h"
#include "resolve/resolve.h"

typedef struct {
    nfy_source src;
    nfy_tokens toks;
    nfy_arena arena;
    nfy_pysyn *m;
    nfy_resolution *r;
} fixture;

static void setup_text(fixture *f, const char *text)
{
    memset(f, 0, sizeof *f);
    assert_int_equal(nfy_source_from_mem(&f->src, "t.py", text, strlen(text)),
                     NFY_OK);
    nfy_lex_tokens_init(&f->toks);
    nfy_arena_init(&f->arena);
    assert_int_equal(nfy_lex_lex(&f->src, &f->toks, NULL), NFY_OK);
    assert_int_equal(nfy_pysyn_parse(&f->src, &f->toks, &f->arena, NULL, &f->m),
                     NFY_OK);
    assert_int_equal(nfy_resolve_resolve(f->m, &f->arena, &f->r), NFY_OK);
}

static void teardown_fx(fixture *f)
{
    nfy_arena_release(&f->arena);
    nfy_lex_tokens_release(&f->toks);
    nfy_source_release(&f->src);
}

/* The name use whose chain text is `chain`, nth occurrence (0-based). */
static uint32_t use_of(const fixture *f, const char *chain, int nth)
{
    nfy_arena a;
    nfy_arena_init(&a);
    uint32_t found = NFY_NONE;
    for (uint32_t u = 0; u < f->m->nuses && found == NFY_NONE; u++) {
        nfy_str s = nfy_pysyn_dotted(f->m, &a, &f->m->uses[u], 0);
        if (nfy_str_eq_cstr(s, chain) && nth-- == 0)
            found = u;
    }
    nfy_arena_release(&a);
    return found;
}

static void expect_qual(const char *text, const char *chain, int nth,
                        const char *qual, int head)
{
    fixture f;
    setup_text(&f, text);
    uint32_t u = use_of(&f, chain, nth);
    if (u == NFY_NONE)
        fail_msg("no use '%s' #%d in:\n%s", chain, nth, text);
    const nfy_res *r = nfy_resolve_use(f.r, u);
    if (!nfy_str_eq_cstr(r->qual, qual))
        fail_msg("'%s' resolved to '%.*s' (%s), expected '%s'", chain,
                 NFY_STR_FMT(r->qual), nfy_resolve_kind_name(r->kind), qual);
    if (head >= 0)
        assert_int_equal(r->head_parts, head);
    teardown_fx(&f);
}

static void expect_kind(const char *text, const char *chain, int nth,
                        nfy_res_kind kind)
{
    fixture f;
    setup_text(&f, text);
    uint32_t u = use_of(&f, chain, nth);
    if (u == NFY_NONE)
        fail_msg("no use '%s' #%d", chain, nth);
    const nfy_res *r = nfy_resolve_use(f.r, u);
    if (r->kind != kind)
        fail_msg("'%s' is %s ('%.*s'), expected %s", chain,
                 nfy_resolve_kind_name(r->kind), NFY_STR_FMT(r->qual),
                 nfy_resolve_kind_name(kind));
    teardown_fx(&f);
}

static void test_import_as(void **state)
{
    (void)state;
    expect_qual("import torch as th\nth.cuda.synchronize()\n",
                "th.cuda.synchronize", 0, "torch.cuda.synchronize", 1);
}

static void test_import_dotted(void **state)
{
    (void)state;
    expect_qual("import torch.cuda\ntorch.cuda.synchronize()\n",
                "torch.cuda.synchronize", 0, "torch.cuda.synchronize", 1);
}

static void test_from_import_module(void **state)
{
    (void)state;
    expect_qual("from torch import cuda\ncuda.synchronize()\n",
                "cuda.synchronize", 0, "torch.cuda.synchronize", 2);
    expect_qual("from torch.cuda import amp as A\nA.autocast()\n", "A.autocast",
                0, "torch.cuda.amp.autocast", 3);
    expect_qual("from torch.cuda.amp import autocast, GradScaler\n"
                "s = GradScaler()\n",
                "GradScaler", 0, "torch.cuda.amp.GradScaler", 4);
}

static void test_aliases_of_classes(void **state)
{
    (void)state;
    expect_qual("import torch.distributed as dist\n"
                "dist.init_process_group('nccl')\n",
                "dist.init_process_group", 0,
                "torch.distributed.init_process_group", 2);
    expect_qual("from torch.nn import DataParallel as DP\nm = DP(m)\n", "DP", 0,
                "torch.nn.DataParallel", 3);
    expect_qual("from torch.nn.parallel import DistributedDataParallel as DDP\n"
                "m = DDP(m)\n",
                "DDP", 0, "torch.nn.parallel.DistributedDataParallel", 4);
}

static void test_function_local_import(void **state)
{
    (void)state;
    const char *src = "def f():\n"
                      "    import torch.cuda as tc\n"
                      "    tc.synchronize()\n"
                      "tc.synchronize()\n";
    expect_qual(src, "tc.synchronize", 0, "torch.cuda.synchronize", 2);
    expect_kind(src, "tc.synchronize", 1, NFY_RES_UNBOUND);
}

static void test_try_import_error(void **state)
{
    (void)state;
    expect_qual("try:\n"
                "    from apex import amp\n"
                "except ImportError:\n"
                "    amp = None\n"
                "amp.initialize(m, o)\n",
                "amp.initialize", 0, "apex.amp.initialize", 2);
}

static void test_shadowing(void **state)
{
    (void)state;
    /* assignment after the import hides it */
    expect_kind("import torch\ntorch = load()\ntorch.cuda.x()\n",
                "torch.cuda.x", 0, NFY_RES_LOCAL);
    /* but a use before the assignment still sees the import */
    expect_qual("import torch\ntorch.cuda.x()\ntorch = load()\n",
                "torch.cuda.x", 0, "torch.cuda.x", 1);
    /* parameter */
    expect_kind("import torch\ndef f(torch):\n    torch.cuda.x()\n",
                "torch.cuda.x", 0, NFY_RES_LOCAL);
    /* for target and with target */
    expect_kind("import torch\nfor torch in xs:\n    torch.cuda.x()\n",
                "torch.cuda.x", 0, NFY_RES_LOCAL);
    expect_kind("import torch\nwith open(p) as torch:\n    torch.cuda.x()\n",
                "torch.cuda.x", 0, NFY_RES_LOCAL);
}

static void test_local_named_cuda(void **state)
{
    (void)state;
    const char *src = "import torch\n"
                      "def f(cuda):\n"
                      "    cuda.synchronize()\n"
                      "def g():\n"
                      "    cuda = object()\n"
                      "    cuda.synchronize()\n";
    expect_kind(src, "cuda.synchronize", 0, NFY_RES_LOCAL);
    expect_kind(src, "cuda.synchronize", 1, NFY_RES_LOCAL);
}

static void test_global(void **state)
{
    (void)state;
    /* global sends the lookup to the module, past a local binding */
    expect_qual("import torch\n"
                "def f():\n"
                "    global torch\n"
                "    torch.cuda.x()\n",
                "torch.cuda.x", 0, "torch.cuda.x", 1);
    /* a name made global inside a function is bound at module level */
    expect_qual("def setup():\n"
                "    global cuda\n"
                "    from torch import cuda\n"
                "def g():\n"
                "    cuda.synchronize()\n",
                "cuda.synchronize", 0, "torch.cuda.synchronize", 2);
}

static void test_class_scope_invisible(void **state)
{
    (void)state;
    expect_qual("import torch\n"
                "class A:\n"
                "    torch = None\n"
                "    def f(self):\n"
                "        return torch.cuda.x()\n",
                "torch.cuda.x", 0, "torch.cuda.x", 1);
}

static void test_unknown_receiver(void **state)
{
    (void)state;
    const char *src = "import torch\nmodel = Net()\nmodel.cuda()\n";
    expect_kind(src, "model.cuda", 0, NFY_RES_LOCAL);
    expect_kind("x.cuda()\n", "x.cuda", 0, NFY_RES_UNBOUND);
}

static void test_dotted_alias(void **state)
{
    (void)state;
    expect_qual("import torch\nc = torch.cuda\nc.synchronize()\n",
                "c.synchronize", 0, "torch.cuda.synchronize", 2);
    expect_kind("import torch\nc = torch.cuda\nc.synchronize()\n",
                "c.synchronize", 0, NFY_RES_ALIAS);
}

static void test_prefix_and_helpers(void **state)
{
    (void)state;
    fixture f;
    setup_text(&f, "from torch import cuda\ncuda.amp.autocast()\n"
                   "import os\nx = os.environ\n");
    uint32_t u = use_of(&f, "cuda.amp.autocast", 0);
    assert_int_not_equal(u, NFY_NONE);
    assert_true(nfy_str_eq_cstr(nfy_resolve_prefix(f.r, u, 1), "torch.cuda"));
    assert_true(
        nfy_str_eq_cstr(nfy_resolve_prefix(f.r, u, 2), "torch.cuda.amp"));
    assert_true(nfy_resolve_imports_module(f.r, "torch"));
    assert_true(nfy_resolve_imports_module(f.r, "torch.cuda"));
    assert_false(nfy_resolve_imports_module(f.r, "torch.nn"));
    assert_false(nfy_resolve_imports_module(f.r, "tor"));
    teardown_fx(&f);
    assert_int_equal(nfy_resolve_dotted_count(NFY_STR_LIT("a.b.c")), 3);
    assert_int_equal(nfy_resolve_dotted_count(NFY_STR_LIT("")), 0);
    assert_true(nfy_str_eq_cstr(
        nfy_resolve_dotted_head(NFY_STR_LIT("a.b.c"), 2), "a.b"));
}

static void test_more_scopes(void **state)
{
    (void)state;
    /* lambda and comprehension variables shadow, and only inside */
    const char *src = "import torch\n"
                      "f = lambda torch: torch.cuda.x()\n"
                      "ys = [torch.cuda.y() for torch in xs]\n"
                      "torch.cuda.z()\n";
    expect_kind(src, "torch.cuda.x", 0, NFY_RES_LOCAL);
    expect_kind(src, "torch.cuda.y", 0, NFY_RES_LOCAL);
    expect_qual(src, "torch.cuda.z", 0, "torch.cuda.z", 1);
    /* except ... as and nonlocal */
    expect_kind("import torch\n"
                "try:\n    pass\nexcept Exception as torch:\n"
                "    torch.cuda.x()\n",
                "torch.cuda.x", 0, NFY_RES_LOCAL);
    expect_qual("def outer():\n"
                "    import torch.cuda as tc\n"
                "    def inner():\n"
                "        nonlocal tc\n"
                "        tc.synchronize()\n",
                "tc.synchronize", 0, "torch.cuda.synchronize", 2);
    /* an import inside an if/else picks the one in effect */
    expect_qual("if new:\n    import torch.npu as dev\n"
                "else:\n    import torch.cuda as dev\n"
                "dev.synchronize()\n",
                "dev.synchronize", 0, "torch.cuda.synchronize", 2);
}

static void test_relative_import(void **state)
{
    (void)state;
    fixture f;
    setup_text(&f, "from . import cuda\ncuda.x()\n");
    uint32_t u = use_of(&f, "cuda.x", 0);
    assert_int_not_equal(u, NFY_NONE);
    const nfy_res *r = nfy_resolve_use(f.r, u);
    assert_true(r->relative);
    assert_int_not_equal(r->qual.len, 0);
    assert_int_equal(r->qual.ptr[0], '.');
    teardown_fx(&f);
}

/* Module-valued instance attributes: self.torch = torch in a method. */
static void test_self_module_attr(void **state)
{
    (void)state;
    const char *cls = "class T:\n"
                      "    def __init__(self):\n"
                      "        import torch\n"
                      "        self.torch = torch\n"
                      "        self.amp = torch.cuda.amp\n"
                      "        self.x = None\n"
                      "    def go(self):\n"
                      "        self.torch.cuda.empty_cache()\n"
                      "        self.amp.autocast()\n"
                      "        def inner():\n"
                      "            return self.torch.cuda.synchronize()\n"
                      "    @staticmethod\n"
                      "    def st(self):\n"
                      "        self.torch.cuda.x()\n"
                      "class U:\n"
                      "    def go(self):\n"
                      "        self.torch.cuda.y()\n";
    /* head_parts: the attribute name is the last component of its value */
    expect_qual(cls, "self.torch.cuda.empty_cache", 0, "torch.cuda.empty_cache",
                0);
    expect_qual(cls, "self.amp.autocast", 0, "torch.cuda.amp.autocast", 2);
    expect_qual(cls, "self.torch.cuda.synchronize", 0, "torch.cuda.synchronize",
                0);
    expect_kind(cls, "self.torch.cuda.empty_cache", 0, NFY_RES_ALIAS);
    /* a static method's first parameter is no instance; another class */
    expect_kind(cls, "self.torch.cuda.x", 0, NFY_RES_LOCAL);
    expect_kind(cls, "self.torch.cuda.y", 0, NFY_RES_LOCAL);
    /* self alone names no qualified thing */
    fixture f;
    setup_text(&f, cls);
    uint32_t u = use_of(&f, "self.amp.autocast", 0);
    assert_int_not_equal(u, NFY_NONE);
    assert_int_equal(nfy_resolve_prefix(f.r, u, 1).len, 0);
    assert_true(
        nfy_str_eq_cstr(nfy_resolve_prefix(f.r, u, 2), "torch.cuda.amp"));
    teardown_fx(&f);
}

static void test_self_attr_conflict(void **state)
{
    (void)state;
    /* assigned something else too: unknown */
    expect_kind("import torch\n"
                "class T:\n"
                "    def a(self):\n"
                "        self.m = torch\n"
                "    def b(self, k):\n"
                "        self.m = k\n"
                "    def c(self):\n"
                "        self.m.cuda.x()\n",
                "self.m.cuda.x", 0, NFY_RES_LOCAL);
    /* two different modules */
    expect_kind("import torch, numpy\n"
                "class T:\n"
                "    def a(self):\n"
                "        self.m = torch\n"
                "    def b(self):\n"
                "        self.m = numpy\n"
                "    def c(self):\n"
                "        self.m.cuda.x()\n",
                "self.m.cuda.x", 0, NFY_RES_LOCAL);
    /* tuple target */
    expect_kind("import torch\n"
                "class T:\n"
                "    def a(self):\n"
                "        self.m = torch\n"
                "        self.m, self.n = 1, 2\n"
                "    def c(self):\n"
                "        self.m.cuda.x()\n",
                "self.m.cuda.x", 0, NFY_RES_LOCAL);
    /* the same module twice, and None, stay an alias */
    expect_qual("import torch\n"
                "class T:\n"
                "    def a(self):\n"
                "        self.m = None\n"
                "        self.m = torch\n"
                "    def b(self):\n"
                "        self.m = torch\n"
                "    def c(self):\n"
                "        self.m.cuda.x()\n",
                "self.m.cuda.x", 0, "torch.cuda.x", 0);
}

/* The same-name lists: every binding of a name in its scope, in token
 * order, whatever order pysyn made them in; other scopes apart. */
static void test_same_name(void **state)
{
    (void)state;
    fixture f;
    setup_text(&f, "x = 1\n"
                   "def g(x):\n"
                   "    x = [x for x in x]\n"
                   "    return x\n"
                   "for x in y:\n"
                   "    pass\n"
                   "x = 2\n"
                   "y = 3\n");
    uint32_t seen = 0;
    for (uint32_t b = 0; b < f.m->nbindings; b++) {
        const nfy_binding *bd = &f.m->bindings[b];
        uint32_t n = 0;
        const uint32_t *same = nfy_resolve_same_name(f.r, b, &n);
        bool self = false;
        for (uint32_t k = 0; k < n; k++) {
            const nfy_binding *o = &f.m->bindings[same[k]];
            assert_int_equal(o->scope, bd->scope);
            assert_true(nfy_str_eq(nfy_pysyn_tok_text(f.m, o->tok),
                                   nfy_pysyn_tok_text(f.m, bd->tok)));
            if (k > 0)
                assert_true(f.m->bindings[same[k - 1]].tok < o->tok ||
                            (f.m->bindings[same[k - 1]].tok == o->tok &&
                             same[k - 1] < same[k]));
            self |= same[k] == b;
        }
        assert_true(self);
        uint32_t count = 0; /* as many as a plain scan finds */
        for (uint32_t o = 0; o < f.m->nbindings; o++)
            count += f.m->bindings[o].scope == bd->scope &&
                     nfy_str_eq(nfy_pysyn_tok_text(f.m, f.m->bindings[o].tok),
                                nfy_pysyn_tok_text(f.m, bd->tok));
        assert_int_equal(n, count);
        if (bd->scope == 0 && nfy_pysyn_tok_is(f.m, bd->tok, "x"))
            seen = n;
    }
    assert_int_equal(seen, 3); /* x = 1, for x, x = 2 */
    teardown_fx(&f);
}

/* Many names in many scopes (the tables grow past their first size), and
 * a module name shadowed late: the last binding before a use wins. */
/* Many `global` declarations of one name, each over many bindings of it:
 * the module-level candidates are listed once, not once a declaration
 * (fuzz_migrate found the list written past its end). */
static void test_global_declared_many_times(void **state)
{
    (void)state;
    char text[16384];
    size_t at = 0;
    at += (size_t)snprintf(text + at, sizeof text - at, "def f():\n");
    for (int i = 0; i < 60; i++)
        at +=
            (size_t)snprintf(text + at, sizeof text - at, "    global x, x\n");
    for (int i = 0; i < 60; i++)
        at += (size_t)snprintf(text + at, sizeof text - at,
                               "    from torch import cuda as x\n");
    at += (size_t)snprintf(text + at, sizeof text - at,
                           "def g():\n    x.synchronize()\n");
    assert_true(at < sizeof text);
    expect_qual(text, "x.synchronize", 0, "torch.cuda.synchronize", 2);
}

static void test_many_names(void **state)
{
    (void)state;
    char text[16384];
    size_t at = 0;
    at += (size_t)snprintf(text + at, sizeof text - at, "import torch as t0\n");
    for (int i = 0; i < 200; i++)
        at += (size_t)snprintf(text + at, sizeof text - at,
                               "def f%d(a%d):\n    v%d = a%d\n    return "
                               "t0.cuda.x%d(v%d)\n",
                               i, i, i, i, i, i);
    at += (size_t)snprintf(text + at, sizeof text - at, "t0 = None\nt0.z()\n");
    assert_true(at < sizeof text);
    expect_qual(text, "t0.cuda.x0", 0, "torch.cuda.x0", 1);
    expect_qual(text, "t0.cuda.x199", 0, "torch.cuda.x199", 1);
    expect_qual(text, "t0.z", 0, "torch.z", 1); /* `= None` hides no import */
    expect_kind(text, "v57", 0, NFY_RES_LOCAL);
}

/* Bindings in any creation order resolve alike: the same file with its
 * bindings reversed (every reference renumbered) gives the same answers. */
static void test_binding_order(void **state)
{
    (void)state;
    fixture f;
    setup_text(&f, "import torch\n"
                   "x = (x := torch.cuda)\n"
                   "x.synchronize()\n"
                   "def g(a, x=x):\n"
                   "    y = (y := torch)\n"
                   "    return y.cuda, x.current_device, a\n"
                   "class C:\n"
                   "    t = torch\n"
                   "    def m(self):\n"
                   "        self.t = torch\n"
                   "        return self.t.cuda.is_available()\n");
    const nfy_pysyn *m0 = f.m;
    uint32_t nb = m0->nbindings;
    nfy_resolution *r0 = f.r;
#define COPY(arr, n)                                                           \
    memcpy(nfy_arena_alloc(&f.arena, (n) * sizeof *m0->arr + 1), m0->arr,      \
           (n) * sizeof *m0->arr)
    nfy_binding *bind = COPY(bindings, nb);
    nfy_name_use *uses = COPY(uses, m0->nuses);
    nfy_import_name *names = COPY(import_names, m0->nimport_names);
    nfy_strlit *strs = COPY(strings, m0->nstrings);
#undef COPY
#define FLIP(x) ((x) = (x) == NFY_NONE ? NFY_NONE : nb - 1 - (x))
    for (uint32_t b = 0; b < nb; b++)
        bind[b] = m0->bindings[nb - 1 - b];
    for (uint32_t u = 0; u < m0->nuses; u++)
        FLIP(uses[u].binding);
    for (uint32_t i = 0; i < m0->nimport_names; i++)
        FLIP(names[i].binding);
    for (uint32_t i = 0; i < m0->nstrings; i++)
        FLIP(strs[i].binding);
    nfy_pysyn copy = *m0, *m = &copy;
    copy.bindings = bind;
    copy.uses = uses;
    copy.import_names = names;
    copy.strings = strs;
    nfy_resolution *r1 = NULL;
    assert_int_equal(nfy_resolve_resolve(m, &f.arena, &r1), NFY_OK);
    for (uint32_t u = 0; u < m->nuses; u++) {
        const nfy_res *a = nfy_resolve_use(r0, u), *b = nfy_resolve_use(r1, u);
        uint32_t want = a->binding;
        FLIP(want);
        assert_int_equal(a->kind, b->kind);
        assert_int_equal(a->head_parts, b->head_parts);
        assert_int_equal(want, b->binding);
        assert_int_equal(a->import_name, b->import_name);
        assert_true(nfy_str_eq(a->qual, b->qual));
    }
#undef FLIP
    /* the target is bound after the walrus in its value, yet comes first:
     * the use sees the assignment (a value that is no plain chain) */
    expect_kind("import torch\nx = (x := torch.cuda)\nx.synchronize()\n",
                "x.synchronize", 0, NFY_RES_LOCAL);
    expect_qual("import torch\nx = (x := torch.cuda)\nprint(x)\nx = "
                "torch.npu\n",
                "x", 3, "torch.npu", 2);
    teardown_fx(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_as),
        cmocka_unit_test(test_import_dotted),
        cmocka_unit_test(test_from_import_module),
        cmocka_unit_test(test_aliases_of_classes),
        cmocka_unit_test(test_function_local_import),
        cmocka_unit_test(test_try_import_error),
        cmocka_unit_test(test_shadowing),
        cmocka_unit_test(test_local_named_cuda),
        cmocka_unit_test(test_global),
        cmocka_unit_test(test_global_declared_many_times),
        cmocka_unit_test(test_class_scope_invisible),
        cmocka_unit_test(test_unknown_receiver),
        cmocka_unit_test(test_dotted_alias),
        cmocka_unit_test(test_prefix_and_helpers),
        cmocka_unit_test(test_more_scopes),
        cmocka_unit_test(test_relative_import),
        cmocka_unit_test(test_self_module_attr),
        cmocka_unit_test(test_self_attr_conflict),
        cmocka_unit_test(test_same_name),
        cmocka_unit_test(test_many_names),
        cmocka_unit_test(test_binding_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
