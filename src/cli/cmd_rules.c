/* Placeholder until the rules command lands; replaced by its owner. */
#include <stdio.h>

#include "cli/commands.h"
#include "npuify/core.h"

int nfy_cmd_rules(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "npuify rules: not built yet\n");
    return NFY_EXIT_INTERNAL;
}
