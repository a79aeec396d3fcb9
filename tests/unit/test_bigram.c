/*
 * nfy__mig_bigram_find against a byte-by-byte search: every start offset and
 * length up to 100 bytes (the 32- and 16-wide blocks and the padded tail),
 * with and without case folding, with pairs of NUL and space (what the
 * padded tail is filled with, raw and folded).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "migrate/bigram.h"

static size_t naive(const unsigned char (*pairs)[2], size_t npairs, bool fold,
                    const unsigned char *s, size_t len, size_t from)
{
    unsigned char f = fold ? 0x20 : 0;
    for (size_t i = from; i + 1 < len; i++) {
        for (size_t k = 0; k < npairs; k++) {
            if ((s[i] | f) == pairs[k][0] && (s[i + 1] | f) == pairs[k][1])
                return i;
        }
    }
    return len;
}

/* A text of n bytes drawn from a small alphabet, so pairs are found often
 * and missed often. */
static void fill(unsigned char *s, size_t n, uint32_t *seed)
{
    static const unsigned char alpha[] = {'c', 'u', 'C', 'U', 'd',
                                          'a', ' ', 0,   'x', 0xC3};
    for (size_t i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        s[i] = alpha[(*seed >> 16) % sizeof alpha];
    }
}

static void check_set(const unsigned char (*pairs)[2], size_t npairs, bool fold)
{
    mig_bigrams bg;
    memset(&bg, 0, sizeof bg);
    for (size_t k = 0; k < npairs; k++)
        assert_true(nfy__mig_bigrams_add(&bg, pairs[k][0], pairs[k][1]));
    if (fold)
        nfy__mig_bigrams_fold(&bg);
    uint32_t seed = 7;
    for (int round = 0; round < 40; round++) {
        for (size_t len = 0; len <= 100; len++) {
            /* exactly len bytes allocated: ASan sees any read past len */
            unsigned char *s = malloc(len ? len : 1);
            assert_non_null(s);
            fill(s, len, &seed);
            for (size_t from = 0; from <= len + 1; from++) {
                size_t want = naive(pairs, npairs, fold, s, len, from);
                size_t got =
                    nfy__mig_bigram_find(&bg, (const char *)s, len, from);
                if (want != got)
                    fail_msg("len %zu from %zu: want %zu, got %zu", len, from,
                             want, got);
            }
            free(s);
        }
    }
}

static void test_one_pair(void **state)
{
    (void)state;
    static const unsigned char pairs[][2] = {{'c', 'u'}};
    check_set(pairs, 1, false);
    check_set(pairs, 1, true);
}

/* Two pairs, shaped like cuda_text's "cu" and "nc" (in fill's alphabet),
 * which the AVX2 scan tests without its loop over pairs. */
static void test_two_pairs(void **state)
{
    (void)state;
    static const unsigned char pairs[][2] = {{'c', 'u'}, {'x', 'c'}};
    check_set(pairs, 2, false);
    check_set(pairs, 2, true);
}

static void test_pairs_with_pad_bytes(void **state)
{
    (void)state;
    static const unsigned char pairs[][2] = {
        {'a', ' '}, {'u', 0}, {' ', ' '}, {0xC3, 'd'}, {'x', 'x'}};
    check_set(pairs, sizeof pairs / sizeof pairs[0], false);
    check_set(pairs, sizeof pairs / sizeof pairs[0], true);
}

static void test_full_set(void **state)
{
    (void)state;
    unsigned char pairs[MIG_BIGRAMS_MAX][2];
    static const unsigned char alpha[] = "cuCUda x";
    for (size_t k = 0; k < MIG_BIGRAMS_MAX; k++) {
        pairs[k][0] = alpha[k % 8];
        pairs[k][1] = alpha[(k * 3 + 1) % 8];
    }
    mig_bigrams bg;
    memset(&bg, 0, sizeof bg);
    size_t distinct = 0;
    for (size_t k = 0; k < MIG_BIGRAMS_MAX; k++) {
        uint32_t before = bg.n;
        assert_true(nfy__mig_bigrams_add(&bg, pairs[k][0], pairs[k][1]));
        distinct += bg.n > before;
    }
    assert_int_equal(bg.n, distinct);
    check_set((const unsigned char(*)[2])pairs, MIG_BIGRAMS_MAX, false);
}

static void test_empty_set_finds_nothing(void **state)
{
    (void)state;
    mig_bigrams bg;
    memset(&bg, 0, sizeof bg);
    assert_int_equal(nfy__mig_bigram_find(&bg, "cuda cuda", 9, 0), 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_pair),
        cmocka_unit_test(test_two_pairs),
        cmocka_unit_test(test_pairs_with_pad_bytes),
        cmocka_unit_test(test_full_set),
        cmocka_unit_test(test_empty_set_finds_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
