/*
 * One open-addressing hash table for every module's lookups: the caller
 * keeps its entries in its own array (rows 0, 1, ...) and the table maps a
 * 32-bit hash to rows. Each slot holds the hash beside the row, so a probe
 * looks at an entry only when the hashes agree, and growth rehashes without
 * asking the caller. Linear probing, a power-of-two capacity, at most half
 * full. Also the hashes of integers and pointers the tables are keyed by.
 */
#ifndef NPUIFY_CORE_HTAB_H
#define NPUIFY_CORE_HTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 2^64 / golden ratio: multiplying by it spreads consecutive keys
 * (Fibonacci hashing). */
#define NFY_HASH_GOLDEN 0x9E3779B97F4A7C15ull

#define NFY_HTAB_NONE UINT32_MAX /* no row */

typedef struct {
    uint32_t hash;
    uint32_t row; /* the row + 1; 0: a free slot */
} nfy_htab_slot;

typedef struct {
    nfy_htab_slot *slots;
    size_t cap; /* 0, or a power of two */
    size_t len; /* rows filed */
} nfy_htab;

#define NFY_HTAB_INIT                                                          \
    {                                                                          \
        NULL, 0, 0                                                             \
    }

/* Whether row is the entry the caller looks for (ctx: the caller's). */
typedef bool nfy_htab_match(const void *ctx, uint32_t row);

/* The hash of an integer key (its high bits, well spread). */
static inline uint32_t nfy_hash_u64(uint64_t x)
{
    return (uint32_t)((x * NFY_HASH_GOLDEN) >> 32);
}

static inline uint32_t nfy_hash_ptr(const void *p)
{
    return nfy_hash_u64((uint64_t)(uintptr_t)p);
}

/* The row filed under hash that match accepts, or NFY_HTAB_NONE. Inline:
 * the match is the caller's static function and is inlined with it. */
static inline uint32_t nfy_htab_get(const nfy_htab *t, uint32_t hash,
                                    nfy_htab_match *match, const void *ctx)
{
    if (t->cap == 0)
        return NFY_HTAB_NONE;
    size_t mask = t->cap - 1;
    for (size_t i = hash & mask; t->slots[i].row; i = (i + 1) & mask)
        if (t->slots[i].hash == hash && match(ctx, t->slots[i].row - 1))
            return t->slots[i].row - 1;
    return NFY_HTAB_NONE;
}

/* File row (not filed before, below NFY_HTAB_NONE) under hash; the table
 * grows as needed. */
void nfy_htab_put(nfy_htab *t, uint32_t hash, uint32_t row);

/* Room for n rows in all without growing again. */
void nfy_htab_reserve(nfy_htab *t, size_t n);

/* Forget every row, keeping the slots. */
void nfy_htab_clear(nfy_htab *t);

void nfy_htab_release(nfy_htab *t);

#endif
