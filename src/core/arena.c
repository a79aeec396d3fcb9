/*
 * Arena: a bump allocator over a chain of blocks. Allocation never fails
 * (it aborts on out-of-memory); everything is freed at once.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/fatal.h"

struct nfy_arena_block {
    nfy_arena_block *next;
    size_t size; /* usable bytes in data */
    size_t used;
    max_align_t data[];
};

enum { ARENA_MIN_BLOCK = 64 * 1024 };

void nfy_arena_init(nfy_arena *a)
{
    a->head = NULL;
    a->used_total = 0;
}

void nfy_arena_release(nfy_arena *a)
{
    nfy_arena_block *b = a->head;
    while (b) {
        nfy_arena_block *next = b->next;
        free(b);
        b = next;
    }
    nfy_arena_init(a);
}

static size_t align_up(size_t n)
{
    size_t al = _Alignof(max_align_t);
    if (n > SIZE_MAX - al)
        nfy__fatal("arena: allocation size overflow");
    return (n + al - 1) & ~(al - 1);
}

static nfy_arena_block *new_block(size_t need)
{
    size_t size = need > ARENA_MIN_BLOCK ? need : ARENA_MIN_BLOCK;
    nfy_arena_block *b = malloc(sizeof *b + size);
    if (!b)
        nfy__fatal("out of memory");
    b->size = size;
    b->used = 0;
    b->next = NULL;
    return b;
}

void *nfy_arena_alloc(nfy_arena *a, size_t size)
{
    size = align_up(size ? size : 1);
    nfy_arena_block *b = a->head;
    if (!b || b->size - b->used < size) {
        nfy_arena_block *nb = new_block(size);
        /* Keep a partly used head in front when the new block is a big
         * one-off, so its free space is not wasted. */
        if (b && size > ARENA_MIN_BLOCK) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    a->used_total += size;
    return p;
}

static nfy_arena_block *block_of(void *items)
{
    return (nfy_arena_block *)(void *)((char *)items -
                                       offsetof(nfy_arena_block, data));
}

static nfy_arena_block *resize_block(nfy_arena_block *b, size_t size)
{
    if (size > SIZE_MAX - sizeof *b)
        nfy__fatal("arena: allocation size overflow");
    nfy_arena_block *nb = realloc(b, sizeof *b + size);
    if (!nb)
        nfy__fatal("out of memory");
    nb->size = size;
    return nb;
}

void *nfy_arena_grow(void *items, size_t bytes)
{
    nfy_arena_block *b = resize_block(items ? block_of(items) : NULL, bytes);
    b->next = NULL;
    b->used = 0;
    return b->data;
}

/* Linked behind the head, so the head's free space stays in use. */
void *nfy_arena_adopt(nfy_arena *a, void *items, size_t used)
{
    nfy_arena_block *b = resize_block(block_of(items), used);
    b->used = used;
    if (a->head) {
        b->next = a->head->next;
        a->head->next = b;
    } else {
        b->next = NULL;
        a->head = b;
    }
    a->used_total += used;
    return b->data;
}

void nfy_arena_drop(void *items)
{
    if (items)
        free(block_of(items));
}

void *nfy_arena_calloc(nfy_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        nfy__fatal("arena: allocation size overflow");
    void *p = nfy_arena_alloc(a, n * size);
    memset(p, 0, n * size);
    return p;
}

char *nfy_arena_strndup(nfy_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        nfy__fatal("arena: allocation size overflow");
    char *p = nfy_arena_alloc(a, n + 1);
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *nfy_arena_strdup(nfy_arena *a, const char *s)
{
    return s ? nfy_arena_strndup(a, s, strlen(s)) : NULL;
}

nfy_str nfy_arena_str(nfy_arena *a, nfy_str s)
{
    return (nfy_str){nfy_arena_strndup(a, s.ptr, s.len), s.len};
}

/* Formatted once into a stack buffer: most texts are short, and only a
 * longer one is formatted a second time, into its exact size. */
char *nfy_arena_vfmt(nfy_arena *a, const char *fmt, va_list ap)
{
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return nfy_arena_strndup(a, "", 0);
    if ((size_t)n < sizeof small)
        return nfy_arena_strndup(a, small, (size_t)n);
    char *p = nfy_arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *nfy_arena_fmt(nfy_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = nfy_arena_vfmt(a, fmt, ap);
    va_end(ap);
    return p;
}
