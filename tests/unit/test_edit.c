/*
 * Unit tests for edit sets: bounds checks, overlap rejection, duplicate
 * merging, one-pass apply, offset mapping, the inverse property on seeded
 * random edits, and the unified diff (fixed expectations plus `patch -p1`
 * applying random diffs back to the edited text).
 */
/* cmocka.h needs these first, in this order. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
/* clang-format on */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit/edit.h"

typedef struct {
    nfy_source src;
    nfy_edit_set set;
    nfy_diags diags;
    nfy_buf out;
} fixture;

static void fx_init(fixture *f, const char *text)
{
    memset(f, 0, sizeof *f);
    assert_int_equal(nfy_source_from_mem(&f->src, "t.py", text, strlen(text)),
                     NFY_OK);
    nfy_edit_set_init(&f->set, &f->src);
    nfy_diags_init(&f->diags);
    nfy_buf_init(&f->out, 0);
}

static void fx_release(fixture *f)
{
    nfy_buf_release(&f->out);
    nfy_diags_release(&f->diags);
    nfy_edit_set_release(&f->set);
    nfy_source_release(&f->src);
}

static void add(fixture *f, uint32_t s, uint32_t e, const char *text,
                const char *rule)
{
    assert_int_equal(nfy_edit_set_add(&f->set, s, e, nfy_str_from_cstr(text),
                                      rule, "note", &f->diags),
                     NFY_OK);
}

static const char *applied(fixture *f)
{
    nfy_buf_reset(&f->out);
    assert_int_equal(nfy_edit_set_apply(&f->set, &f->diags, &f->out), NFY_OK);
    return nfy_buf_cstr(&f->out);
}

static void test_add_rejects_bad_ranges(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "abc\n");
    assert_int_equal(
        nfy_edit_set_add(&f.set, 2, 1, NFY_STR_LIT("x"), "R1", NULL, &f.diags),
        NFY_EUSAGE);
    assert_int_equal(
        nfy_edit_set_add(&f.set, 0, 5, NFY_STR_LIT("x"), "R2", NULL, &f.diags),
        NFY_EUSAGE);
    assert_int_equal(f.set.edits.len, 0);
    assert_int_equal(nfy_diags_count(&f.diags, NFY_SEV_ERROR), 2);
    assert_string_equal(f.diags.items.items[0].code, "edit-range");
    /* The end of the file itself is a valid insertion point. */
    add(&f, 4, 4, "y\n", "R3");
    assert_string_equal(applied(&f), "abc\ny\n");
    fx_release(&f);
}

static void test_apply_sorted_one_pass(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "x = a.cuda()\ny = 'cuda'\n");
    add(&f, 18, 22, "npu", "NPU102");
    add(&f, 6, 10, "npu", "NPU101");
    add(&f, 0, 0, "import torch_npu\n", "NPU001");
    assert_string_equal(applied(&f),
                        "import torch_npu\nx = a.npu()\ny = 'npu'\n");
    assert_int_equal(f.set.edits.items[0].span.start, 0);
    assert_string_equal(f.set.edits.items[1].rule, "NPU101");
    assert_int_equal(nfy_edit_set_result_len(&f.set, NULL),
                     strlen(nfy_buf_cstr(&f.out)));
    fx_release(&f);
}

static void test_overlap_dropped_with_diag(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "abcdef\nghij\n");
    add(&f, 1, 4, "X", "R1");
    add(&f, 3, 5, "Y", "R2");
    assert_int_equal(nfy_edit_set_normalize(&f.set, &f.diags), NFY_ERULE);
    assert_int_equal(f.set.edits.len, 1);
    assert_int_equal(f.set.dropped, 1);
    const nfy_diag *d = &f.diags.items.items[0];
    assert_string_equal(d->code, "edit-overlap");
    assert_int_equal(d->line, 1);
    assert_int_equal(d->col, 3);
    assert_non_null(strstr(d->msg, "R2"));
    assert_non_null(strstr(d->msg, "1:1"));
    assert_non_null(strstr(d->msg, "R1"));
    assert_string_equal(applied(&f), "aXef\nghij\n");
    /* A second normalize with nothing new reports nothing again. */
    assert_int_equal(nfy_edit_set_normalize(&f.set, &f.diags), NFY_OK);
    assert_int_equal(nfy_diags_count(&f.diags, NFY_SEV_NOTE), 1);
    fx_release(&f);
}

static void test_insert_inside_vs_at_edges(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "0123456789");
    add(&f, 2, 6, "R", "REP");
    add(&f, 4, 4, "in", "INSIDE"); /* strictly inside: dropped */
    add(&f, 2, 2, "<", "AT-START");
    add(&f, 6, 6, ">", "AT-END");
    assert_int_equal(nfy_edit_set_normalize(&f.set, &f.diags), NFY_ERULE);
    assert_string_equal(applied(&f), "01<R>6789");
    assert_int_equal(f.set.edits.len, 3);
    fx_release(&f);
}

static void test_duplicates_merged_and_order_kept(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "import torch\nx\n");
    add(&f, 13, 13, "import torch_npu\n", "NPU001");
    add(&f, 13, 13, "A\n", "OTHER");
    add(&f, 13, 13, "import torch_npu\n", "NPU001b");
    add(&f, 13, 14, "y", "R");
    add(&f, 13, 14, "y", "R-again");
    assert_int_equal(nfy_edit_set_normalize(&f.set, &f.diags), NFY_OK);
    assert_int_equal(f.set.edits.len, 3);
    assert_string_equal(applied(&f), "import torch\nimport torch_npu\nA\ny\n");
    assert_int_equal(nfy_diags_count(&f.diags, NFY_SEV_NOTE), 0);
    fx_release(&f);
}

static void test_map_offset(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "aaaa.cuda()\nbb\n");
    add(&f, 0, 0, "#x\n", "I");
    add(&f, 5, 9, "npu", "M");
    assert_int_equal(nfy_edit_set_map_offset(&f.set, 0), 3);
    assert_int_equal(nfy_edit_set_map_offset(&f.set, 5), 8);
    assert_int_equal(nfy_edit_set_map_offset(&f.set, 7), 8);
    assert_int_equal(nfy_edit_set_map_offset(&f.set, 9), 11);
    assert_int_equal(nfy_edit_set_map_offset(&f.set, 12), 14);
    const char *out = applied(&f);
    assert_int_equal(out[14], 'b');
    fx_release(&f);
}

/* ---- random edits: inverse property and patch round trip ------------- */

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: deterministic for a seed, good enough for tests. */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static uint32_t rng_below(uint64_t *s, uint32_t n)
{
    return n ? (uint32_t)(rng_next(s) % n) : 0;
}

static const char *const pieces[] = {"a",    "b",  "\n",  "\r\n", " ",
                                     "cuda", "\t", "x\n", "\r",   "é"};

static void random_text(uint64_t *s, nfy_buf *b, size_t max_pieces)
{
    size_t n = rng_below(s, (uint32_t)max_pieces + 1);
    for (size_t i = 0; i < n; i++)
        nfy_buf_addstr(b, pieces[rng_below(s, 10)]);
    if (!b->data)
        nfy_buf_add(b, "", 0);
}

static void random_edits(uint64_t *s, nfy_edit_set *set, size_t len)
{
    size_t n = rng_below(s, 8);
    for (size_t i = 0; i < n; i++) {
        uint32_t a = rng_below(s, (uint32_t)len + 1);
        uint32_t b = a + rng_below(s, (uint32_t)(len - a) + 1);
        if (rng_below(s, 3) == 0)
            b = a;
        if (rng_below(s, 3) == 0 && b > a + 3)
            b = a + 3;
        nfy_buf t = NFY_BUF_INIT;
        random_text(s, &t, 4);
        assert_int_equal(
            nfy_edit_set_add(set, a, b, nfy_buf_view(&t), "RND", NULL, NULL),
            NFY_OK);
        nfy_buf_release(&t);
    }
}

static void check_inverse(uint64_t *seed)
{
    nfy_buf text = NFY_BUF_INIT, out = NFY_BUF_INIT, back = NFY_BUF_INIT;
    random_text(seed, &text, 40);
    nfy_source src, edited;
    assert_int_equal(nfy_source_from_mem(&src, "r", text.data, text.len),
                     NFY_OK);
    nfy_edit_set set, inv;
    nfy_edit_set_init(&set, &src);
    random_edits(seed, &set, src.len);
    assert_int_equal(nfy_edit_set_apply(&set, NULL, &out), NFY_OK);
    assert_int_equal(out.len, nfy_edit_set_result_len(&set, NULL));
    assert_int_equal(nfy_source_from_mem(&edited, "e", out.data, out.len),
                     NFY_OK);
    assert_int_equal(nfy_edit_set_inverse(&set, &edited, &inv), NFY_OK);
    assert_int_equal(inv.edits.len, set.edits.len);
    assert_int_equal(nfy_edit_set_apply(&inv, NULL, &back), NFY_OK);
    assert_int_equal(back.len, src.len);
    assert_memory_equal(back.data, src.data, src.len);
    nfy_edit_set_release(&inv);
    nfy_edit_set_release(&set);
    nfy_source_release(&edited);
    nfy_source_release(&src);
    nfy_buf_release(&back);
    nfy_buf_release(&out);
    nfy_buf_release(&text);
}

static void test_inverse_property_random(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 3000; i++)
        check_inverse(&seed);
}

static void test_inverse_needs_matching_text(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "abc");
    add(&f, 0, 1, "xy", "R");
    nfy_source wrong;
    assert_int_equal(nfy_source_from_mem(&wrong, "w", "abc", 3), NFY_OK);
    nfy_edit_set inv;
    assert_int_equal(nfy_edit_set_inverse(&f.set, &wrong, &inv), NFY_EUSAGE);
    nfy_edit_set_release(&inv);
    nfy_source_release(&wrong);
    fx_release(&f);
}

/* ---- unified diff: fixed expectations -------------------------------- */

static const char *diff_of(fixture *f)
{
    nfy_buf_reset(&f->out);
    assert_int_equal(nfy_edit_set_diff(&f->set, "dir/t.py", NULL, 0, &f->out),
                     NFY_OK);
    return nfy_buf_cstr(&f->out);
}

static void test_diff_basic_context(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "1\n2\n3\n4\nx.cuda()\n6\n7\n8\n9\n");
    add(&f, 10, 14, "npu", "NPU101");
    assert_string_equal(diff_of(&f), "--- a/dir/t.py\n+++ b/dir/t.py\n"
                                     "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n"
                                     "-x.cuda()\n+x.npu()\n 6\n 7\n 8\n");
    fx_release(&f);
}

/* Found by fuzz_edit: an inserted line and an equal deleted line elsewhere
 * give the original text back, so the diff must be empty. */
static void test_diff_cancelling_edits_is_empty(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "\n\n\n\n\n\n\n\n\n\n");
    add(&f, 0, 0, "\n", "R");
    add(&f, 8, 9, "", "R");
    assert_string_equal(diff_of(&f), "");
    fx_release(&f);
}

static void test_diff_insert_at_top_and_merge(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "import torch\na\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n");
    add(&f, 13, 13, "import torch_npu\n", "NPU001");
    /* Six unchanged lines (a..f) between the changes: one hunk. */
    add(&f, 25, 26, "G", "R");
    assert_string_equal(diff_of(&f),
                        "--- a/dir/t.py\n+++ b/dir/t.py\n"
                        "@@ -1,11 +1,12 @@\n import torch\n+import torch_npu\n"
                        " a\n b\n c\n d\n e\n f\n-g\n+G\n h\n i\n j\n");
    fx_release(&f);
    /* Seven (a..g): two hunks, as GNU diff splits them. */
    fx_init(&f, "import torch\na\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n");
    add(&f, 13, 13, "import torch_npu\n", "NPU001");
    add(&f, 27, 28, "H", "R");
    assert_string_equal(diff_of(&f),
                        "--- a/dir/t.py\n+++ b/dir/t.py\n"
                        "@@ -1,4 +1,5 @@\n import torch\n+import torch_npu\n"
                        " a\n b\n c\n@@ -6,7 +7,7 @@\n e\n f\n g\n-h\n+H\n"
                        " i\n j\n k\n");
    fx_release(&f);
}

static void test_diff_separate_hunks(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
    add(&f, 0, 1, "A", "R");
    add(&f, 18, 19, "J", "R");
    assert_string_equal(diff_of(&f), "--- a/dir/t.py\n+++ b/dir/t.py\n"
                                     "@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n"
                                     "@@ -7,4 +7,4 @@\n g\n h\n i\n-j\n+J\n");
    fx_release(&f);
}

static void test_diff_no_newline_and_crlf(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "a\r\nb.cuda()\r\nlast");
    add(&f, 5, 9, "npu", "R");
    add(&f, 17, 17, "\n", "EOL");
    assert_string_equal(diff_of(&f), "--- a/dir/t.py\n+++ b/dir/t.py\n"
                                     "@@ -1,3 +1,3 @@\n a\r\n-b.cuda()\r\n"
                                     "-last\n\\ No newline at end of file\n"
                                     "+b.npu()\r\n+last\n");
    fx_release(&f);
}

static void test_diff_delete_everything_and_empty(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, "only\n");
    add(&f, 0, 5, "", "DEL");
    assert_string_equal(diff_of(&f), "--- a/dir/t.py\n+++ b/dir/t.py\n"
                                     "@@ -1 +0,0 @@\n-only\n");
    fx_release(&f);
    fx_init(&f, "same\n");
    add(&f, 0, 4, "same", "NOOP");
    assert_string_equal(diff_of(&f), "");
    fx_release(&f);
}

static void test_diff_ranges_rejects_inconsistent(void **state)
{
    (void)state;
    nfy_buf out = NFY_BUF_INIT;
    nfy_span a = {0, 1}, b = {0, 2};
    assert_int_equal(
        nfy_edit_diff_ranges("p", "abc", 3, "xybc", 4, &a, &b, 1, &out),
        NFY_OK);
    /* Text outside the ranges must be the same, in length and bytes. */
    assert_int_equal(
        nfy_edit_diff_ranges("p", "abc", 3, "xybcv", 5, &a, &b, 1, &out),
        NFY_EUSAGE);
    assert_int_equal(
        nfy_edit_diff_ranges("p", "abc", 3, "xyzw", 4, &a, &b, 1, &out),
        NFY_EUSAGE);
    nfy_buf_release(&out);
}

/* ---- unified diff: `patch -p1` reproduces the edited text ------------ */

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

static void read_file(const char *path, nfy_buf *b)
{
    nfy_buf_reset(b);
    assert_int_equal(nfy_file_read(path, 1 << 20, b), NFY_OK);
}

static void patch_round_trip(const char *dir, const char *name, uint64_t *seed,
                             int *patched)
{
    nfy_buf text = NFY_BUF_INIT, edited = NFY_BUF_INIT, diff = NFY_BUF_INIT;
    nfy_buf got = NFY_BUF_INIT, path = NFY_BUF_INIT, cmd = NFY_BUF_INIT;
    random_text(seed, &text, 60);
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "r", text.data, text.len),
                     NFY_OK);
    nfy_edit_set set;
    nfy_edit_set_init(&set, &src);
    random_edits(seed, &set, src.len);
    assert_int_equal(nfy_edit_set_apply(&set, NULL, &edited), NFY_OK);
    assert_int_equal(
        nfy_edit_set_diff(&set, name, edited.data, edited.len, &diff), NFY_OK);
    nfy_buf_addf(&path, "%s/%s", dir, name);
    write_file(nfy_buf_cstr(&path), src.data, src.len);
    if (diff.len) {
        nfy_buf_addf(&cmd, "%s/d.patch", dir);
        write_file(nfy_buf_cstr(&cmd), diff.data, diff.len);
        nfy_buf_reset(&cmd);
        nfy_buf_addf(&cmd,
                     "cd '%s' && patch -p1 -s --binary --no-backup-if-mismatch "
                     "-r - <d.patch >patch.log 2>&1",
                     dir);
        assert_int_equal(system(nfy_buf_cstr(&cmd)), 0);
        ++*patched;
    } else {
        assert_int_equal(edited.len, src.len);
        assert_memory_equal(edited.data, src.data, src.len);
    }
    read_file(nfy_buf_cstr(&path), &got);
    assert_int_equal(got.len, edited.len);
    if (got.len)
        assert_memory_equal(got.data, edited.data, got.len);
    nfy_edit_set_release(&set);
    nfy_source_release(&src);
    nfy_buf_release(&text);
    nfy_buf_release(&edited);
    nfy_buf_release(&diff);
    nfy_buf_release(&got);
    nfy_buf_release(&path);
    nfy_buf_release(&cmd);
}

static void test_diff_applies_with_patch(void **state)
{
    (void)state;
    char dir[] = "/tmp/nfy_test_edit_XXXXXX";
    assert_non_null(mkdtemp(dir));
    nfy_buf sub = NFY_BUF_INIT;
    nfy_buf_addf(&sub, "%s/sub", dir);
    assert_int_equal(nfy_mkdirs(nfy_buf_cstr(&sub), 0755), NFY_OK);
    uint64_t seed = 12345;
    int patched = 0;
    /* Names with a space or a quote need a tab / C-quoting in the labels. */
    static const char *const names[] = {"sub/f.txt", "sub/with space.py",
                                        "sub/q\"uo\\te.py"};
    for (int i = 0; i < 150; i++)
        patch_round_trip(dir, names[i % 3], &seed, &patched);
    assert_true(patched > 100);
    nfy_buf_reset(&sub);
    nfy_buf_addf(&sub, "rm -rf '%s'", dir);
    assert_int_equal(system(nfy_buf_cstr(&sub)), 0);
    nfy_buf_release(&sub);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_rejects_bad_ranges),
        cmocka_unit_test(test_apply_sorted_one_pass),
        cmocka_unit_test(test_overlap_dropped_with_diag),
        cmocka_unit_test(test_insert_inside_vs_at_edges),
        cmocka_unit_test(test_duplicates_merged_and_order_kept),
        cmocka_unit_test(test_map_offset),
        cmocka_unit_test(test_inverse_property_random),
        cmocka_unit_test(test_inverse_needs_matching_text),
        cmocka_unit_test(test_diff_basic_context),
        cmocka_unit_test(test_diff_insert_at_top_and_merge),
        cmocka_unit_test(test_diff_separate_hunks),
        cmocka_unit_test(test_diff_no_newline_and_crlf),
        cmocka_unit_test(test_diff_delete_everything_and_empty),
        cmocka_unit_test(test_diff_ranges_rejects_inconsistent),
        cmocka_unit_test(test_diff_applies_with_patch),
        cmocka_unit_test(test_diff_cancelling_edits_is_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
