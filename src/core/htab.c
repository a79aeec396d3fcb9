/*
 * The open-addressing table's filing and growth (htab.h; lookups are inline
 * there). Growth doubles the slots and refiles each row by its stored hash.
 */
#include "core/htab.h"

#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"

enum { HTAB_MIN_CAP = 64 };

/* File into a free slot; the table has room. */
static void place(nfy_htab_slot *slots, size_t cap, nfy_htab_slot s)
{
    size_t i = s.hash & (cap - 1);
    while (slots[i].row)
        i = (i + 1) & (cap - 1);
    slots[i] = s;
}

static void resize(nfy_htab *t, size_t cap)
{
    nfy_htab_slot *slots = calloc(cap, sizeof *slots);
    if (slots == NULL)
        nfy__fatal("out of memory");
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].row)
            place(slots, cap, t->slots[i]);
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
}

void nfy_htab_reserve(nfy_htab *t, size_t n)
{
    if (n > SIZE_MAX / 4)
        nfy__fatal("hash table too large");
    size_t cap = t->cap ? t->cap : HTAB_MIN_CAP;
    while (cap < 2 * n)
        cap *= 2;
    if (cap != t->cap)
        resize(t, cap);
}

void nfy_htab_put(nfy_htab *t, uint32_t hash, uint32_t row)
{
    if (2 * (t->len + 1) > t->cap)
        nfy_htab_reserve(t, t->len + 1);
    place(t->slots, t->cap, (nfy_htab_slot){hash, row + 1});
    t->len++;
}

void nfy_htab_clear(nfy_htab *t)
{
    if (t->cap)
        memset(t->slots, 0, t->cap * sizeof *t->slots);
    t->len = 0;
}

void nfy_htab_release(nfy_htab *t)
{
    free(t->slots);
    *t = (nfy_htab)NFY_HTAB_INIT;
}
