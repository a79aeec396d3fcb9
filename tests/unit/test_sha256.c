/* SHA-256 against the FIPS 180-4 / NIST CAVS example vectors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"

static void hex_of(const void *data, size_t n, char hex[NFY_SHA256_HEX])
{
    nfy_sha256 s;
    uint8_t d[NFY_SHA256_BYTES];
    nfy_sha256_init(&s);
    nfy_sha256_add(&s, data, n);
    nfy_sha256_finish(&s, d);
    nfy_sha256_hex(d, hex);
}

static void test_fips_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *msg, *hex;
    } cases[] = {
        {"",
         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc",
         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijk"
         "lmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    char hex[NFY_SHA256_HEX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hex_of(cases[i].msg, strlen(cases[i].msg), hex);
        assert_string_equal(hex, cases[i].hex);
    }
}

static void test_million_a(void **state)
{
    (void)state;
    size_t n = 1000000;
    char *a = malloc(n);
    assert_non_null(a);
    memset(a, 'a', n);
    char hex[NFY_SHA256_HEX];
    hex_of(a, n, hex);
    assert_string_equal(
        hex,
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

/* Every split of the input into two adds gives the one-shot digest, so
 * block boundaries (55, 56, 63, 64 bytes) are crossed in every way. */
static void test_incremental(void **state)
{
    (void)state;
    uint8_t msg[130];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 3);
    for (size_t len = 0; len <= sizeof msg; len++) {
        char whole[NFY_SHA256_HEX];
        hex_of(msg, len, whole);
        for (size_t cut = 0; cut <= len; cut++) {
            nfy_sha256 s;
            uint8_t d[NFY_SHA256_BYTES];
            char hex[NFY_SHA256_HEX];
            nfy_sha256_init(&s);
            nfy_sha256_add(&s, msg, cut);
            nfy_sha256_add(&s, msg + cut, len - cut);
            nfy_sha256_finish(&s, d);
            nfy_sha256_hex(d, hex);
            assert_string_equal(hex, whole);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips_vectors),
        cmocka_unit_test(test_million_a),
        cmocka_unit_test(test_incremental),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
