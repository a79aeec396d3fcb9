/*
 * Byte tests on 8 bytes at once (SWAR), for the escapers: they skip words
 * of bytes that need nothing and look at bytes one by one only in a word
 * that holds one. Each test says exactly whether some byte matches.
 */
#ifndef NPUIFY_CORE_SWAR_H
#define NPUIFY_CORE_SWAR_H

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

#endif
