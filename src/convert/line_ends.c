/*
 * Files that end their lines with a lone CR (old Mac style). CPython
 * compiles them, but the lexer keeps tokenize's view (for `npuify tokens`),
 * in which a lone CR ends no line. convert therefore migrates such a file
 * through a view with every CR turned into LF: one byte for one byte, so
 * every offset, line and column is the same, and the result is turned back
 * (every LF into CR, the inserted lines' included). Only files with no LF
 * at all get the view, so turning back is exact; a file that mixes lone
 * CRs with LFs is migrated as it is (its lone CRs are reported).
 */
#include <string.h>

#include "convert/convert_internal.h"

bool nfy__convert_cr_view(const nfy_source *src, nfy_source *view)
{
    if (!src->len || !memchr(src->data, '\r', src->len) ||
        memchr(src->data, '\n', src->len))
        return false;
    if (nfy_source_from_mem(view, src->path, src->data, src->len))
        return false;
    for (char *p = view->data;
         (p = memchr(p, '\r', view->len - (size_t)(p - view->data)));)
        *p++ = '\n';
    return true;
}

void nfy__convert_cr_restore(nfy_buf *result)
{
    for (size_t i = 0; i < result->len; i++)
        if (result->data[i] == '\n')
            result->data[i] = '\r';
}
