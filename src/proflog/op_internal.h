/* Internals shared by the op report writers (op_report*.c). */
#ifndef NPUIFY_PROFLOG_OP_INTERNAL_H
#define NPUIFY_PROFLOG_OP_INTERNAL_H

#include "npuify/core.h"
#include "npuify/proflog.h"

/** Append a decimal integer (printf is slow for thousands of step ranges). */
void nfy_prof__add_int(nfy_buf *b, long long v);

/** Operators proper (aten and collectives), not annotations or steps. */
static inline bool nfy_prof__is_operator(const nfy_prof_op *op)
{
    return op->kind == NFY_PKIND_OP || op->kind == NFY_PKIND_COMM;
}

/** Self time on the host plus the accelerator, in microseconds. */
static inline double nfy_prof__self_time(const nfy_prof_op *op)
{
    return op->self_us[NFY_PDEV_CPU] + op->self_us[NFY_PDEV_ACCEL];
}

/** Sum of self times of everything but step rows (the share's base). */
static inline double nfy_prof__total_self(const nfy_prof_table *t)
{
    double sum = 0;
    for (size_t i = 0; i < t->ops.len; i++)
        if (t->ops.items[i].kind != NFY_PKIND_STEP)
            sum += nfy_prof__self_time(&t->ops.items[i]);
    return sum;
}

#endif
