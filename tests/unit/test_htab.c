/* Unit tests for core's open-addressing table (src/core/htab.c): lookups
 * through growth, colliding hashes told apart by the caller's match, a
 * missing key, clear, reserve and the integer hash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"
#include "core/htab.h"

enum { NKEYS = 5000 };

typedef struct {
    const uint64_t *keys;
    uint64_t want;
} probe;

static bool key_is(const void *ctx, uint32_t row)
{
    const probe *p = ctx;
    return p->keys[row] == p->want;
}

static uint32_t get(const nfy_htab *t, const uint64_t *keys, uint64_t key,
                    uint32_t (*hash)(uint64_t))
{
    probe p = {keys, key};
    return nfy_htab_get(t, hash(key), key_is, &p);
}

static uint32_t good_hash(uint64_t k)
{
    return nfy_hash_u64(k);
}

/* Every key in one of four hashes: rows are told apart by match alone. */
static uint32_t bad_hash(uint64_t k)
{
    return (uint32_t)(k % 4);
}

static void fill_and_check(uint32_t (*hash)(uint64_t), size_t n)
{
    static uint64_t keys[NKEYS];
    nfy_htab t = NFY_HTAB_INIT;
    assert_int_equal(get(&t, keys, 7, hash), NFY_HTAB_NONE); /* empty */
    for (size_t i = 0; i < n; i++) {
        keys[i] = i * 1000003u + 11;
        assert_int_equal(get(&t, keys, keys[i], hash), NFY_HTAB_NONE);
        nfy_htab_put(&t, hash(keys[i]), (uint32_t)i);
        assert_true(t.len * 2 <= t.cap); /* at most half full */
    }
    assert_int_equal(t.len, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(get(&t, keys, keys[i], hash), i);
    assert_int_equal(get(&t, keys, 5, hash), NFY_HTAB_NONE);
    nfy_htab_clear(&t);
    assert_int_equal(t.len, 0);
    assert_int_equal(get(&t, keys, keys[0], hash), NFY_HTAB_NONE);
    nfy_htab_release(&t);
    assert_null(t.slots);
    assert_int_equal(t.cap, 0);
}

static void test_htab_growth(void **state)
{
    (void)state;
    fill_and_check(good_hash, NKEYS);
}

static void test_htab_collisions(void **state)
{
    (void)state;
    fill_and_check(bad_hash, 300);
}

static void test_htab_reserve(void **state)
{
    (void)state;
    static uint64_t keys[1000];
    nfy_htab t = NFY_HTAB_INIT;
    nfy_htab_reserve(&t, 1000);
    size_t cap = t.cap;
    assert_true(cap >= 2000);
    assert_int_equal(cap & (cap - 1), 0); /* a power of two */
    for (uint32_t i = 0; i < 1000; i++) {
        keys[i] = i;
        nfy_htab_put(&t, good_hash(i), i);
    }
    assert_int_equal(t.cap, cap); /* no growth past the reservation */
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(get(&t, keys, i, good_hash), i);
    nfy_htab_release(&t);
}

/* Consecutive keys land in different slots of a small table. */
static void test_hash_u64_spreads(void **state)
{
    (void)state;
    unsigned seen[64] = {0};
    for (uint64_t k = 0; k < 64; k++)
        seen[nfy_hash_u64(k) & 63]++;
    unsigned used = 0;
    for (int i = 0; i < 64; i++)
        used += seen[i] != 0;
    assert_true(used >= 32);
    int x = 0, y = 0;
    assert_int_not_equal(nfy_hash_ptr(&x), nfy_hash_ptr(&y));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_htab_growth),
        cmocka_unit_test(test_htab_collisions),
        cmocka_unit_test(test_htab_reserve),
        cmocka_unit_test(test_hash_u64_spreads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
