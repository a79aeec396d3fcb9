/* Placeholder until the convert command lands; replaced by its owner. */
#include <stdio.h>

#include "cli/commands.h"
#include "npuify/core.h"

int nfy_cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "npuify convert: not built yet\n");
    return NFY_EXIT_INTERNAL;
}
