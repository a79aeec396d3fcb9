/*
 * GPU against NPU, operator by operator (what msprof-analyze's compare
 * tool answers): the framework operators of a CUDA profile (proflog's
 * table: calls, self device time from the kernels each launched) joined
 * by name with the NPU profile's (trace_view cpu_op events, device time
 * from their async_npu flows). Times are per step when both sides name
 * their steps (ProfilerStep), so runs of different lengths compare. A
 * GPU-side profile without device times (a CPU-only run) is compared on
 * host time instead, and the report says so.
 */
#include <math.h>

#include "npuprof/npuprof.h"

static double or0(double v)
{
    return isfinite(v) ? v : 0;
}

static bool is_operator_name(nfy_str name)
{
    nfy_prof_kind k = nfy_prof_classify(name);
    return k == NFY_PKIND_OP || k == NFY_PKIND_COMM;
}

static int64_t npu_steps(const nfy_npu_profile *p)
{
    int64_t n = 0;
    for (size_t i = 0; i < p->hostops.len; i++)
        n += nfy_str_starts_with(p->hostops.items[i].name,
                                 NFY_STR_LIT("ProfilerStep#"));
    return n;
}

static int cmp_rows(const void *a, const void *b)
{
    const nfy_npu_cmp_row *x = a, *y = b;
    double dx = x->npu_us - x->gpu_us, dy = y->npu_us - y->gpu_us;
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return nfy_str_cmp(x->name, y->name);
}

void nfy_npuprof_compare_build(const nfy_prof_table *gpu,
                               const nfy_npu_profile *p, nfy_npu_compare *c)
{
    memset(c, 0, sizeof *c);
    c->gpu_steps = gpu->steps.len ? (int64_t)gpu->steps.len : 1;
    c->npu_steps = npu_steps(p);
    if (c->npu_steps == 0 || gpu->steps.len == 0)
        c->gpu_steps = c->npu_steps = 1; /* totals, not per step */
    bool *matched = calloc(p->hostops.len + 1, 1);
    if (!matched)
        abort();
    for (size_t i = 0; i < gpu->ops.len; i++) {
        const nfy_prof_op *op = &gpu->ops.items[i];
        if (!nfy_prof_op_is_operator(op))
            continue;
        nfy_npu_cmp_row r;
        memset(&r, 0, sizeof r);
        r.name = op->full_name.len ? op->full_name : op->name;
        r.on_gpu = true;
        r.gpu_calls = op->calls;
        r.gpu_us = or0(op->self_us[NFY_PDEV_ACCEL]) / (double)c->gpu_steps;
        r.gpu_host_us = or0(op->total_us[NFY_PDEV_CPU]) / (double)c->gpu_steps;
        const nfy_npu_hostop *h = nfy_npuprof_hostop_find(p, r.name);
        if (h) {
            matched[h - p->hostops.items] = true;
            r.on_npu = true;
            r.npu_calls = h->calls;
            r.npu_us = h->device_us / (double)c->npu_steps;
            r.npu_host_us = h->host_us / (double)c->npu_steps;
        }
        nfy_vec_push(&c->rows, r);
    }
    for (size_t i = 0; i < p->hostops.len; i++) {
        const nfy_npu_hostop *h = &p->hostops.items[i];
        if (matched[i] || !is_operator_name(h->name))
            continue;
        nfy_npu_cmp_row r;
        memset(&r, 0, sizeof r);
        r.name = h->name;
        r.on_npu = true;
        r.npu_calls = h->calls;
        r.npu_us = h->device_us / (double)c->npu_steps;
        r.npu_host_us = h->host_us / (double)c->npu_steps;
        nfy_vec_push(&c->rows, r);
    }
    free(matched);
    double gpu_dev = 0;
    for (size_t i = 0; i < c->rows.len; i++)
        gpu_dev += c->rows.items[i].gpu_us;
    /* A CPU-only GPU-side profile (no device times): compare host time. */
    c->by_host = gpu_dev == 0;
    for (size_t i = 0; c->by_host && i < c->rows.len; i++) {
        c->rows.items[i].gpu_us = c->rows.items[i].gpu_host_us;
        c->rows.items[i].npu_us = c->rows.items[i].npu_host_us;
    }
    for (size_t i = 0; i < c->rows.len; i++) {
        const nfy_npu_cmp_row *r = &c->rows.items[i];
        c->gpu_total_us += r->gpu_us;
        c->npu_total_us += r->npu_us;
        c->both += r->on_gpu && r->on_npu;
        c->only_gpu += r->on_gpu && !r->on_npu;
        c->only_npu += !r->on_gpu && r->on_npu;
    }
    for (size_t i = 0; i < c->rows.len; i++) {
        nfy_npu_cmp_row *r = &c->rows.items[i];
        r->gpu_share = c->gpu_total_us > 0 ? r->gpu_us / c->gpu_total_us : 0;
        r->npu_share = c->npu_total_us > 0 ? r->npu_us / c->npu_total_us : 0;
    }
    if (c->rows.len) /* qsort wants a non-NULL base */
        qsort(c->rows.items, c->rows.len, sizeof *c->rows.items, cmp_rows);
}

void nfy_npuprof_compare_release(nfy_npu_compare *c)
{
    nfy_vec_free(&c->rows);
}
