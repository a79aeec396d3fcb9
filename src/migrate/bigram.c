/*
 * The first place one of a few byte pairs starts in a text. With SSE2 (every
 * x86-64) 16 starts are tested at once, each pair costing two compares, 32
 * where the CPU has AVX2, and the last starts go through a zero-padded
 * copy; elsewhere byte by byte.
 * Text bytes are never read past len.
 */
#include "migrate/bigram.h"

#include <string.h>

bool nfy__mig_bigrams_add(mig_bigrams *bg, unsigned char a, unsigned char b)
{
    for (uint32_t k = 0; k < bg->n; k++) {
        if (bg->first[k][0] == a && bg->second[k][0] == b)
            return true;
    }
    if (bg->n == MIG_BIGRAMS_MAX)
        return false;
    memset(bg->first[bg->n], a, 16);
    memset(bg->second[bg->n], b, 16);
    bg->n++;
    return true;
}

void nfy__mig_bigrams_fold(mig_bigrams *bg)
{
    memset(bg->fold, 0x20, sizeof bg->fold);
}

#if defined(__SSE2__) && defined(__GNUC__)
#    include <emmintrin.h>

static inline __m128i row(const unsigned char *r)
{
    return _mm_loadu_si128((const __m128i *)(const void *)r);
}

/* The starts among the 16 at p (p[0..17) readable) where a pair is. */
static inline unsigned block_hits(const mig_bigrams *bg, const unsigned char *p)
{
    __m128i f = row(bg->fold);
    __m128i a =
        _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)p), f);
    __m128i b = _mm_or_si128(
        _mm_loadu_si128((const __m128i *)(const void *)(p + 1)), f);
    __m128i acc = _mm_setzero_si128();
    for (uint32_t k = 0; k < bg->n; k++)
        acc = _mm_or_si128(
            acc, _mm_and_si128(_mm_cmpeq_epi8(a, row(bg->first[k])),
                               _mm_cmpeq_epi8(b, row(bg->second[k]))));
    return (unsigned)_mm_movemask_epi8(acc);
}

#    if defined(__x86_64__)
#        include <immintrin.h>

/* 32 starts a step where the CPU has AVX2: from i while 33 bytes are
 * left; true with *at the first start found, else *at where it stopped. */
__attribute__((target("avx2"))) static bool find_avx2(const mig_bigrams *bg,
                                                      const unsigned char *u,
                                                      size_t i, size_t len,
                                                      size_t *at)
{
    __m256i f = _mm256_set1_epi8((char)bg->fold[0]);
    __m256i fv[MIG_BIGRAMS_MAX], sv[MIG_BIGRAMS_MAX];
    for (uint32_t k = 0; k < bg->n; k++) {
        fv[k] = _mm256_set1_epi8((char)bg->first[k][0]);
        sv[k] = _mm256_set1_epi8((char)bg->second[k][0]);
    }
    if (bg->n <= 2) { /* cuda_text's two pairs: the loop over k unrolled */
        const __m256i f0 = fv[0], s0 = sv[0];
        const __m256i f1 = fv[bg->n - 1], s1 = sv[bg->n - 1];
        for (; i + 33 <= len; i += 32) {
            __m256i a = _mm256_or_si256(
                _mm256_loadu_si256((const __m256i *)(const void *)(u + i)), f);
            __m256i b = _mm256_or_si256(
                _mm256_loadu_si256((const __m256i *)(const void *)(u + i + 1)),
                f);
            __m256i acc =
                _mm256_or_si256(_mm256_and_si256(_mm256_cmpeq_epi8(a, f0),
                                                 _mm256_cmpeq_epi8(b, s0)),
                                _mm256_and_si256(_mm256_cmpeq_epi8(a, f1),
                                                 _mm256_cmpeq_epi8(b, s1)));
            unsigned m = (unsigned)_mm256_movemask_epi8(acc);
            if (m) {
                *at = i + (size_t)__builtin_ctz(m);
                return true;
            }
        }
        *at = i;
        return false;
    }
    for (; i + 33 <= len; i += 32) {
        __m256i a = _mm256_or_si256(
            _mm256_loadu_si256((const __m256i *)(const void *)(u + i)), f);
        __m256i b = _mm256_or_si256(
            _mm256_loadu_si256((const __m256i *)(const void *)(u + i + 1)), f);
        __m256i acc = _mm256_setzero_si256();
        for (uint32_t k = 0; k < bg->n; k++)
            acc = _mm256_or_si256(
                acc, _mm256_and_si256(_mm256_cmpeq_epi8(a, fv[k]),
                                      _mm256_cmpeq_epi8(b, sv[k])));
        unsigned m = (unsigned)_mm256_movemask_epi8(acc);
        if (m) {
            *at = i + (size_t)__builtin_ctz(m);
            return true;
        }
    }
    *at = i;
    return false;
}

static bool have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#    else
static bool have_avx2(void)
{
    return false;
}

static bool find_avx2(const mig_bigrams *bg, const unsigned char *u, size_t i,
                      size_t len, size_t *at)
{
    (void)bg, (void)u, (void)len;
    *at = i;
    return false;
}
#    endif

size_t nfy__mig_bigram_find(const mig_bigrams *bg, const char *s, size_t len,
                            size_t from)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = from;
    if (bg->n == 0)
        return len;
    if (i + 33 <= len && have_avx2() && find_avx2(bg, u, i, len, &i))
        return i;
    for (; i + 17 <= len; i += 16) {
        unsigned m = block_hits(bg, u + i);
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
    if (i + 1 >= len)
        return len;
    /* under 17 bytes left: 15 or fewer starts, in a padded copy */
    unsigned char pad[32] = {0};
    memcpy(pad, u + i, len - i);
    unsigned m = block_hits(bg, pad) & ((1u << (len - i - 1)) - 1);
    return m ? i + (size_t)__builtin_ctz(m) : len;
}

#else

size_t nfy__mig_bigram_find(const mig_bigrams *bg, const char *s, size_t len,
                            size_t from)
{
    for (size_t i = from; i + 1 < len; i++) {
        unsigned char a = (unsigned char)s[i] | bg->fold[0];
        unsigned char b = (unsigned char)s[i + 1] | bg->fold[0];
        for (uint32_t k = 0; k < bg->n; k++) {
            if (a == bg->first[k][0] && b == bg->second[k][0])
                return i;
        }
    }
    return len;
}

#endif
