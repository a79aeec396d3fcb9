/*
 * The public handles of the core layer (npuify/npuify.h): diagnostics and
 * byte buffers made and freed by the library, read through copies, so a
 * caller never depends on their layout.
 */
#include "core/core.h"
#include "core/fatal.h"

const char *nfy_version(void)
{
    return NPUIFY_VERSION;
}

nfy_diags *nfy_diags_new(void)
{
    nfy_diags *d = malloc(sizeof *d);
    if (!d)
        nfy__fatal("out of memory");
    nfy_diags_init(d);
    return d;
}

void nfy_diags_free(nfy_diags *d)
{
    if (!d)
        return;
    nfy_diags_release(d);
    free(d);
}

bool nfy_diags_get(const nfy_diags *d, size_t i, nfy_diag_info *out)
{
    if (i >= d->items.len)
        return false;
    const nfy_diag *dg = &d->items.items[i];
    *out = (nfy_diag_info){.severity = dg->sev,
                           .code = dg->code,
                           .file = dg->file,
                           .line = dg->line,
                           .col = dg->col,
                           .message = dg->msg};
    return true;
}

nfy_buf *nfy_buf_new(void)
{
    nfy_buf *b = malloc(sizeof *b);
    if (!b)
        nfy__fatal("out of memory");
    nfy_buf_init(b, 0);
    return b;
}

void nfy_buf_free(nfy_buf *b)
{
    if (!b)
        return;
    nfy_buf_release(b);
    free(b);
}

const char *nfy_buf_bytes(const nfy_buf *b, size_t *len)
{
    *len = b->len;
    return b->len ? b->data : "";
}
