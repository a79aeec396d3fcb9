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

/* Blocks start small and double up to the full size, so the many arenas
 * that hold a few strings (one file's report, one entry's notes) take a
 * page, not the full size each. */
enum { ARENA_FIRST_BLOCK = 4 * 1024, ARENA_MAX_BLOCK = 64 * 1024 };

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

static nfy_arena_block *new_block(size_t size)
{
    if (size > SIZE_MAX - sizeof(nfy_arena_block))
        nfy__fatal("arena: allocation size overflow");
    nfy_arena_block *b = malloc(sizeof *b + size);
    if (!b)
        nfy__fatal("out of memory");
    b->size = size;
    b->used = 0;
    b->next = NULL;
    return b;
}

/* The size of the next regular block: twice the head's, within bounds. */
static size_t next_size(const nfy_arena_block *head)
{
    if (!head || head->size < ARENA_FIRST_BLOCK / 2)
        return ARENA_FIRST_BLOCK;
    return head->size >= ARENA_MAX_BLOCK / 2 ? ARENA_MAX_BLOCK : head->size * 2;
}

/* size bytes at offset align_up(used) (aligned) or used (bytes) of a block
 * that has room for them: the head, or a new one. */
static void *take(nfy_arena *a, size_t size, bool aligned)
{
    nfy_arena_block *b = a->head;
    size_t at = b ? (aligned ? align_up(b->used) : b->used) : 0;
    if (!b || at > b->size || b->size - at < size) {
        size_t regular = next_size(b);
        nfy_arena_block *nb = new_block(size > regular ? size : regular);
        /* Keep a partly used head in front when the new block is a big
         * one-off, so its free space is not wasted. */
        if (b && size > regular) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
        at = 0;
    }
    b->used = at + size;
    a->used_total += size;
    return (char *)b->data + at;
}

void *nfy_arena_alloc(nfy_arena *a, size_t size)
{
    return take(a, size ? size : 1, true);
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
    char *p = take(a, n + 1, false); /* bytes: no alignment, no padding */
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
    char *p = take(a, (size_t)n + 1, false);
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
