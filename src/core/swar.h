/*
 * Byte tests on 8 bytes at once (SWAR): the escapers skip words of bytes
 * that need nothing and look at bytes one by one only in a word that holds
 * one; the source scan skips words of ASCII. Each test says exactly whether
 * some byte matches.
 */
#ifndef NPUIFY_CORE_SWAR_H
#define NPUIFY_CORE_SWAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NFY__SWAR_ONES  0x0101010101010101ull
#define NFY__SWAR_HIGHS 0x8080808080808080ull

/* The 8 bytes at s (any alignment). */
static inline uint64_t nfy__swar_load(const void *s)
{
    uint64_t x;
    memcpy(&x, s, sizeof x);
    return x;
}

/* Non-zero when some byte of x is below n (n at most 128). */
static inline uint64_t nfy__swar_below(uint64_t x, unsigned n)
{
    return (x - NFY__SWAR_ONES * n) & ~x & NFY__SWAR_HIGHS;
}

/* Non-zero when some byte of x is c. */
static inline uint64_t nfy__swar_has(uint64_t x, unsigned char c)
{
    uint64_t y = x ^ (NFY__SWAR_ONES * c);
    return (y - NFY__SWAR_ONES) & ~y & NFY__SWAR_HIGHS;
}

/* Non-zero when some byte of x is 0x80 or above. */
static inline uint64_t nfy__swar_high(uint64_t x)
{
    return x & NFY__SWAR_HIGHS;
}

/*
 * The escapers' word skip: from i, every whole 8-byte word plain8 passes is
 * skipped; the first index not skipped is returned, and the caller looks at
 * the bytes of one word from there (or up to n).
 */
static inline size_t nfy__swar_skip_plain(const char *s, size_t i, size_t n,
                                          bool (*plain8)(const char *))
{
    while (n - i >= 8 && plain8(s + i))
        i += 8;
    return i;
}

#endif
