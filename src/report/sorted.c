/*
 * The one order every writer shares, over sealed and open findings alike.
 * Sealed findings are compared on their ids where that settles it (equal
 * ids: equal strings), so sorting a large report decodes little.
 */
#define _GNU_SOURCE /* qsort_r: the order needs the report */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

static int cmp_id(const nfy_report *rep, uint32_t a, uint32_t b)
{
    if (a == b)
        return 0;
    return nfy__report_strcmp(nfy__report_string(rep, a),
                              nfy__report_string(rep, b));
}

/* nfy__report_cmp_finding on two rows: the same keys in the same order. */
static int cmp_rows(const nfy_report *rep, const nfy_report_row *a,
                    const nfy_report_row *b)
{
    int c = cmp_id(rep, a->file, b->file);
    if (!c)
        c = nfy__report_cmp_span(NFY__REPORT_SPAN(a), NFY__REPORT_SPAN(b));
    if (!c)
        c = cmp_id(rep, a->rule, b->rule);
    if (!c)
        c = nfy__report_cmp_u32(a->cat, b->cat);
    if (c || a->extra == b->extra) {
        if (!c)
            c = nfy__report_cmp_u32(a->op, b->op);
        if (!c)
            c = nfy__report_cmp_u32(a->safety, b->safety);
        return c;
    }
    nfy_finding fa = {0}, fb = {0};
    nfy__report_row_extra(rep, a, &fa);
    nfy__report_row_extra(rep, b, &fb);
    if (!c)
        c = nfy__report_strcmp(fa.message, fb.message);
    if (!c)
        c = nfy__report_strcmp(fa.api, fb.api);
    if (!c)
        c = nfy__report_strcmp(fa.before, fb.before);
    if (!c)
        c = nfy__report_strcmp(fa.after, fb.after);
    if (!c)
        c = nfy__report_cmp_u32(a->op, b->op);
    if (!c)
        c = nfy__report_cmp_u32(a->safety, b->safety);
    if (!c)
        c = nfy__report_strcmp(fa.npu_api, fb.npu_api);
    if (!c)
        c = nfy__report_strcmp(fa.api_type, fb.api_type);
    return c;
}

static int cmp_index(const void *pa, const void *pb, void *ctx)
{
    const nfy_report *rep = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    size_t sealed = rep->nrows;
    if (a < sealed && b < sealed)
        return cmp_rows(rep, nfy__report_row(rep, a), nfy__report_row(rep, b));
    nfy_finding fa, fb;
    nfy_report_finding_read(rep, a, &fa);
    nfy_report_finding_read(rep, b, &fb);
    return nfy__report_cmp_finding(&fa, &fb);
}

void nfy__report_sorted_init(nfy__sorted *v, const nfy_report *rep)
{
    v->rep = rep;
    v->n = nfy_report_finding_count(rep);
    v->order = calloc(v->n ? v->n : 1, sizeof *v->order);
    if (!v->order)
        abort();
    for (size_t i = 0; i < v->n; i++)
        v->order[i] = i;
    if (v->n > 1)
        qsort_r(v->order, v->n, sizeof *v->order, cmp_index, (void *)rep);
}

void nfy__report_sorted_release(nfy__sorted *v)
{
    free(v->order);
    v->order = NULL;
    v->n = 0;
}

const nfy_finding *nfy__report_sorted_at(const nfy__sorted *v, size_t k,
                                         nfy_finding *buf)
{
    size_t i = v->order[k], sealed = v->rep->nrows;
    if (i >= sealed)
        return &v->rep->open_findings.items[i - sealed];
    nfy_report_finding_read(v->rep, i, buf);
    return buf;
}

void nfy__report_render_sorted(const nfy_report *rep, nfy__render_fn fn,
                               nfy_buf *out)
{
    nfy__sorted v;
    nfy__report_sorted_init(&v, rep);
    fn(&v, out);
    nfy__report_sorted_release(&v);
}

const nfy_finding *nfy__report_sorted_head(const nfy__sorted *v, size_t k,
                                           nfy_finding *buf)
{
    return nfy__report_finding_head(v->rep, v->order[k], buf);
}

const char *nfy__report_sorted_file(const nfy__sorted *v, size_t k)
{
    size_t i = v->order[k], sealed = v->rep->nrows;
    if (i >= sealed)
        return v->rep->open_findings.items[i - sealed].file;
    return nfy__report_string(v->rep, nfy__report_row(v->rep, i)->file);
}

size_t nfy_report_sorted(const nfy_report *rep, const nfy_finding ***out)
{
    nfy__sorted v;
    nfy__report_sorted_init(&v, rep);
    /* The pointers, then the copies they point at, in one block. */
    const nfy_finding **p =
        calloc(1, (v.n ? v.n : 1) * (sizeof *p + sizeof(nfy_finding)));
    if (!p)
        abort();
    nfy_finding *copies = (nfy_finding *)(p + v.n);
    for (size_t k = 0; k < v.n; k++) {
        nfy_report_finding_read(rep, v.order[k], &copies[k]);
        p[k] = &copies[k];
    }
    size_t n = v.n;
    nfy__report_sorted_release(&v);
    *out = p;
    return n;
}
