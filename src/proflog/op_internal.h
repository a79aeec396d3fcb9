/* Internals of proflog's operator table (op_*.c); src/report reads the
 * table through the queries of proflog.h. */
#ifndef NPUIFY_PROFLOG_OP_INTERNAL_H
#define NPUIFY_PROFLOG_OP_INTERNAL_H

#include "core/core.h"
#include "proflog/proflog.h"

/** Count calls and self time of op at the user frame (op_sites.c);
 *  a frame that is not the user's is ignored. */
void nfy__prof_add_site(nfy_prof_table *t, nfy_prof_op *op, nfy_str frame,
                        int64_t calls, double self_us);

/** The name of a dynamic-shape verdict (nfy_prof_dyn_name). */
static inline const char *nfy_prof__dyn_name(nfy_prof_dyn d)
{
    return d == NFY_PDYN_NEW_LATER       ? "new-in-later-step"
           : d == NFY_PDYN_SHAPE_CHANGED ? "shape-changed"
           : d == NFY_PDYN_POSSIBLE      ? "possibly-dynamic"
                                         : "static";
}

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
