/* Internals shared by the op report writers (op_report*.c). */
#ifndef NPUIFY_PROFLOG_OP_INTERNAL_H
#define NPUIFY_PROFLOG_OP_INTERNAL_H

#include "core/core.h"
#include "proflog/proflog.h"

/** Count calls and self time of op at the user frame (op_sites.c);
 *  a frame that is not the user's is ignored. */
void nfy__prof_add_site(nfy_prof_table *t, nfy_prof_op *op, nfy_str frame,
                        int64_t calls, double self_us);

/** order[0..sites.len) = op's site indices, most calls first. */
void nfy__prof_sites_by_calls(const nfy_prof_op *op, size_t *order);
/** "model.py:9 forward (2 calls, 0.69%); ..." most calls first; tmp
 *  reset. total: the share's base (nfy_prof__total_self). */
void nfy__prof_join_sites(const nfy_prof_op *op, double total, nfy_buf *tmp);

/** Append a decimal integer (printf is slow for thousands of step ranges). */
void nfy_prof__add_int(nfy_buf *b, long long v);

/** "1-3 5 7-9": a sorted step list as runs (tmp is reset first). */
void nfy_prof__join_steps(const nfy_prof_step_vec *v, nfy_buf *tmp);

/** The Notes text of ops.csv (cut names, cut shapes...); tmp reset. */
void nfy_prof__notes_of(const nfy_prof_op *op, nfy_buf *tmp);

/** The name of a dynamic-shape verdict in every report. */
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
