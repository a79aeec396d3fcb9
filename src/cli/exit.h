/* The stable process exit codes of the npuify command (DESIGN.md section
 * 1): what every subcommand returns. The library returns nfy_status. */
#ifndef NPUIFY_CLI_EXIT_H
#define NPUIFY_CLI_EXIT_H

enum nfy_exit {
    NFY_EXIT_OK = 0,
    NFY_EXIT_FINDINGS = 1,
    NFY_EXIT_USAGE = 2,
    NFY_EXIT_INPUT = 3,
    NFY_EXIT_INTERNAL = 4
};

#endif
