/* Internals shared by the op report writers (op_report*.c). */
#ifndef NPUIFY_PROFLOG_OP_INTERNAL_H
#define NPUIFY_PROFLOG_OP_INTERNAL_H

#include "npuify/core.h"

/** Append a decimal integer (printf is slow for thousands of step ranges). */
void nfy_prof__add_int(nfy_buf *b, long long v);

#endif
