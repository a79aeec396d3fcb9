/* db query's answer for a Python API, shared by `db query` and the
 * language server's hover (cmd_db.c). */
#ifndef NPUIFY_CLI_DB_QUERY_H
#define NPUIFY_CLI_DB_QUERY_H

#include <jansson.h>

#include "apidb/apidb.h"
#include "rules/rules.h"

/* The JSON object `npuify db query NAME --format json` prints. */
json_t *nfy_cli_db_query_api(const nfy_apidb_version *v, const char *name,
                             const nfy_rule_set *rules);

#endif
