/*
 * Edit ids anchored to content: "FILE:RULE:HASH", the hash over the rule,
 * the replaced text, the replacement, the text of the lines the edit sits
 * on and its occurrence among edits equal in all four. No offset goes in,
 * so a line added above an edit leaves its id as it was; the id changes
 * when the edit's own line or text does.
 */
#include <stdlib.h>
#include <string.h>

#include "review/review.h"

enum { ID_HASH_HEX = 8 };

/* 1-based line holding byte offset off. */
static uint32_t line_of(const nfy_source *src, uint32_t off)
{
    return (uint32_t)nfy_source_line_index(src, off) + 1;
}

void nfy_review_edit_anchor_lines(const nfy_source *src, uint32_t start,
                                  uint32_t end, uint32_t *first, uint32_t *last)
{
    if (!src->nlines) {
        *first = *last = 0;
        return;
    }
    *first = line_of(src, start);
    *last = end > start ? line_of(src, end - 1) : *first;
    /* an insertion at a line's start adds lines after the one above */
    if (start == end && *first > 1 && src->line_starts[*first - 1] == start)
        *last = *first = *first - 1;
}

void nfy_review_edit_anchor_text(const nfy_source *src, uint32_t first,
                                 uint32_t last, nfy_buf *out)
{
    for (uint32_t l = first; l && l <= last; l++) {
        nfy_str s = nfy_source_line(src, l);
        if (l > first)
            (void)nfy_buf_addch(out, '\n');
        (void)nfy_buf_add(out, s.ptr, s.len);
    }
}

/* Digest of the anchor lines [first, last] (their text, '\n' between). */
static void anchor_digest(const nfy_source *src, uint32_t first, uint32_t last,
                          uint8_t d[NFY_SHA256_BYTES])
{
    nfy_sha256 h;
    nfy_sha256_init(&h);
    for (uint32_t l = first; l && l <= last; l++) {
        nfy_str s = nfy_source_line(src, l);
        if (l > first)
            nfy_sha256_add(&h, "\n", 1);
        nfy_sha256_add(&h, s.ptr, s.len);
    }
    nfy_sha256_finish(&h, d);
}

/* Digest of what makes an edit: rule, replaced text, replacement, anchor. */
static void edit_digest(const nfy_edit_set *set, const nfy_edit *e,
                        const uint8_t anchor[NFY_SHA256_BYTES],
                        uint8_t d[NFY_SHA256_BYTES])
{
    nfy_sha256 h;
    nfy_sha256_init(&h);
    const char *rule = e->rule ? e->rule : "";
    nfy_sha256_add(&h, rule, strlen(rule) + 1);
    nfy_sha256_add(&h, set->src->data + e->span.start,
                   e->span.end - e->span.start);
    nfy_sha256_add(&h, "", 1);
    nfy_sha256_add(&h, e->text.ptr, e->text.len);
    nfy_sha256_add(&h, "", 1);
    nfy_sha256_add(&h, anchor, NFY_SHA256_BYTES);
    nfy_sha256_finish(&h, d);
}

/* Occurrences so far of each edit digest: open addressing, no deletes. */
typedef struct {
    uint8_t key[NFY_SHA256_BYTES];
    uint32_t count; /* 0: empty slot */
} occ_slot;

static uint32_t occurrence(occ_slot *tab, size_t mask,
                           const uint8_t key[NFY_SHA256_BYTES])
{
    size_t i;
    memcpy(&i, key, sizeof i); /* a digest is already uniform */
    for (i &= mask; tab[i].count; i = (i + 1) & mask)
        if (!memcmp(tab[i].key, key, NFY_SHA256_BYTES))
            return tab[i].count++;
    memcpy(tab[i].key, key, NFY_SHA256_BYTES);
    tab[i].count = 1;
    return 0;
}

static void put_id(const char *rel, const char *rule,
                   const uint8_t key[NFY_SHA256_BYTES], uint32_t occ,
                   nfy_buf *out)
{
    nfy_sha256 h;
    nfy_sha256_init(&h);
    nfy_sha256_add(&h, key, NFY_SHA256_BYTES);
    uint8_t le[4] = {(uint8_t)occ, (uint8_t)(occ >> 8), (uint8_t)(occ >> 16),
                     (uint8_t)(occ >> 24)};
    nfy_sha256_add(&h, le, sizeof le);
    uint8_t d[NFY_SHA256_BYTES];
    nfy_sha256_finish(&h, d);
    static const char digits[] = "0123456789abcdef";
    char hex[ID_HASH_HEX];
    for (unsigned i = 0; i < ID_HASH_HEX / 2; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    (void)nfy_buf_addstr(out, rel ? rel : "");
    (void)nfy_buf_addch(out, ':');
    (void)nfy_buf_addstr(out, rule && *rule ? rule : "-");
    (void)nfy_buf_addch(out, ':');
    (void)nfy_buf_add(out, hex, ID_HASH_HEX);
}

nfy_status nfy_review_edit_ids(const char *rel, const nfy_edit_set *set,
                               nfy_arena *a, const char **ids)
{
    size_t n = set->edits.len, cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    occ_slot *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return NFY_ENOMEM;
    nfy_buf id = NFY_BUF_INIT;
    uint8_t anchor[NFY_SHA256_BYTES], key[NFY_SHA256_BYTES];
    uint32_t af = 0, al = 0; /* the lines anchor is of (edits are sorted) */
    for (size_t k = 0; k < n; k++) {
        const nfy_edit *e = &set->edits.items[k];
        uint32_t first, last;
        nfy_review_edit_anchor_lines(set->src, e->span.start, e->span.end,
                                     &first, &last);
        if (k == 0 || first != af || last != al)
            anchor_digest(set->src, first, last, anchor);
        af = first;
        al = last;
        edit_digest(set, e, anchor, key);
        nfy_buf_reset(&id);
        put_id(rel, e->rule, key, occurrence(tab, cap - 1, key), &id);
        ids[k] = nfy_arena_strndup(a, id.data, id.len);
    }
    nfy_buf_release(&id);
    free(tab);
    return NFY_OK;
}
