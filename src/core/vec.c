/* Growth for NFY_VEC: geometric, overflow-checked, aborting on OOM. */
#include <stdio.h>
#include <stdlib.h>

#include "core/core.h"
#include "core/fatal.h"

_Noreturn void nfy__fatal(const char *msg)
{
    fprintf(stderr, "npuify: fatal: %s\n", msg);
    abort();
}

void nfy__vec_grow(void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            nfy__fatal("vector size overflow");
        ncap *= 2;
    }
    if (elem && ncap > SIZE_MAX / elem)
        nfy__fatal("vector size overflow");
    void *p = realloc(*items, ncap * elem);
    if (!p)
        nfy__fatal("out of memory");
    *items = p;
    *cap = ncap;
}
