/* The queries over an operator table (proflog.h) for the report writers
 * (src/report/ops*.c): proflog reads, report renders. */
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

void nfy_prof_dynamic_phrase(const nfy_prof_table *t, const nfy_prof_counts *c,
                             int32_t ref, nfy_buf *out)
{
    if (!t->steps_apart) {
        (void)nfy_buf_addf(out, "%s: steps cannot be told apart; ",
                           t->steps.len ? "one step only" : "no step markers");
        if (c->possible)
            (void)nfy_buf_addf(out,
                               "%zu operator%s with several input shapes, "
                               "possibly dynamic",
                               c->possible, c->possible == 1 ? "" : "s");
        else
            (void)nfy_buf_addstr(out, "no operator has several input shapes");
        return;
    }
    (void)nfy_buf_addf(out,
                       "%zu dynamic-shape operator%s (reference step %d of "
                       "%zu)",
                       c->dynamic, c->dynamic == 1 ? "" : "s", (int)ref,
                       t->steps.len);
}
