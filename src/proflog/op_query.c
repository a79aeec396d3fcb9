/* The public queries over an operator table (proflog.h), for renderers
 * outside proflog. */
#include "proflog/op_internal.h"

bool nfy_prof_op_is_operator(const nfy_prof_op *op)
{
    return nfy_prof__is_operator(op);
}

double nfy_prof_op_self_time(const nfy_prof_op *op)
{
    return nfy_prof__self_time(op);
}

double nfy_prof_table_self_time(const nfy_prof_table *t)
{
    return nfy_prof__total_self(t);
}

const char *nfy_prof_dyn_name(nfy_prof_dyn d)
{
    return nfy_prof__dyn_name(d);
}

void nfy_prof_join_steps(const nfy_prof_step_vec *v, nfy_buf *tmp)
{
    nfy_prof__join_steps(v, tmp);
}

void nfy_prof_op_notes(const nfy_prof_op *op, nfy_buf *tmp)
{
    nfy_prof__notes_of(op, tmp);
}
