/*
 * The npuify subcommands. Each lives in its own cmd_<name>.c and receives
 * argv with argv[0] set to the subcommand name. Returns an enum nfy_exit.
 */
#ifndef NPUIFY_CLI_COMMANDS_H
#define NPUIFY_CLI_COMMANDS_H

#include "cli/exit.h"

int nfy_cli_cmd_tokens(int argc, char **argv);
int nfy_cli_cmd_syntax(int argc, char **argv);
int nfy_cli_cmd_convert(int argc, char **argv);
int nfy_cli_cmd_rules(int argc, char **argv);
int nfy_cli_cmd_ops(int argc, char **argv);
int nfy_cli_cmd_run(int argc, char **argv);
int nfy_cli_cmd_verify(int argc, char **argv);
int nfy_cli_cmd_review(int argc, char **argv);
int nfy_cli_cmd_analyse(int argc, char **argv);
int nfy_cli_cmd_db(int argc, char **argv);
int nfy_cli_cmd_lsp(int argc, char **argv);

#endif
