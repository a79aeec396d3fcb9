/*
 * Unit tests for the exact call behind a profiler frame
 * (src/analyse/op_calls.c): torch 1.x frames (def line) and torch 2.x
 * frames (calling line), torch APIs before Tensor methods before other
 * same-named calls, derived names (in-place, private, namespaced), nested
 * defs excluded, lambdas and comprehensions included, aliased imports.
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

#include "analyse/analyse.h"
#include "pylex/pylex.h"

/* Candidates as "line:col rank api where", one per line. */
static char *calls_text(const char *py, uint32_t line, const char *func,
                        const char *op, char *out, size_t outsz)
{
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "t.py", py, strlen(py)), NFY_OK);
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    nfy_arena a = NFY_ARENA_INIT;
    nfy_pysyn *m = NULL;
    nfy_resolution *r = NULL;
    assert_int_equal(nfy_lex_lex(&src, &toks, NULL), NFY_OK);
    assert_int_equal(nfy_pysyn_parse(&src, &toks, &a, NULL, &m), NFY_OK);
    assert_int_equal(nfy_resolve_resolve(m, &a, &r), NFY_OK);
    nfy_an_op_call c[8];
    size_t n = nfy_analyse_op_calls(m, r, line, nfy_str_from_cstr(func),
                                    nfy_str_from_cstr(op), &a, c, 8);
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < n; i++)
        used +=
            (size_t)snprintf(out + used, outsz - used, "%u:%u %u %.*s %.*s\n",
                             c[i].line, c[i].col, c[i].rank, (int)c[i].api.len,
                             c[i].api.ptr, (int)c[i].where.len, c[i].where.ptr);
    nfy_arena_release(&a);
    nfy_lex_tokens_release(&toks);
    nfy_source_release(&src);
    return out;
}

#define EXPECT(py, line, func, op, want)                                       \
    do {                                                                       \
        char got_[1024];                                                       \
        assert_string_equal(calls_text(py, line, func, op, got_, sizeof got_), \
                            want);                                             \
    } while (0)

static const char *const model = "import torch\n"
                                 "import torch as th\n"
                                 "class Net(torch.nn.Module):\n"
                                 "    def forward(self, x):\n"
                                 "        a = torch.heaviside(x, x)\n"
                                 "        b = x.detach().heaviside(x)\n"
                                 "        c = th.heaviside(a, b)\n"
                                 "        def inner(y):\n"
                                 "            return torch.heaviside(y, y)\n"
                                 "        return a + b + c\n";

static void def_line_frame_lists_the_body(void **state)
{
    (void)state;
    EXPECT(model, 4, "forward", "aten::heaviside",
           "5:13 0 torch.heaviside Net.forward\n"
           "7:13 0 torch.heaviside Net.forward\n"
           "6:13 1 Tensor.heaviside Net.forward\n");
}

static void call_line_frame_is_that_call(void **state)
{
    (void)state;
    EXPECT(model, 6, "forward", "aten::heaviside",
           "6:13 1 Tensor.heaviside Net.forward\n");
    EXPECT(model, 9, "inner", "aten::heaviside",
           "9:20 0 torch.heaviside Net.forward.inner\n");
}

static void overloads_and_unknown_functions(void **state)
{
    (void)state;
    EXPECT(model, 4, "forward", "aten::heaviside.out",
           "5:13 0 torch.heaviside Net.forward\n"
           "7:13 0 torch.heaviside Net.forward\n"
           "6:13 1 Tensor.heaviside Net.forward\n");
    EXPECT(model, 4, "backward", "aten::heaviside", "");
    EXPECT(model, 4, "forward", "heaviside", ""); /* not an aten op */
    EXPECT(model, 4, "forward", "aten::addmm", "");
}

static void derived_names_rank_after_the_exact_one(void **state)
{
    (void)state;
    const char *py = "import torch\n"
                     "import torch.nn.functional as F\n"
                     "def f(x):\n"
                     "    x.relu_()\n"
                     "    y = F.relu(x, inplace=True)\n"
                     "    z = [torch.special.erfcx(v) for v in x]\n"
                     "    w = (lambda t: t.erfcx())(x)\n"
                     "    return F.softmax(y, 1), helper.relu_(z)\n";
    EXPECT(py, 3, "f", "aten::relu_",
           "4:5 1 Tensor.relu_ f\n"
           "8:29 2 helper.relu_ f\n"
           "5:9 3 torch.nn.functional.relu f\n");
    EXPECT(py, 3, "f", "aten::_softmax",
           "8:12 3 torch.nn.functional.softmax f\n");
    /* torch.special.erfcx, not a method of the same name */
    EXPECT(py, 3, "f", "aten::special_erfcx", "6:10 3 torch.special.erfcx f\n");
}

static void module_level_frame_is_its_line(void **state)
{
    (void)state;
    const char *py = "import torch\n"
                     "x = torch.ones(2)\n"
                     "y = torch.heaviside(x, x)\n"
                     "z = torch.heaviside(y, x)\n";
    EXPECT(py, 4, "<module>", "aten::heaviside",
           "4:5 0 torch.heaviside <module>\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(def_line_frame_lists_the_body),
        cmocka_unit_test(call_line_frame_is_that_call),
        cmocka_unit_test(overloads_and_unknown_functions),
        cmocka_unit_test(derived_names_rank_after_the_exact_one),
        cmocka_unit_test(module_level_frame_is_its_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
