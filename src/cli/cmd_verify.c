#include "cli/commands.h"
int nfy_cmd_verify(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 4;
}
