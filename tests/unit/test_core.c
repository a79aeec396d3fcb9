/* Unit tests for src/core: views, UTF-8, arena, buffer, vector, source line
 * tables, diagnostics rendering, escaping, atomic writes and the walker. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/core.h"

static void test_str_ops(void **state)
{
    (void)state;
    nfy_str s = nfy_str_from_cstr("torch.cuda.amp");
    assert_true(nfy_str_starts_with(s, NFY_STR_LIT("torch.")));
    assert_true(nfy_str_ends_with(s, NFY_STR_LIT(".amp")));
    assert_false(nfy_str_ends_with(s, NFY_STR_LIT("torch.cuda.amp.x")));
    assert_int_equal(nfy_str_find_char(s, '.'), 5);
    assert_int_equal(nfy_str_find_char(s, '!'), -1);
    assert_true(nfy_str_contains(s, NFY_STR_LIT("cuda.a")));
    assert_true(nfy_str_contains(s, NFY_STR_LIT("amp"))); /* at the end */
    assert_true(nfy_str_contains(s, s));
    assert_false(nfy_str_contains(s, NFY_STR_LIT("cudaa")));
    assert_false(nfy_str_contains(s, NFY_STR_LIT("")));
    assert_false(nfy_str_contains(NFY_STR_LIT("amp"), s));
    assert_int_equal(nfy_str_find(s, NFY_STR_LIT(".cuda")), 5);
    assert_int_equal(nfy_str_find(s, NFY_STR_LIT(".")), 5); /* the first */
    assert_int_equal(nfy_str_find(s, NFY_STR_LIT("npu")), -1);
    nfy_str rest = s;
    assert_false(nfy_str_consume(&rest, "torch.npu"));
    assert_true(nfy_str_eq(rest, s));
    assert_true(nfy_str_consume(&rest, "torch."));
    assert_true(nfy_str_eq_cstr(rest, "cuda.amp"));
    assert_true(nfy_str_consume(&rest, ""));
    nfy_str mid = nfy_str_slice(s, 6, 10);
    assert_true(nfy_str_eq_cstr(mid, "cuda"));
    assert_true(nfy_str_eq_cstr(nfy_str_slice(s, 20, 30), ""));
    assert_true(nfy_str_cmp(NFY_STR_LIT("ab"), NFY_STR_LIT("abc")) < 0);
    assert_true(nfy_str_cmp(NFY_STR_LIT("b"), NFY_STR_LIT("abc")) > 0);
    assert_int_equal(nfy_str_cmp(NFY_STR_LIT("x"), NFY_STR_LIT("x")), 0);
    assert_true(nfy_str_hash(NFY_STR_LIT("a")) !=
                nfy_str_hash(NFY_STR_LIT("b")));
}

static void test_utf8(void **state)
{
    (void)state;
    uint32_t cp = 0;
    assert_int_equal(nfy_utf8_decode("\xC3\xA9", 2, &cp), 2);
    assert_int_equal(cp, 0xE9);
    assert_int_equal(nfy_utf8_decode("\xE5\x89\x8D", 3, &cp), 3);
    assert_int_equal(cp, 0x524D);
    assert_int_equal(nfy_utf8_decode("\xF0\x9F\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(nfy_utf8_decode("\xC0\x80", 2, &cp), 0); /* overlong */
    assert_int_equal(nfy_utf8_decode("\xED\xA0\x80", 3, &cp),
                     0);                                      /* surrogate */
    assert_int_equal(nfy_utf8_decode("\xE5\x89", 2, &cp), 0); /* truncated */
    assert_int_equal(nfy_utf8_decode("\x80", 1, &cp), 0);
    char enc[4];
    const uint32_t cps[] = {0x41, 0xE9, 0x524D, 0x1F600, 0x10FFFF};
    for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
        size_t n = nfy_utf8_encode(cps[i], enc);
        assert_int_equal(n, i < 4 ? i + 1 : 4);
        assert_int_equal(nfy_utf8_decode(enc, n, &cp), n);
        assert_int_equal(cp, cps[i]);
    }
    assert_int_equal(nfy_utf8_count("a\xC3\xA9\xFF"
                                    "b",
                                    5),
                     4);
}

static void test_arena(void **state)
{
    (void)state;
    nfy_arena a = NFY_ARENA_INIT;
    char *s = nfy_arena_fmt(&a, "%s:%d", "cuda", 3);
    assert_string_equal(s, "cuda:3");
    /* Many small and a few huge allocations, all usable and aligned. */
    for (int i = 0; i < 10000; i++) {
        int *p = nfy_arena_alloc(&a, sizeof(int) * (size_t)(i % 7 + 1));
        assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
        p[0] = i;
    }
    char *big = nfy_arena_calloc(&a, 1, 1 << 20);
    assert_int_equal(big[(1 << 20) - 1], 0);
    char *after = nfy_arena_strndup(&a, "xyz", 2);
    assert_string_equal(after, "xy");
    assert_string_equal(s, "cuda:3");
    nfy_arena_release(&a);
    assert_null(a.head);
}

/* Strings are packed (no padding between them), aligned allocations still
 * aligned after them, and blocks grow from small to the full size. */
static void test_arena_packing(void **state)
{
    (void)state;
    nfy_arena a = NFY_ARENA_INIT;
    const char *x = nfy_arena_strndup(&a, "abc", 3);
    const char *y = nfy_arena_strdup(&a, "de");
    assert_ptr_equal(y, x + 4);
    char *f = nfy_arena_fmt(&a, "%d", 7);
    assert_ptr_equal(f, y + 3);
    double *d = nfy_arena_alloc(&a, sizeof *d);
    assert_int_equal((uintptr_t)d % _Alignof(max_align_t), 0);
    *d = 1.5;
    /* Tens of thousands of strings over growing blocks, all intact. */
    char **keep = malloc(40000 * sizeof *keep);
    assert_non_null(keep);
    for (int i = 0; i < 40000; i++)
        keep[i] = nfy_arena_fmt(&a, "s%d", i);
    for (int i = 0; i < 40000; i += 997) {
        char want[16];
        snprintf(want, sizeof want, "s%d", i);
        assert_string_equal(keep[i], want);
    }
    free(keep);
    assert_string_equal(x, "abc");
    assert_string_equal(y, "de");
    assert_true(*d == 1.5);
    nfy_arena_release(&a);
}

static void test_buf(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT;
    assert_string_equal(nfy_buf_cstr(&b), "");
    assert_int_equal(nfy_buf_addstr(&b, "npu"), NFY_OK);
    assert_int_equal(nfy_buf_addf(&b, ":%d", 7), NFY_OK);
    assert_int_equal(nfy_buf_addch(&b, '!'), NFY_OK);
    assert_string_equal(nfy_buf_cstr(&b), "npu:7!");
    size_t len;
    char *taken = nfy_buf_take(&b, &len);
    assert_int_equal(len, 6);
    assert_string_equal(taken, "npu:7!");
    free(taken);
    assert_int_equal(b.len, 0);

    /* The cap is enforced and the error is sticky. */
    nfy_buf capped;
    nfy_buf_init(&capped, 8);
    assert_int_equal(nfy_buf_addstr(&capped, "12345678"), NFY_OK);
    assert_int_equal(nfy_buf_addch(&capped, '9'), NFY_ELIMIT);
    assert_int_equal(nfy_buf_addstr(&capped, ""), NFY_ELIMIT);
    assert_int_equal(capped.status, NFY_ELIMIT);
    assert_string_equal(nfy_buf_cstr(&capped), "12345678");
    nfy_buf_reset(&capped);
    assert_int_equal(nfy_buf_addch(&capped, 'x'), NFY_OK);
    nfy_buf_release(&capped);
}

static void test_vec(void **state)
{
    (void)state;
    NFY_VEC(int) v = {0};
    for (int i = 0; i < 1000; i++)
        nfy_vec_push(&v, i * 2);
    assert_int_equal(v.len, 1000);
    assert_int_equal(v.items[999], 1998);
    assert_int_equal(*nfy_vec_last(&v), 1998);
    nfy_vec_free(&v);
    assert_null(v.items);
}

static void test_source_lines(void **state)
{
    (void)state;
    nfy_source src;
    const char text[] = "a = 1\r\nb\rc\n\xC3\xA9x = 2";
    assert_int_equal(nfy_source_from_mem(&src, "t.py", text, sizeof text - 1),
                     NFY_OK);
    assert_int_equal(src.nlines, 4);
    uint32_t line, col;
    nfy_source_linecol(&src, 7, &line, &col); /* 'b' */
    assert_int_equal(line, 2);
    assert_int_equal(col, 0);
    nfy_source_linecol(&src, 9, &line, &col); /* 'c' after lone CR */
    assert_int_equal(line, 3);
    nfy_source_linecol(&src, 13, &line, &col); /* 'x' after e-acute */
    assert_int_equal(line, 4);
    assert_int_equal(col, 1); /* code points, not bytes */
    assert_true(nfy_str_eq_cstr(nfy_source_line(&src, 1), "a = 1"));
    assert_true(nfy_str_eq_cstr(nfy_source_line(&src, 4), "\xC3\xA9x = 2"));
    assert_true(nfy_str_eq_cstr(nfy_source_line(&src, 9), ""));
    nfy_source_release(&src);
}

/* Line starts the slow way: Python's "\n", "\r\n" and lone "\r". */
static size_t naive_line_starts(const char *s, size_t n, uint32_t *out)
{
    size_t k = 0;
    out[k++] = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
            i++;
        else if (s[i] != '\n' && s[i] != '\r')
            continue;
        if (i + 1 < n)
            out[k++] = (uint32_t)(i + 1);
    }
    return k;
}

/* Line ends of every kind at every offset of the scan's 32-byte steps
 * (a "\r\n" split across two steps included): the copy and the line table
 * match a byte-by-byte reading, for every length up to a few steps. */
static void test_source_line_table_blocks(void **state)
{
    (void)state;
    static const char *const pieces[] = {"\n", "\r",       "\r\n", "ab",
                                         "c",  "\xC3\xA9", "\r\r", "\n\n"};
    char text[200];
    uint32_t expect[201];
    uint32_t r = 777;
    for (size_t n = 0; n < sizeof text; n++) {
        for (int round = 0; round < 8; round++) {
            size_t len = 0;
            while (len < n) {
                r = r * 1103515245u + 12345u;
                const char *p = pieces[(r >> 16) % 8];
                size_t k = strlen(p);
                for (size_t j = 0; j < k && len < n; j++)
                    text[len++] = p[j];
            }
            nfy_source src;
            assert_int_equal(nfy_source_from_mem(&src, "l.py", text, n),
                             NFY_OK);
            size_t want = naive_line_starts(text, n, expect);
            assert_int_equal(src.nlines, want);
            assert_memory_equal(src.line_starts, expect, want * sizeof *expect);
            assert_int_equal(src.data[n], '\0');
            if (n)
                assert_memory_equal(src.data, text, n);
            nfy_source_release(&src);
        }
    }
}

/* One line of mixed ASCII, valid UTF-8 and stray bytes, built by an LCG. */
static char *mixed_line(size_t n)
{
    static const char *const pieces[] = {
        "a",    " ",    "\xC3\xA9",    "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
        "\x80", "\xC3", "\xED\xA0\x80"};
    char *s = malloc(n + 8);
    assert_non_null(s);
    size_t len = 0;
    uint32_t r = 12345;
    while (len < n) {
        r = r * 1103515245u + 12345u;
        const char *p = pieces[(r >> 16) % 8];
        size_t k = strlen(p);
        memcpy(s + len, p, k);
        len += k;
    }
    s[n] = '\0';
    return s;
}

/* Every column equals the count from the line start, offsets inside a
 * sequence included, and stays so after a line break in the middle. */
static void test_source_columns_exact(void **state)
{
    (void)state;
    size_t n = 3000;
    char *text = mixed_line(n);
    text[1500] = '\n';
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "m.py", text, n), NFY_OK);
    for (uint32_t off = 0; off <= n; off++) {
        uint32_t line, col;
        nfy_source_linecol(&src, off, &line, &col);
        uint32_t start = off > 1500 ? 1501 : 0;
        assert_int_equal(line, off > 1500 ? 2 : 1);
        assert_int_equal(col, nfy_utf8_count(text + start, off - start));
    }
    nfy_source_release(&src);
    free(text);
}

/* 200,000 findings on one 4 MB line: each column decodes a bounded number
 * of bytes, so the whole line costs O(findings + length), not O(N^2). */
static void test_source_columns_linear(void **state)
{
    (void)state;
    size_t n = (size_t)4 << 20;
    char *text = mixed_line(n);
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "long.py", text, n), NFY_OK);
    size_t scanned = 0, calls = 200000;
    for (size_t i = 0; i < calls; i++) {
        uint32_t off = (uint32_t)(i * (n / calls));
        size_t before = scanned;
        size_t cp = nfy_source_codepoints(&src, off, &scanned);
        assert_true(scanned - before <= 2 * NFY_SOURCE_CP_BLOCK + 3);
        if (i % 9973 == 0)
            assert_int_equal(cp, nfy_utf8_count(text, off));
    }
    assert_true(scanned <= calls * (2 * NFY_SOURCE_CP_BLOCK + 3));
    nfy_source_release(&src);
    free(text);
}

static nfy_status collect(void *ctx, const char *data, size_t len)
{
    return nfy_buf_add(ctx, data, len);
}

/* A buffer with a sink holds at most one block: the bytes reach the sink
 * in order, and the sink's error sticks. */
static void test_buf_sink(void **state)
{
    (void)state;
    nfy_buf all = NFY_BUF_INIT, b = NFY_BUF_INIT;
    b.sink = collect;
    b.sink_ctx = &all;
    size_t held = 0;
    for (int i = 0; i < 200000; i++) {
        assert_int_equal(nfy_buf_addf(&b, "%d,", i), NFY_OK);
        held = b.len > held ? b.len : held;
    }
    assert_int_equal(nfy_buf_flush(&b), NFY_OK);
    assert_int_equal(b.len, 0);
    assert_true(held <= NFY_BUF_SINK_AT);
    assert_true(all.len > 4 * NFY_BUF_SINK_AT);
    char expect[16];
    snprintf(expect, sizeof expect, "%d,", 199999);
    assert_memory_equal(all.data + all.len - strlen(expect), expect,
                        strlen(expect));
    assert_memory_equal(all.data, "0,1,2,", 6);
    all.max = all.len; /* the sink now fails: the error sticks */
    assert_int_equal(nfy_buf_add(&b, "x", 1), NFY_OK);
    assert_int_equal(nfy_buf_flush(&b), NFY_ELIMIT);
    assert_int_equal(nfy_buf_add(&b, "x", 1), NFY_ELIMIT);
    nfy_buf_release(&b);
    nfy_buf_release(&all);
}

/* The inline fast path of the appends decides exactly as the slow one:
 * at the memory held, at the cap (also when the memory held is above it or
 * the cap is lowered later), on a sticky error; the text stays
 * NUL-terminated through all of it. */
static void test_buf_fast_edges(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT;
    for (int i = 0; i < 63; i++)
        assert_int_equal(nfy_buf_addch(&b, 'a'), NFY_OK);
    assert_int_equal(b.cap, 64); /* full: the next byte grows it */
    assert_int_equal(nfy_buf_addch(&b, 'b'), NFY_OK);
    assert_int_equal(b.len, 64);
    assert_true(b.cap > 65);
    assert_int_equal(b.data[64], '\0');
    assert_int_equal(b.data[63], 'b');
    nfy_buf_release(&b);

    nfy_buf capped;
    nfy_buf_init(&capped, 100);
    char block[70];
    memset(block, 'x', sizeof block);
    assert_int_equal(nfy_buf_add(&capped, block, 70), NFY_OK);
    assert_true(capped.cap > 101); /* room past the cap */
    assert_int_equal(nfy_buf_add(&capped, block, 30), NFY_OK);
    assert_int_equal(capped.len, 100);
    assert_int_equal(nfy_buf_addch(&capped, 'y'), NFY_ELIMIT);
    assert_int_equal(capped.len, 100);
    assert_int_equal(capped.data[100], '\0');
    /* sticky: every kind of append now fails and adds nothing */
    assert_int_equal(nfy_buf_addstr(&capped, ""), NFY_ELIMIT);
    assert_int_equal(nfy_buf_addview(&capped, NFY_STR_LIT("z")), NFY_ELIMIT);
    assert_int_equal(nfy_buf_addu(&capped, 5), NFY_ELIMIT);
    assert_int_equal(nfy_buf_addf(&capped, "%d", 5), NFY_ELIMIT);
    assert_int_equal(capped.len, 100);
    assert_int_equal(strlen(nfy_buf_cstr(&capped)), 100);
    nfy_buf_reset(&capped);
    assert_int_equal(nfy_buf_add(&capped, block, 50), NFY_OK);
    capped.max = 50; /* lowered below the memory held */
    assert_int_equal(nfy_buf_addch(&capped, 'y'), NFY_ELIMIT);
    assert_int_equal(capped.len, 50);
    nfy_buf_release(&capped);
}

static void test_buf_addu_addf(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(nfy_buf_addu(&b, 0), NFY_OK);
    nfy_buf_addch(&b, ',');
    nfy_buf_addu(&b, 7);
    nfy_buf_addch(&b, ',');
    nfy_buf_addu(&b, 10);
    nfy_buf_addch(&b, ',');
    nfy_buf_addu(&b, 18446744073709551615ull);
    assert_string_equal(nfy_buf_cstr(&b), "0,7,10,18446744073709551615");
    nfy_buf_release(&b);

    /* formatted text that just fits the room, and text that does not */
    for (size_t fill = 56; fill < 64; fill++) {
        nfy_buf f = NFY_BUF_INIT;
        char pre[64];
        memset(pre, 'p', fill);
        nfy_buf_add(&f, pre, fill);
        assert_int_equal(f.cap, 64);
        assert_int_equal(nfy_buf_addf(&f, "<%s:%d>", "abc", 42), NFY_OK);
        assert_int_equal(f.len, fill + 8);
        assert_memory_equal(f.data + fill, "<abc:42>", 9); /* with the NUL */
        nfy_buf_release(&f);
    }
    /* a format past the cap fails and leaves the text as it was */
    nfy_buf c;
    nfy_buf_init(&c, 10);
    nfy_buf_addstr(&c, "12345678");
    assert_int_equal(nfy_buf_addf(&c, "%s", "abc"), NFY_ELIMIT);
    assert_string_equal(nfy_buf_cstr(&c), "12345678");
    assert_int_equal(c.len, 8);
    nfy_buf_release(&c);
}

/* A flush happens when a byte would fill the block, before it is added,
 * whichever append brings it (the fast path included). */
static void test_buf_sink_boundary(void **state)
{
    (void)state;
    for (int how = 0; how < 3; how++) {
        nfy_buf all = NFY_BUF_INIT, b = NFY_BUF_INIT;
        b.sink = collect;
        b.sink_ctx = &all;
        /* memory past the block: only the sink rule stops the fast path */
        assert_int_equal(nfy_buf_reserve(&b, NFY_BUF_SINK_AT + 64), NFY_OK);
        for (size_t i = 0; i + 1 < NFY_BUF_SINK_AT; i++)
            assert_int_equal(nfy_buf_addch(&b, (char)('a' + i % 26)), NFY_OK);
        assert_int_equal(all.len, 0);
        assert_int_equal(b.len, NFY_BUF_SINK_AT - 1);
        if (how == 0)
            assert_int_equal(nfy_buf_addch(&b, '!'), NFY_OK);
        else if (how == 1)
            assert_int_equal(nfy_buf_add(&b, "!", 1), NFY_OK);
        else
            assert_int_equal(nfy_buf_addf(&b, "%c", '!'), NFY_OK);
        assert_int_equal(all.len, NFY_BUF_SINK_AT - 1);
        assert_string_equal(nfy_buf_cstr(&b), "!");
        assert_int_equal(nfy_buf_flush(&b), NFY_OK);
        assert_int_equal(all.len, NFY_BUF_SINK_AT);
        assert_int_equal(all.data[all.len - 1], '!');
        nfy_buf_release(&b);
        nfy_buf_release(&all);
    }
}

static void test_diag_render(void **state)
{
    (void)state;
    nfy_source src;
    const char text[] = "import torch\nx = torch.cuda.foo()\n";
    assert_int_equal(nfy_source_from_mem(&src, "m.py", text, sizeof text - 1),
                     NFY_OK);
    nfy_diags d;
    nfy_diags_init(&d);
    nfy_diag_add(&d, NFY_SEV_WARNING, "NPU201", &src, 17, 10, "no %s", "foo");
    nfy_source_release(&src); /* rendering must not need the source */
    nfy_buf out = NFY_BUF_INIT;
    nfy_diag_render_text(&d.items.items[0], false, &out);
    assert_string_equal(nfy_buf_cstr(&out),
                        "m.py:2:5: warning[NPU201]: no foo\n"
                        " x = torch.cuda.foo()\n"
                        "     ^~~~~~~~~~\n");
    nfy_buf_reset(&out);
    nfy_diag_render_json(&d.items.items[0], &out);
    assert_string_equal(nfy_buf_cstr(&out),
                        "{\"file\": \"m.py\", \"line\": 2, \"col\": 5, "
                        "\"severity\": \"warning\", \"code\": \"NPU201\", "
                        "\"message\": \"no foo\"}");
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_ERROR), 0);
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_NOTE), 1);
    nfy_buf_release(&out);
    nfy_diags_release(&d);
}

static void test_diag_cap(void **state)
{
    (void)state;
    nfy_diags d;
    nfy_diags_init(&d);
    d.max = 2;
    for (int i = 0; i < 5; i++)
        nfy_diag_add_at(&d, NFY_SEV_ERROR, "x", "f", 1, 0, "%d", i);
    assert_int_equal(d.items.len, 2);
    assert_int_equal(d.dropped, 3);
    nfy_diags_release(&d);
}

/* Appending copies the texts (the source may go away) and keeps the cap. */
static void test_diags_append(void **state)
{
    (void)state;
    nfy_diags src, dst;
    nfy_diags_init(&src);
    nfy_diags_init(&dst);
    nfy_diag_add_at(&src, NFY_SEV_WARNING, "w", "a.py", 3, 4, "one");
    nfy_diag_add_at(&src, NFY_SEV_ERROR, "e", NULL, 0, 0, "two");
    nfy_diag_add_at(&src, NFY_SEV_NOTE, "n", "b.py", 1, 0, "three");
    dst.max = 2;
    nfy_diag_add_at(&dst, NFY_SEV_NOTE, "first", "x.py", 1, 0, "kept");
    nfy_diags_append(&dst, &src, 0, 2);
    nfy_diags_release(&src);
    assert_int_equal(dst.items.len, 2);
    assert_int_equal(dst.dropped, 1);
    const nfy_diag *dg = &dst.items.items[1];
    assert_string_equal(dg->code, "w");
    assert_string_equal(dg->file, "a.py");
    assert_string_equal(dg->msg, "one");
    assert_int_equal(dg->line, 3);
    assert_int_equal(dg->col, 4);
    assert_null(dg->line_text.ptr);
    nfy_diags_release(&dst);
}

static void test_escape(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT;
    nfy_json_escape(&b, "a\"b\\\n\x01\xC3\xA9\xFF", 9);
    assert_string_equal(nfy_buf_cstr(&b),
                        "\"a\\\"b\\\\\\n\\u0001\xC3\xA9\xEF\xBF\xBD\"");
    nfy_buf_reset(&b);
    nfy_csv_escape(&b, "plain", 5);
    nfy_buf_addch(&b, '|');
    nfy_csv_escape(&b, "a,\"b\"", 5);
    assert_string_equal(nfy_buf_cstr(&b), "plain|\"a,\"\"b\"\"\"");
    nfy_buf_reset(&b);
    nfy_html_escape(&b, "<a href='x'>&\"\t\n\x00\x1b\x7f\xC3\xA9", 21);
    assert_string_equal(nfy_buf_cstr(&b),
                        "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\t\n"
                        "&#xFFFD;&#xFFFD;&#xFFFD;\xC3\xA9");
    nfy_buf_release(&b);
}

/* The escapers as first written, a byte at a time: what the run-copying
 * ones must match byte for byte. */
static void ref_json(nfy_buf *out, const char *s, size_t n)
{
    nfy_buf_addch(out, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t k = c >= 0x80 ? nfy_utf8_decode(s + i, n - i, &cp) : 0;
        if (k) {
            nfy_buf_add(out, s + i, k);
            i += k;
            continue;
        }
        if (c >= 0x80)
            nfy_buf_addstr(out, "\xEF\xBF\xBD");
        else if (c == '"' || c == '\\')
            nfy_buf_addf(out, "\\%c", c);
        else if (c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f')
            nfy_buf_addf(out, "\\%c",
                         c == '\n'   ? 'n'
                         : c == '\r' ? 'r'
                         : c == '\t' ? 't'
                         : c == '\b' ? 'b'
                                     : 'f');
        else if (c < 0x20)
            nfy_buf_addf(out, "\\u%04x", c);
        else
            nfy_buf_addch(out, (char)c);
        i++;
    }
    nfy_buf_addch(out, '"');
}

static void ref_csv(nfy_buf *out, const char *s, size_t n)
{
    bool quote = n && (s[0] == ' ' || s[n - 1] == ' ');
    for (size_t i = 0; i < n; i++)
        quote |= s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (quote)
        nfy_buf_addch(out, '"');
    for (size_t i = 0; i < n; i++) {
        if (quote && s[i] == '"')
            nfy_buf_addch(out, '"');
        nfy_buf_addch(out, s[i]);
    }
    if (quote)
        nfy_buf_addch(out, '"');
}

static void ref_html(nfy_buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *rep =
            c == '&'    ? "&amp;"
            : c == '<'  ? "&lt;"
            : c == '>'  ? "&gt;"
            : c == '"'  ? "&quot;"
            : c == '\'' ? "&#39;"
            : (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f
                ? "&#xFFFD;"
                : NULL;
        if (rep)
            nfy_buf_addstr(out, rep);
        else
            nfy_buf_addch(out, (char)c);
    }
}

typedef void (*escape_fn)(nfy_buf *out, const char *s, size_t n);

/* Random text rich in what the escapers treat specially. */
static size_t random_text(char *t, size_t cap, unsigned *seed)
{
    static const char *const pieces[] = {"a",
                                         "plain words",
                                         "\"",
                                         "\\",
                                         "\n",
                                         "\r\n",
                                         "\r",
                                         ",",
                                         " ",
                                         "|",
                                         "<",
                                         ">",
                                         "&",
                                         "'",
                                         "\t",
                                         "\x01",
                                         "\x1f",
                                         "\x7f",
                                         "\b",
                                         "\f",
                                         "\0",
                                         "\xC3\xA9",
                                         "\xE2\x80\xA6",
                                         "\xF0\x9F\x98\x80",
                                         "\xE2\x80",
                                         "\xFF",
                                         "\xC0\x80",
                                         "\xED\xA0\x80",
                                         "`"};
    size_t n = 0, np = sizeof pieces / sizeof pieces[0];
    size_t want = (*seed = *seed * 1103515245u + 12345u) >> 16 & 63;
    while (want--) {
        *seed = *seed * 1103515245u + 12345u;
        const char *p = pieces[(*seed >> 16) % np];
        size_t k = *p ? strlen(p) : 1; /* "\0" is one NUL byte */
        if (n + k > cap)
            break;
        memcpy(t + n, p, k);
        n += k;
    }
    return n;
}

/* File names: escaped so that every byte string comes back (random bytes,
 * 3000 rounds), two names never share an escape, and the escape is plain
 * printable text without bidi controls. */
static void test_name_escape(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT, back = NFY_BUF_INIT;
    nfy_name_escape(&b, "bad\xff.py", 7);
    assert_string_equal(nfy_buf_cstr(&b), "bad\\xff.py");
    nfy_buf_reset(&b);
    nfy_name_escape(&b, "a\xff\xfe\\b\n\xe2\x80\xae\xc3\xa9", 11);
    assert_string_equal(nfy_buf_cstr(&b),
                        "a\\xff\\xfe\\\\b\\x0a\\xe2\\x80\\xae\xc3\xa9");
    nfy_buf tmp = NFY_BUF_INIT;
    const char *plain = "dir/train.py";
    assert_ptr_equal(nfy_name_shown(&tmp, plain), plain);
    assert_false(nfy_name_unescape(&back, "a\\q", 3));
    unsigned seed = 11;
    char text[64];
    for (int round = 0; round < 3000; round++) {
        size_t n = (size_t)(rand_r(&seed) % (int)sizeof text);
        for (size_t i = 0; i < n; i++)
            text[i] = (char)(rand_r(&seed) % 4
                                 ? "ab\\\xff\xe2\x80\xae\xc3"[rand_r(&seed) % 8]
                                 : rand_r(&seed));
        nfy_buf_reset(&b);
        nfy_buf_reset(&back);
        nfy_name_escape(&b, text, n);
        for (size_t i = 0; i < b.len; i++)
            assert_true((unsigned char)b.data[i] >= 0x20);
        assert_null(b.len >= 3 ? strstr(nfy_buf_cstr(&b), "\xE2\x80\xAE")
                               : NULL);
        assert_true(nfy_name_unescape(&back, b.data ? b.data : "", b.len));
        assert_int_equal(back.len, n);
        assert_memory_equal(back.len ? back.data : "", text, n);
    }
    nfy_buf_reset(&b);
    nfy_bidi_visible(&b, "x\xe2\x80\xaey\xe2\x81\xa6", 8);
    assert_string_equal(nfy_buf_cstr(&b), "x\xe2\x9f\xa6U+202E\xe2\x9f\xa7y"
                                          "\xe2\x9f\xa6U+2066\xe2\x9f\xa7");
    nfy_buf_release(&tmp);
    nfy_buf_release(&back);
    nfy_buf_release(&b);
}

static void test_escape_matches_reference(void **state)
{
    (void)state;
    static const escape_fn fast[] = {nfy_json_escape, nfy_csv_escape,
                                     nfy_html_escape};
    static const escape_fn ref[] = {ref_json, ref_csv, ref_html};
    unsigned seed = 7;
    char text[512];
    for (int round = 0; round < 3000; round++) {
        size_t n = random_text(text, sizeof text, &seed);
        for (int e = 0; e < 3; e++) {
            nfy_buf want = NFY_BUF_INIT, got = NFY_BUF_INIT;
            ref[e](&want, text, n);
            fast[e](&got, text, n);
            assert_int_equal(got.len, want.len);
            assert_memory_equal(nfy_buf_cstr(&got), nfy_buf_cstr(&want),
                                want.len + 1);
            /* under a cap: the same verdict, and a prefix of the text */
            nfy_buf capped;
            nfy_buf_init(&capped, want.len / 2 + 1);
            fast[e](&capped, text, n);
            assert_int_equal(capped.status,
                             want.len > capped.max ? NFY_ELIMIT : NFY_OK);
            assert_true(capped.len <= want.len);
            assert_memory_equal(nfy_buf_cstr(&capped), want.data, capped.len);
            assert_int_equal(nfy_buf_cstr(&capped)[capped.len], '\0');
            nfy_buf_release(&capped);
            nfy_buf_release(&want);
            nfy_buf_release(&got);
        }
    }
}

static void test_atomic_write(void **state)
{
    (void)state;
    char dir[] = "/tmp/nfy-core-XXXXXX";
    assert_non_null(mkdtemp(dir));
    nfy_arena a = NFY_ARENA_INIT;
    const char *sub = nfy_path_join(&a, dir, "x/y");
    assert_int_equal(nfy_mkdirs(sub, 0755), NFY_OK);
    const char *f = nfy_path_join(&a, sub, "f.py");
    assert_int_equal(nfy_file_write_atomic(f, "one", 3, 0600), NFY_OK);
    assert_int_equal(nfy_file_write_atomic(f, "two!", 4, 0644), NFY_OK);
    struct stat st;
    assert_int_equal(stat(f, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600); /* existing mode kept */
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(nfy_file_read(f, 100, &b), NFY_OK);
    assert_string_equal(nfy_buf_cstr(&b), "two!");
    nfy_buf_reset(&b);
    assert_int_equal(nfy_file_read(f, 2, &b), NFY_ELIMIT);
    nfy_buf_release(&b);
    assert_int_equal(nfy_file_read(nfy_path_join(&a, dir, "none"), 9, &b),
                     NFY_ENOENT);
    /* A write into a missing directory fails and leaves nothing behind. */
    assert_int_not_equal(
        nfy_file_write_atomic(nfy_path_join(&a, dir, "no/f"), "x", 1, 0644),
        NFY_OK);
    assert_string_equal(nfy_path_join(&a, "a//", "b"), "a/b");
    unlink(f);
    rmdir(sub);
    rmdir(nfy_path_join(&a, dir, "x"));
    rmdir(dir);
    nfy_arena_release(&a);
}

/* Writes never go through a link below the root, never leave a temporary,
 * and the temporary's name does not grow with the target's. */
static void test_write_at_guards(void **state)
{
    (void)state;
    char dir[] = "/tmp/nfy-fs-XXXXXX";
    assert_non_null(mkdtemp(dir));
    nfy_arena a = NFY_ARENA_INIT;
    const char *other = nfy_path_join(&a, dir, "other");
    assert_int_equal(nfy_mkdirs(nfy_path_join(&a, dir, "out/real"), 0755),
                     NFY_OK);
    assert_int_equal(nfy_mkdirs(other, 0755), NFY_OK);
    assert_int_equal(symlink(other, nfy_path_join(&a, dir, "out/link")), 0);
    int fd = -1;
    const char *out = nfy_path_join(&a, dir, "out");
    assert_int_equal(nfy_dir_open_beneath(out, "link", &fd), NFY_ESYMLINK);
    assert_int_equal(nfy_dir_open_beneath(out, "real", &fd), NFY_OK);
    /* A 252-byte name: the file fits, "NAME.orig" does not. */
    char name[253];
    memset(name, 'n', 252);
    name[252] = '\0';
    nfy_write_opts w = {.mode = 0640};
    assert_int_equal(nfy_file_write_at(fd, name, "x", 1, &w), NFY_OK);
    char bak[260];
    snprintf(bak, sizeof bak, "%s.orig", name);
    assert_int_equal(nfy_file_write_at(fd, bak, "x", 1, &w), NFY_ENAMETOOLONG);
    assert_int_equal(nfy_mkdir_at(fd, name, 0755), NFY_ENOTDIR);
    close(fd);
    int root = -1;
    assert_int_equal(nfy_dir_open_beneath(out, "", &root), NFY_OK);
    assert_int_equal(nfy_mkdir_at(root, "link", 0755), NFY_ESYMLINK);
    /* A link at the target's name is replaced, its target untouched. */
    assert_int_equal(nfy_file_write_at(root, "link", "y", 1, &w), NFY_OK);
    struct stat st;
    assert_int_equal(lstat(nfy_path_join(&a, out, "link"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0640);
    close(root);
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(nfy_file_read(nfy_path_join(&a, out, "real"), 9, &b),
                     NFY_EISDIR);
    const char *fifo = nfy_path_join(&a, dir, "fifo");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(nfy_file_read(fifo, 9, &b), NFY_ENOTREG);
    nfy_buf_release(&b);
    assert_true(nfy_is_temp_name(".npuify-aB3dE9"));
    assert_true(nfy_is_temp_name(".train.py.npuify-Qx12Zz"));
    assert_false(nfy_is_temp_name(".npuify-notes"));
    assert_false(nfy_is_temp_name("a.npuify-abcdef"));
    assert_false(nfy_is_temp_name(".npuify-ab_def"));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "find '%s' -name '.npuify-*' | grep -q .", dir);
    assert_int_not_equal(system(cmd), 0); /* no temporary left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    nfy_arena_release(&a);
}

/* NFY_WRITE_NEW: a new name gets the whole file with its mode; a taken
 * one (a file, a link) is replaced as by a temporary, the file's mode kept
 * and the link's target untouched; copies come from offset 0. */
static void test_write_new(void **state)
{
    (void)state;
    char dir[] = "/tmp/nfy-new-XXXXXX";
    assert_non_null(mkdtemp(dir));
    nfy_arena a = NFY_ARENA_INIT;
    int fd = -1;
    assert_int_equal(nfy_dir_open_beneath(dir, "", &fd), NFY_OK);
    mode_t um;
    assert_true(nfy_umask_get(&um));
    mode_t old_um = umask(um); /* unchanged: nfy_umask_get read it right */
    assert_int_equal(old_um, um);
    nfy_write_opts w = {.mode = 0751, .flags = NFY_WRITE_NEW};
    assert_int_equal(nfy_file_write_at(fd, "new", "abc", 3, &w), NFY_OK);
    struct stat st;
    assert_int_equal(fstatat(fd, "new", &st, 0), 0);
    assert_int_equal(st.st_mode & 07777, 0751);
    assert_int_equal(st.st_size, 3);
    const char *victim = nfy_path_join(&a, dir, "victim");
    assert_int_equal(nfy_file_write_atomic(victim, "keep", 4, 0600), NFY_OK);
    assert_int_equal(symlinkat(victim, fd, "link"), 0);
    assert_int_equal(nfy_file_write_at(fd, "link", "xy", 2, &w), NFY_OK);
    assert_int_equal(fstatat(fd, "link", &st, AT_SYMLINK_NOFOLLOW), 0);
    assert_true(S_ISREG(st.st_mode));
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(nfy_file_read(victim, 9, &b), NFY_OK);
    assert_string_equal(nfy_buf_cstr(&b), "keep");
    /* A file replaced keeps its mode; a copy takes the source's. */
    nfy_write_opts w2 = {.mode = 0644, .flags = NFY_WRITE_NEW};
    assert_int_equal(nfy_file_write_at(fd, "new", "abcd", 4, &w2), NFY_OK);
    assert_int_equal(fstatat(fd, "new", &st, 0), 0);
    assert_int_equal(st.st_mode & 07777, 0751);
    assert_int_equal(st.st_size, 4);
    int in = -1;
    assert_int_equal(nfy_file_open_read(victim, &in, &st), NFY_OK);
    char head[2];
    size_t got = 0;
    assert_int_equal(nfy_file_head_fd(in, head, sizeof head, &got), NFY_OK);
    assert_int_equal(got, 2);
    nfy_write_opts wc = {.mode = 0644, .flags = NFY_WRITE_NEW};
    assert_int_equal(nfy_file_copy_fd_at(in, &st, fd, "new", &wc), NFY_OK);
    assert_int_equal(nfy_file_copy_fd_at(in, &st, fd, "copy", &wc), NFY_OK);
    close(in);
    nfy_buf_reset(&b);
    assert_int_equal(nfy_file_read(nfy_path_join(&a, dir, "new"), 9, &b),
                     NFY_OK);
    assert_string_equal(nfy_buf_cstr(&b), "keep");
    assert_int_equal(fstatat(fd, "new", &st, 0), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(fstatat(fd, "copy", &st, 0), 0);
    assert_int_equal(st.st_mode & 07777, 0600); /* the source's */
    assert_int_equal(st.st_size, 4);
    nfy_buf_release(&b);
    close(fd);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "find '%s' -name '.npuify-*' | grep -q .", dir);
    assert_int_not_equal(system(cmd), 0); /* no temporary left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    nfy_arena_release(&a);
}

/* A diagnostic on a huge line keeps a window around the column. */
static void test_diag_long_line(void **state)
{
    (void)state;
    size_t n = 1 << 20;
    char *text = malloc(n + 8);
    assert_non_null(text);
    memset(text, 'a', n);
    memcpy(text + n / 2, "\xc3\xa9X", 3); /* a 2-byte code point, then X */
    text[n] = '\n';
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "f.py", text, n + 1), NFY_OK);
    nfy_diags d;
    nfy_diags_init(&d);
    uint32_t at = (uint32_t)(n / 2 + 2);
    nfy_diag_add(&d, NFY_SEV_ERROR, "E", &src, at, 1, "here");
    const nfy_diag *dg = &d.items.items[0];
    assert_int_equal(dg->col, at - 1); /* the real column (code points) */
    assert_true(dg->line_text.len < 200);
    nfy_buf out = NFY_BUF_INIT;
    nfy_diag_render_text(dg, false, &out);
    assert_true(out.len < 500);
    /* The caret is under the X. */
    const char *line = strchr(nfy_buf_cstr(&out), '\n') + 1;
    const char *caret = strchr(line, '\n') + 1;
    size_t xpos = (size_t)(strchr(line, 'X') - line);
    size_t cpos = (size_t)(strchr(caret, '^') - caret);
    assert_int_equal(cpos + 1, xpos); /* the e-acute is 2 bytes, 1 column */
    nfy_buf_release(&out);
    nfy_diags_release(&d);
    nfy_source_release(&src);
    free(text);
}

typedef struct {
    nfy_buf seen;
} walk_ctx;

static int record(void *ctx, const nfy_walk_entry *e)
{
    walk_ctx *w = ctx;
    nfy_buf_addf(&w->seen, "%c:%s\n", "FLDSE"[e->kind], e -> rel);
    return 0;
}

static void test_walk(void **state)
{
    (void)state;
    char dir[] = "/tmp/nfy-walk-XXXXXX";
    assert_non_null(mkdtemp(dir));
    nfy_arena a = NFY_ARENA_INIT;
    assert_int_equal(nfy_mkdirs(nfy_path_join(&a, dir, "b/.git"), 0755),
                     NFY_OK);
    assert_int_equal(nfy_mkdirs(nfy_path_join(&a, dir, "out"), 0755), NFY_OK);
    assert_int_equal(
        nfy_file_write_atomic(nfy_path_join(&a, dir, "b/z.py"), "", 0, 0644),
        NFY_OK);
    assert_int_equal(
        nfy_file_write_atomic(nfy_path_join(&a, dir, "a.py"), "", 0, 0644),
        NFY_OK);
    /* A symlink loop must be reported, not followed. */
    assert_int_equal(symlink(".", nfy_path_join(&a, dir, "b/loop")), 0);
    /* A FIFO is reported as such (never opened: the walk would hang). */
    assert_int_equal(mkfifo(nfy_path_join(&a, dir, "b/fifo"), 0644), 0);
    const char *skip[] = {".git", NULL};
    nfy_walk_opts opts = {skip, nfy_path_join(&a, dir, "out")};
    walk_ctx w = {NFY_BUF_INIT};
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_walk(dir, &opts, record, &w, &d), NFY_OK);
    assert_string_equal(nfy_buf_cstr(&w.seen), "F:a.py\nD:b\nS:b/fifo\n"
                                               "L:b/loop\nF:b/z.py\n");
    nfy_buf_release(&w.seen);
    nfy_diags_release(&d);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    nfy_arena_release(&a);
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(nfy_status_name(NFY_ELIMIT), "ELIMIT");
    assert_string_equal(nfy_status_str(NFY_ENOENT),
                        "no such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_str_ops),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_arena_packing),
        cmocka_unit_test(test_buf),
        cmocka_unit_test(test_vec),
        cmocka_unit_test(test_source_columns_exact),
        cmocka_unit_test(test_buf_sink),
        cmocka_unit_test(test_buf_fast_edges),
        cmocka_unit_test(test_buf_addu_addf),
        cmocka_unit_test(test_buf_sink_boundary),
        cmocka_unit_test(test_source_columns_linear),
        cmocka_unit_test(test_source_lines),
        cmocka_unit_test(test_source_line_table_blocks),
        cmocka_unit_test(test_diag_render),
        cmocka_unit_test(test_diag_cap),
        cmocka_unit_test(test_diags_append),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_escape_matches_reference),
        cmocka_unit_test(test_name_escape),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_write_at_guards),
        cmocka_unit_test(test_write_new),
        cmocka_unit_test(test_diag_long_line),
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
