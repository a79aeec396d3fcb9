/* Internal: abort with a message (allocation failure, size overflow). */
#ifndef NPUIFY_CORE_FATAL_H
#define NPUIFY_CORE_FATAL_H

_Noreturn void nfy__fatal(const char *msg);

#endif
