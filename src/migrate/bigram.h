/*
 * Internal to src/migrate: finding where one of a few byte pairs starts in
 * a text (bigram.c), the first test of several substring searches at once.
 */
#ifndef NPUIFY_MIGRATE_BIGRAM_H
#define NPUIFY_MIGRATE_BIGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { MIG_BIGRAMS_MAX = 16 };

/* Pairs first[k][0], second[k][0] (k < n), each byte repeated 16 times
 * (what a vector compare reads); with fold[0] == 0x20, text bytes are
 * compared | 0x20 (ASCII letters as lowercase; the pairs are given so).
 * Zeroed, it holds no pair and no fold. */
typedef struct {
    unsigned char first[MIG_BIGRAMS_MAX][16];
    unsigned char second[MIG_BIGRAMS_MAX][16];
    unsigned char fold[16];
    uint32_t n;
} mig_bigrams;

/** Add the pair a, b (already there: nothing); false when bg is full. */
bool nfy__mig_bigrams_add(mig_bigrams *bg, unsigned char a, unsigned char b);
/** Compare text bytes | 0x20 from now on. */
void nfy__mig_bigrams_fold(mig_bigrams *bg);
/** The first i >= from with s[i], s[i + 1] one of bg's pairs, else len. */
size_t nfy__mig_bigram_find(const mig_bigrams *bg, const char *s, size_t len,
                            size_t from);

#endif
