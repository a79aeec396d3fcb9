/*
 * Stable edit ids: file, start byte, rule and a hash of what the edit
 * replaces and inserts, so the same edit over the same source gets the same
 * id on every run, and an id stops matching as soon as either side changes.
 */
#include "review/review.h"

enum { ID_HASH_HEX = 8 };

void nfy_edit_id(const char *rel, const nfy_edit_set *set, const nfy_edit *e,
                 nfy_buf *out)
{
    nfy_sha256 h;
    nfy_sha256_init(&h);
    nfy_sha256_add(&h, set->src->data + e->span.start,
                   e->span.end - e->span.start);
    nfy_sha256_add(&h, "", 1);
    nfy_sha256_add(&h, e->text.ptr, e->text.len);
    uint8_t digest[NFY_SHA256_BYTES];
    nfy_sha256_finish(&h, digest);
    /* the first ID_HASH_HEX hex digits only: the rest would be cut */
    static const char digits[] = "0123456789abcdef";
    char hex[ID_HASH_HEX + 1];
    for (unsigned i = 0; i < ID_HASH_HEX / 2; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[ID_HASH_HEX] = '\0';
    /* "rel:start:rule:hash", put together without printf (one an edit);
     * a NULL rule reads as glibc's printf writes it */
    char num[16];
    size_t k = sizeof num;
    unsigned v = (unsigned)e->span.start;
    do
        num[--k] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    (void)nfy_buf_addstr(out, rel ? rel : "");
    (void)nfy_buf_addch(out, ':');
    (void)nfy_buf_add(out, num + k, sizeof num - k);
    (void)nfy_buf_addch(out, ':');
    (void)nfy_buf_addstr(out, e->rule ? e->rule : "(null)");
    (void)nfy_buf_addch(out, ':');
    (void)nfy_buf_addstr(out, hex);
}
