/*
 * Unit tests for the notebook JSON reader (src/convert/notebook_json.c):
 * cells and the spans of their source strings, decoding (escapes,
 * surrogate pairs, lone surrogates), json.dumps-style encoding (with and
 * without \u escapes) and their round trip, raw offsets, and the errors of
 * bad input (never a crash, the byte it went wrong at).
 */
/* cmocka.h needs these first, in this order. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
/* clang-format on */

#include <stdlib.h>
#include <string.h>

#include "convert/notebook.h"

static const char nb_text[] =
    "{\n \"cells\": [\n"
    "  {\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"# "
    "t\"]},\n"
    "  {\"cell_type\": \"code\", \"execution_count\": 1, \"metadata\": {},\n"
    "   \"outputs\": [{\"text\": [\"cuda\\n\"]}],\n"
    "   \"source\": [\"import torch\\n\", \"x = \\\"\\u00e9\\\"\"]},\n"
    "  {\"cell_type\": \"code\", \"source\": \"y = 1\"}\n"
    " ],\n"
    " \"metadata\": {\"kernelspec\": {\"language\": \"python\"}},\n"
    " \"nbformat\": 4, \"nbformat_minor\": 5\n}\n";

static void test_cells_and_strings(void **state)
{
    (void)state;
    nfy_notebook nb;
    nfy__convert_nb_parse(&nb, nb_text, strlen(nb_text));
    assert_null(nb.error);
    assert_int_equal(nb.nbformat, 4);
    assert_string_equal(nb.language, "python");
    assert_int_equal(nb.cells.len, 3);
    assert_false(nb.cells.items[0].code);
    assert_true(nb.cells.items[1].code);
    assert_true(nb.cells.items[1].array);
    assert_int_equal(nb.cells.items[1].n, 2);
    assert_int_equal(nb.cells.items[1].index, 2);
    assert_false(nb.cells.items[2].array);
    assert_int_equal(nb.cells.items[2].n, 1);
    const nfy_nb_str *s = &nb.strs.items[nb.cells.items[1].first];
    assert_memory_equal(nb_text + s[0].start, "\"import torch\\n\"", 16);
    assert_true(s[1].ascii);
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(nfy__convert_nb_decode(nb_text, s[1], &b), NFY_OK);
    assert_string_equal(nfy_buf_cstr(&b), "x = \"\xC3\xA9\"");
    /* decoded offset 5 (the e-acute) comes from the \u escape */
    assert_memory_equal(nb_text + nfy__convert_nb_raw_offset(nb_text, s[1], 5),
                        "\\u00e9", 6);
    nfy_buf_reset(&b);
    assert_int_equal(nfy__convert_nb_encode(&b, "x = \"\xC3\xA9\"", 8, true),
                     NFY_OK);
    assert_memory_equal(b.data, nb_text + s[1].start, s[1].end - s[1].start);
    nfy_buf_release(&b);
    nfy__convert_nb_release(&nb);
}

static void test_encode_like_json_dumps(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT;
    const char text[] = "a\"\\\n\t\x01\xF0\x9F\x98\x80/";
    assert_int_equal(nfy__convert_nb_encode(&b, text, sizeof text - 1, false),
                     NFY_OK);
    assert_string_equal(nfy_buf_cstr(&b),
                        "\"a\\\"\\\\\\n\\t\\u0001\xF0\x9F\x98\x80/\"");
    nfy_buf_reset(&b);
    assert_int_equal(nfy__convert_nb_encode(&b, text, sizeof text - 1, true),
                     NFY_OK);
    assert_string_equal(nfy_buf_cstr(&b),
                        "\"a\\\"\\\\\\n\\t\\u0001\\ud83d\\ude00/\"");
    /* and back */
    nfy_nb_str s = {0, (uint32_t)b.len, true, false, 0, 0};
    nfy_buf d = NFY_BUF_INIT;
    assert_int_equal(nfy__convert_nb_decode(b.data, s, &d), NFY_OK);
    assert_int_equal(d.len, sizeof text - 1);
    assert_memory_equal(d.data, text, d.len);
    nfy_buf_release(&d);
    nfy_buf_release(&b);
}

static void test_lone_surrogate_is_lossy(void **state)
{
    (void)state;
    const char t[] = "{\"cells\": [{\"cell_type\": \"code\", \"source\": "
                     "[\"a\\ud800b\"]}]}";
    nfy_notebook nb;
    nfy__convert_nb_parse(&nb, t, strlen(t));
    assert_null(nb.error);
    assert_int_equal(nb.strs.len, 1);
    assert_true(nb.strs.items[0].lossy);
    nfy__convert_nb_release(&nb);
}

static void test_bad_input_says_where(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t at;
    } cases[] = {
        {"{\"cells\": [ {\"cell_type\": \"code\"} ]", 35},
        {"{\"cells\": [{\"source\": [\"a\\q\"]}]}", 25},
        {"{\"a\": 1} x", 9},
        {"", 0},
        {"{\"cells\": [{\"source\": [\"\n\"]}]}", 24},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nfy_notebook nb;
        nfy__convert_nb_parse(&nb, cases[i].text, strlen(cases[i].text));
        assert_non_null(nb.error);
        assert_int_equal(nb.error_at, cases[i].at);
        nfy__convert_nb_release(&nb);
    }
    /* deep nesting is an error, not a stack overflow */
    size_t n = 100000;
    char *deep = malloc(2 * n + 16);
    assert_non_null(deep);
    memcpy(deep, "{\"m\": ", 6);
    memset(deep + 6, '[', n);
    memset(deep + 6 + n, ']', n);
    memcpy(deep + 6 + 2 * n, "}", 2);
    nfy_notebook nb;
    nfy__convert_nb_parse(&nb, deep, strlen(deep));
    assert_non_null(nb.error);
    assert_string_equal(nb.error, "nested too deeply");
    nfy__convert_nb_release(&nb);
    free(deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells_and_strings),
        cmocka_unit_test(test_encode_like_json_dumps),
        cmocka_unit_test(test_lone_surrogate_is_lossy),
        cmocka_unit_test(test_bad_input_says_where),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
