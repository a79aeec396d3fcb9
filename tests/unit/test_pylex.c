/*
 * Unit tests for pylex: token kinds, texts and positions against what
 * Python 3.11's tokenize produced for the same inputs (test_pylex_cases.h:
 * every number form, every string prefix, f-string specs, dedents, CRLF,
 * lone CR, BOM, tabs and form feeds, continuations, end-of-file quirks,
 * ERRORTOKEN cases, non-ASCII names), then what tokenize cannot tell us:
 * PEP 701 f-strings, diagnostics for bad input, token flags and ids,
 * nfy_lex_fstring_split, and the lossless property on random bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
/* cmocka.h (included last) needs the standard headers above */
#include <cmocka.h>

#include "pylex/pylex.h"
#include "test_pylex_cases.h"

/* ---- Helpers ------------------------------------------------------------ */

typedef struct {
    nfy_source src;
    nfy_tokens toks;
    nfy_diags diags;
} lexed;

static void lex_mem(lexed *l, const char *data, size_t len)
{
    assert_int_equal(nfy_source_from_mem(&l->src, "t.py", data, len), NFY_OK);
    nfy_lex_tokens_init(&l->toks);
    nfy_diags_init(&l->diags);
    assert_int_equal(nfy_lex_lex(&l->src, &l->toks, &l->diags), NFY_OK);
    uint32_t bad = 0;
    assert_true(nfy_lex_tokens_lossless(&l->src, &l->toks, &bad));
}

static void lex_str(lexed *l, const char *text)
{
    lex_mem(l, text, strlen(text));
}

static void lexed_release(lexed *l)
{
    nfy_lex_tokens_release(&l->toks);
    nfy_diags_release(&l->diags);
    nfy_source_release(&l->src);
}

/* "KIND text l,c-l,c" with the escapes test_pylex_cases.h uses. */
static void describe(const lexed *l, const nfy_token *t, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s ",
                                nfy_lex_tok_kind_name((nfy_tok_kind)t->kind));
    for (uint32_t i = t->start; i < t->end && n + 8 < cap; i++) {
        char c = l->src.data[i];
        const char *esc = c == '\\'   ? "\\\\"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                          : c == '\f' ? "\\f"
                          : c == '\0' ? "\\0"
                          : c == '"'  ? "\\\""
                                      : NULL;
        if (esc) {
            memcpy(out + n, esc, strlen(esc));
            n += strlen(esc);
        } else {
            out[n++] = c;
        }
    }
    snprintf(out + n, cap - n, " %u,%u-%u,%u", t->line, t->col, t->end_line,
             t->end_col);
}

static const nfy_token *tok_at(const lexed *l, size_t i)
{
    assert_true(i < l->toks.toks.len);
    return &l->toks.toks.items[i];
}

static void assert_tok(const lexed *l, size_t i, const char *expected)
{
    char buf[512];
    describe(l, tok_at(l, i), buf, sizeof buf);
    assert_string_equal(buf, expected);
}

static bool has_diag(const lexed *l, const char *code)
{
    for (size_t i = 0; i < l->diags.items.len; i++)
        if (!strcmp(l->diags.items.items[i].code, code))
            return true;
    return false;
}

/* ---- Against Python's tokenize ------------------------------------------ */

static void test_matches_tokenize(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lexed l;
        lex_mem(&l, cases[c].input, cases[c].len);
        size_t i = 0;
        for (; cases[c].expected[i]; i++) {
            char buf[512];
            if (i >= l.toks.toks.len)
                fail_msg("case %s: only %zu tokens", cases[c].name, i);
            describe(&l, tok_at(&l, i), buf, sizeof buf);
            if (strcmp(buf, cases[c].expected[i]))
                fail_msg("case %s, token %zu:\n  got      %s\n  expected %s",
                         cases[c].name, i, buf, cases[c].expected[i]);
        }
        if (i != l.toks.toks.len)
            fail_msg("case %s: %zu tokens, expected %zu", cases[c].name,
                     l.toks.toks.len, i);
        lexed_release(&l);
    }
}

/* ---- PEP 701 f-strings (3.12+: not in 3.11's tokenize) ------------------ */

static void test_fstring_nested_same_quotes(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "f\"{x[\"a\"]}\"\nf'{f'{y}'}'\n");
    assert_tok(&l, 0, "STRING f\\\"{x[\\\"a\\\"]}\\\" 1,0-1,11");
    assert_tok(&l, 1, "NEWLINE \\n 1,11-1,12");
    assert_tok(&l, 2, "STRING f'{f'{y}'}' 2,0-2,11");
    assert_true(tok_at(&l, 2)->flags & NFY_TOKF_FSTRING);
    assert_int_equal(l.toks.toks.len, 5);
    lexed_release(&l);
}

static void test_fstring_multiline_field(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "z = f\"{x\n+ y}\" + 1\n");
    assert_tok(&l, 2, "STRING f\\\"{x\\n+ y}\\\" 1,4-2,5");
    assert_tok(&l, 3, "OP + 2,6-2,7");
    assert_int_equal(l.diags.items.len, 0);
    lexed_release(&l);
}

static void test_fstring_tricky_fields(void **state)
{
    (void)state;
    lexed l;
    /* '!=' is no conversion; ':' inside brackets is no spec; \N{...} */
    lex_str(&l, "f'{a!=b}{x[1:2]}{d[\"k\"]!r:>{w}}\\N{DASH}' x\n");
    assert_tok(&l, 0,
               "STRING f'{a!=b}{x[1:2]}{d[\\\"k\\\"]!r:>{w}}\\\\N{DASH}' "
               "1,0-1,40");
    assert_tok(&l, 1, "NAME x 1,41-1,42");
    lexed_release(&l);
    /* an unclosed field falls back to 3.11's rule: the string ends at ' */
    lex_str(&l, "f'{'\n");
    assert_tok(&l, 0, "STRING f'{' 1,0-1,4");
    lexed_release(&l);
}

/* ---- Bad input ---------------------------------------------------------- */

static void test_unterminated_triple_quote(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "x = \"\"\"abc\ndef\n");
    const nfy_token *t = tok_at(&l, 2);
    assert_int_equal(t->kind, NFY_TOK_ERRORTOKEN);
    assert_true(t->flags & NFY_TOKF_UNTERMINATED);
    assert_true(t->flags & NFY_TOKF_TRIPLE);
    assert_int_equal(t->end, l.src.len);
    assert_true(has_diag(&l, "lex-unterminated-string"));
    assert_int_equal(nfy_vec_last(&l.toks.toks)->kind, NFY_TOK_ENDMARKER);
    lexed_release(&l);
}

static void test_invalid_utf8_and_nul(void **state)
{
    (void)state;
    lexed l;
    lex_mem(&l, "x = \xff\xfe y\x00\n'\xc3'\n", 14);
    assert_true(has_diag(&l, "lex-invalid-utf8"));
    assert_true(has_diag(&l, "lex-nul-byte"));
    /* tokenize's quirk: the space before a stray character is one too */
    assert_tok(&l, 2, "ERRORTOKEN   1,3-1,4");
    assert_tok(&l, 3, "ERRORTOKEN \xff 1,4-1,5");
    assert_tok(&l, 4, "ERRORTOKEN \xfe 1,5-1,6");
    assert_tok(&l, 5, "NAME y 1,7-1,8");
    assert_tok(&l, 6, "ERRORTOKEN \\0 1,8-1,9");
    assert_int_equal(tok_at(&l, 8)->kind, NFY_TOK_STRING);
    lexed_release(&l);
}

static void test_eof_inside_brackets_and_bad_dedent(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "x = (1,\n");
    assert_true(has_diag(&l, "lex-eof-in-statement"));
    lexed_release(&l);
    lex_str(&l, "if x:\n    y\n  z\n");
    assert_true(has_diag(&l, "lex-dedent"));
    int depth = 0;
    for (size_t i = 0; i < l.toks.toks.len; i++)
        depth += tok_at(&l, i)->kind == NFY_TOK_INDENT
                     ? 1
                     : -(tok_at(&l, i)->kind == NFY_TOK_DEDENT);
    assert_int_equal(depth, 0);
    lexed_release(&l);
}

static void test_continuation_at_eof(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "x = 1 + \\\n");
    assert_true(has_diag(&l, "lex-eof-in-statement"));
    assert_int_equal(nfy_vec_last(&l.toks.toks)->kind, NFY_TOK_ENDMARKER);
    lexed_release(&l);
}

/* ---- Flags and ids ------------------------------------------------------ */

static void test_string_flags(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "rb'''x''' F'y' u'z' Rf\"w\"\n");
    assert_int_equal(tok_at(&l, 0)->flags,
                     NFY_TOKF_RAW | NFY_TOKF_BYTES | NFY_TOKF_TRIPLE);
    assert_int_equal(tok_at(&l, 1)->flags, NFY_TOKF_FSTRING);
    assert_int_equal(tok_at(&l, 2)->flags, 0);
    assert_int_equal(tok_at(&l, 3)->flags, NFY_TOKF_RAW | NFY_TOKF_FSTRING);
    lexed_release(&l);
}

static void test_keyword_and_op_ids(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "if None match iff -> **= ... !=\n");
    assert_int_equal(tok_at(&l, 0)->op, NFY_KW_IF);
    assert_int_equal(tok_at(&l, 1)->op, NFY_KW_NONE_VALUE);
    assert_int_equal(tok_at(&l, 2)->op, NFY_KW_MATCH);
    assert_int_equal(tok_at(&l, 3)->op, NFY_KW_NONE);
    assert_int_equal(tok_at(&l, 4)->op, NFY_OP_RARROW);
    assert_int_equal(tok_at(&l, 5)->op, NFY_OP_DOUBLESTAREQUAL);
    assert_int_equal(tok_at(&l, 6)->op, NFY_OP_ELLIPSIS);
    assert_int_equal(tok_at(&l, 7)->op, NFY_OP_NOTEQUAL);
    assert_string_equal(nfy_lex_op_text(NFY_OP_RARROW), "->");
    assert_string_equal(nfy_lex_kw_text(NFY_KW_NONLOCAL), "nonlocal");
    assert_string_equal(nfy_lex_tok_kind_name(NFY_TOK_ERRORTOKEN),
                        "ERRORTOKEN");
    for (unsigned k = 1; k <= NFY_KW_TYPE; k++) {
        const char *text = nfy_lex_kw_text(k);
        char upper[16];
        snprintf(upper, sizeof upper, "%s", text);
        upper[0] ^= 0x20; /* "If", "none": no keywords */
        assert_int_equal(nfy_lex_keyword_lookup(text, strlen(text)), k);
        assert_int_equal(nfy_lex_keyword_lookup(upper, strlen(upper)),
                         NFY_KW_NONE);
    }
    assert_int_equal(nfy_lex_keyword_lookup("continue", 8), NFY_KW_CONTINUE);
    assert_int_equal(nfy_lex_keyword_lookup("Continue", 8), NFY_KW_NONE);
    lexed_release(&l);
}

/* Every operator between names and before a third operator byte that
   must stay out of it, plus the prefixes of the long ones (".." is two
   dots, "!" alone no operator). */
static void test_operator_ids_in_source(void **state)
{
    (void)state;
    for (unsigned op = 1; op <= NFY_OP_EXCLAMATION; op++) {
        const char *text = nfy_lex_op_text(op);
        if (op == NFY_OP_EXCLAMATION)
            continue; /* 3.12's, tokenize 3.11 has no '!' */
        char src[64];
        snprintf(src, sizeof src, "(a%sb %s-\n", text, text);
        lexed l;
        lex_str(&l, src);
        assert_int_equal(tok_at(&l, 2)->kind, NFY_TOK_OP);
        assert_int_equal(tok_at(&l, 2)->op, op);
        assert_int_equal(tok_at(&l, 2)->end - tok_at(&l, 2)->start,
                         strlen(text));
        assert_int_equal(tok_at(&l, 4)->op, op);
        lexed_release(&l);
    }
    lexed l;
    lex_str(&l, "a..b **=// <<>>= !=.5\n");
    const unsigned want[] = {0,
                             NFY_OP_DOT,
                             NFY_OP_DOT,
                             0,
                             NFY_OP_DOUBLESTAREQUAL,
                             NFY_OP_DOUBLESLASH,
                             NFY_OP_LEFTSHIFT,
                             NFY_OP_RIGHTSHIFTEQUAL,
                             NFY_OP_NOTEQUAL};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        assert_int_equal(tok_at(&l, i)->op, want[i]);
    assert_int_equal(tok_at(&l, 9)->kind, NFY_TOK_NUMBER);
    lexed_release(&l);
}

/* Every keyword as the lexer meets it: alone, then as the prefix of a
   longer name and after an extra first letter (never keywords), with 8 or
   more bytes after each name (the one-load lookup) and at the very end of
   the file (fewer readable bytes). */
static void test_keyword_ids_in_source(void **state)
{
    (void)state;
    for (unsigned k = 1; k <= NFY_KW_TYPE; k++) {
        const char *kw = nfy_lex_kw_text(k);
        char text[160];
        snprintf(text, sizeof text,
                 "%s %s_ %sxxxxxxxxxxxxxxxxx x%s _%s %s1 %s\\\n%s", kw, kw, kw,
                 kw, kw, kw, kw, kw);
        lexed l;
        lex_str(&l, text);
        const unsigned want[] = {k, 0, 0, 0, 0, 0, k, k};
        for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
            assert_int_equal(tok_at(&l, i)->kind, NFY_TOK_NAME);
            assert_int_equal(tok_at(&l, i)->op, want[i]);
        }
        lexed_release(&l);
    }
}

/* ---- nfy_lex_fstring_split --------------------------------------------------
 */

static nfy_str span_text(const lexed *l, nfy_span s)
{
    return (nfy_str){l->src.data + s.start, s.end - s.start};
}

static void assert_span(const lexed *l, nfy_span s, const char *text)
{
    nfy_str v = span_text(l, s);
    if (!nfy_str_eq_cstr(v, text))
        fail_msg("span '%.*s', expected '%s'", NFY_STR_FMT(v), text);
}

static void test_fstring_split_parts(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "f'a{x!r:>{w}}b{{c}}{y=}{d[\"k\"]}'\n");
    nfy_fstring_parts parts = {NULL, 0, 0};
    assert_true(nfy_lex_fstring_split(&l.src, tok_at(&l, 0), &parts));
    assert_int_equal(parts.len, 5);
    assert_false(parts.items[0].is_expr);
    assert_span(&l, parts.items[0].span, "a");
    assert_true(parts.items[1].is_expr);
    assert_span(&l, parts.items[1].span, "x");
    assert_span(&l, parts.items[1].conv, "!r");
    assert_span(&l, parts.items[1].spec, ">{w}");
    assert_span(&l, parts.items[2].span, "b{{c}}");
    assert_span(&l, parts.items[3].span, "y=");
    assert_span(&l, parts.items[3].conv, "");
    assert_span(&l, parts.items[3].spec, "");
    assert_span(&l, parts.items[4].span, "d[\"k\"]");
    nfy_vec_free(&parts);
    lexed_release(&l);
}

static void test_fstring_split_nested_and_plain(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "rf'''{f'{y}'} z''' 'plain'\n");
    nfy_fstring_parts parts = {NULL, 0, 0};
    assert_true(nfy_lex_fstring_split(&l.src, tok_at(&l, 0), &parts));
    assert_int_equal(parts.len, 2);
    assert_span(&l, parts.items[0].span, "f'{y}'");
    assert_span(&l, parts.items[1].span, " z");
    assert_false(nfy_lex_fstring_split(&l.src, tok_at(&l, 1), &parts));
    assert_int_equal(parts.len, 2);
    nfy_vec_free(&parts);
    lexed_release(&l);
}

/* ---- Lossless on anything ----------------------------------------------- */

static uint32_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static void test_random_bytes_roundtrip(void **state)
{
    (void)state;
    static const char alphabet[] = "'\"\\\n\r\t\f {}()[]#fbrux01.eEj_:!=$\x00"
                                   "\xc3\xa9\xff\xe2\x80";
    uint64_t seed = 12345;
    char buf[300];
    for (int iter = 0; iter < 4000; iter++) {
        size_t len = rng_next(&seed) % sizeof buf;
        bool raw_bytes = iter % 4 == 0;
        for (size_t i = 0; i < len; i++)
            buf[i] = raw_bytes
                         ? (char)rng_next(&seed)
                         : alphabet[rng_next(&seed) % (sizeof alphabet - 1)];
        lexed l;
        lex_mem(&l, buf, len); /* asserts the invariant */
        nfy_buf back = NFY_BUF_INIT;
        for (size_t i = 0; i < l.toks.toks.len; i++) {
            const nfy_token *t = tok_at(&l, i);
            assert_true(t->start >= t->trivia_start && t->end >= t->start);
            nfy_buf_add(&back, l.src.data + t->trivia_start,
                        t->end - t->trivia_start);
        }
        assert_int_equal(back.len, len);
        assert_memory_equal(back.len ? back.data : "", buf, len);
        nfy_buf_release(&back);
        lexed_release(&l);
    }
}

/* Inputs that made an earlier version quadratic or worse: each must lex
   in well under a second (a generous bound, ASan included). */
static void test_hostile_inputs_stay_fast(void **state)
{
    (void)state;
    static const char *const units[] = {"{f'",    "f'{(",          "f'{(x\n",
                                        "'a\\\n", "x\r",           " ?",
                                        "\\\n",   "f'{( \"f'{(\" "};
    enum { SIZE = 1 << 18 };
    char *buf = malloc(SIZE);
    assert_non_null(buf);
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t ulen = strlen(units[u]), len = 0;
        if (u == 0) /* f' then many "{f'": deep PEP 701 nesting */
            buf[len++] = 'f', buf[len++] = '\'';
        while (len + ulen <= SIZE) {
            memcpy(buf + len, units[u], ulen);
            len += ulen;
        }
        clock_t t0 = clock();
        lexed l;
        lex_mem(&l, buf, len);
        double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (secs > 2.0)
            fail_msg("unit '%s': %.2f s for %zu bytes", units[u], secs, len);
        lexed_release(&l);
    }
    free(buf);
}

/* Indentation runs of every length around the 16-byte steps of the
   space scanner, with the line (and the file) ending right after them:
   INDENT spans the spaces, a tab after them rounds the column up, a
   whitespace-only last line ends the file, a non-ASCII byte may follow. */
static void test_indent_runs_at_block_edges(void **state)
{
    (void)state;
    static const char *const tails[] = {"y\n", "y", "\t",        "\tz\n",
                                        "",    "#", "\xc3\xa9\n"};
    char buf[128], want[64];
    for (size_t k = 1; k <= 40; k++) {
        for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
            size_t len = 0, tl = strlen(tails[t]);
            memcpy(buf, "if x:\n", 6);
            len = 6;
            memset(buf + len, ' ', k);
            len += k;
            memcpy(buf + len, tails[t], tl);
            len += tl;
            lexed l;
            lex_mem(&l, buf, len);
            if (t < 2 || t == 3) { /* a statement: INDENT then NAME */
                snprintf(want, sizeof want, "INDENT %.*s%s 2,0-2,%zu", (int)k,
                         "                                        ",
                         t == 3 ? "\\t" : "", k + (t == 3));
                assert_tok(&l, 4, want);
                snprintf(want, sizeof want, "NAME %c 2,%zu-2,%zu",
                         t == 3 ? 'z' : 'y', k + (t == 3), k + 1 + (t == 3));
                assert_tok(&l, 5, want);
            } else if (t == 6) { /* a non-ASCII name: columns in code points */
                snprintf(want, sizeof want, "NAME \xc3\xa9 2,%zu-2,%zu", k,
                         k + 1);
                assert_tok(&l, 5, want);
            }
            assert_int_equal(l.toks.toks.items[l.toks.toks.len - 1].kind,
                             NFY_TOK_ENDMARKER);
            lexed_release(&l);
        }
    }
}

static void test_lossless_check_can_fail(void **state)
{
    (void)state;
    lexed l;
    lex_str(&l, "x = 1\n");
    uint32_t bad = 0;
    l.toks.toks.items[1].trivia_start++; /* lose a byte */
    assert_false(nfy_lex_tokens_lossless(&l.src, &l.toks, &bad));
    assert_int_equal(bad, 1);
    lexed_release(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_tokenize),
        cmocka_unit_test(test_fstring_nested_same_quotes),
        cmocka_unit_test(test_fstring_multiline_field),
        cmocka_unit_test(test_fstring_tricky_fields),
        cmocka_unit_test(test_unterminated_triple_quote),
        cmocka_unit_test(test_invalid_utf8_and_nul),
        cmocka_unit_test(test_eof_inside_brackets_and_bad_dedent),
        cmocka_unit_test(test_continuation_at_eof),
        cmocka_unit_test(test_string_flags),
        cmocka_unit_test(test_keyword_and_op_ids),
        cmocka_unit_test(test_keyword_ids_in_source),
        cmocka_unit_test(test_operator_ids_in_source),
        cmocka_unit_test(test_fstring_split_parts),
        cmocka_unit_test(test_fstring_split_nested_and_plain),
        cmocka_unit_test(test_random_bytes_roundtrip),
        cmocka_unit_test(test_hostile_inputs_stay_fast),
        cmocka_unit_test(test_indent_runs_at_block_edges),
        cmocka_unit_test(test_lossless_check_can_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
