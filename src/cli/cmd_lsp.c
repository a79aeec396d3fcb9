/*
 * npuify lsp: the language server on stdin/stdout (src/lsp). The editor
 * starts it; diagnostics, quick fixes and hover come from the same
 * pipeline and data as convert and `db query`.
 */
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/conv_options.h"
#include "cli/db_query.h"
#include "cli/opt_table.h"
#include "lsp/lsp.h"

enum lsp_opt { OPT_STDIO, OPT_DEBOUNCE, OPT_EXPLAIN_DIR };

static const nfy_cli_option lsp_opts[] = {
    {OPT_STDIO, NULL, "--stdio", NULL,
     "talk over stdin/stdout (the default and only\ntransport)"},
    NFY_CLI_OPTION_TORCH_HELP(
        "target torch version when the project's\n"
        "npuify.toml does not say (default\n" NFY_CLI_DEFAULT_VERSION ")"),
    {OPT_DEBOUNCE, NULL, "--debounce", "MS",
     "quiet time after a change before its diagnostics\n(default 20)"},
    {OPT_EXPLAIN_DIR, NULL, "--explain-dir", "DIR",
     "where rule explanations linked from diagnostics\n"
     "are written (default $XDG_CACHE_HOME/npuify/rules)"},
};

static const nfy_cli_command lsp_cmd = {
    "lsp",
    "usage: npuify lsp [--stdio] [--torch-version V] [--debounce MS]\n",
    "Run the language server (LSP 3.17, JSON-RPC over stdin/stdout) for an\n"
    "editor: diagnostics for CUDA code as you type, a quick fix per edit\n"
    "and one for all safe edits of a file, the NPU support of the torch API\n"
    "under the cursor on hover. Settings come from the project root's\n"
    "npuify.toml or pyproject.toml [tool.npuify], as for convert.\n",
    lsp_opts,
    sizeof lsp_opts / sizeof lsp_opts[0],
    "Exit: 0 after shutdown and exit, 1 when the client left without them,\n"
    "2 usage.\n"};

static void add_line(nfy_buf *md, json_t *o, const char *key, const char *label)
{
    const char *v = json_string_value(json_object_get(o, key));
    if (v && v[0])
        nfy_buf_addf(md, "- %s: %s\n", label, v);
}

/* The db query answer as Markdown. */
static char *hover_text(void *user, const char *qualname, const char *tv)
{
    const nfy_rule_set *rules = user;
    const nfy_apidb_version *v = nfy_apidb_version_default();
    if (tv && nfy_apidb_version_parse(nfy_str_from_cstr(tv), &v) != NFY_OK)
        v = nfy_apidb_version_default();
    json_t *o = nfy_cli_db_query_api(v, qualname, rules);
    const char *status = json_string_value(json_object_get(o, "status"));
    char *out = NULL;
    if (status && strcmp(status, "not-a-torch-api")) {
        nfy_buf md = NFY_BUF_INIT;
        nfy_buf_addf(&md, "**%s** on Ascend NPU (torch %s): **%s**\n\n",
                     qualname, v->name, status);
        add_line(&md, o, "decided_by", "decided by");
        add_line(&md, o, "source", "source");
        add_line(&md, o, "restriction", "restriction");
        add_line(&md, o, "first_supported", "first supported in");
        json_t *alt = json_object_get(o, "npu_alternatives");
        size_t i;
        json_t *a;
        json_array_foreach(alt, i, a)
        {
            nfy_buf_addf(&md, "- NPU: %s\n", json_string_value(a));
        }
        out = strdup(md.data);
        nfy_buf_release(&md);
    }
    json_decref(o);
    return out;
}

static char *default_explain_dir(nfy_arena *a)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        return nfy_arena_fmt(a, "%s/npuify/rules", xdg);
    return home && home[0] == '/'
               ? nfy_arena_fmt(a, "%s/.cache/npuify/rules", home)
               : NULL;
}

static int take_debounce(const char *val, nfy_lsp_opts *o)
{
    char *end = NULL;
    unsigned long ms = strtoul(val, &end, 10);
    if (!*val || *end || ms > 60000)
        return nfy_cli_usage_error("lsp",
                                   "--debounce takes milliseconds, 0 to 60000");
    o->debounce_ms = (unsigned)ms;
    return -1;
}

/* One argument (arg as given); -1 to go on, else an exit code. */
static int take_option(int id, const char *val, const char *arg,
                       nfy_lsp_opts *o, nfy_arena *a)
{
    switch (id) {
    case NFY_CLI_NONE:
    case OPT_STDIO:
        return -1;
    case NFY_CLI_OPT_TORCH:
        o->torch_version = val;
        return nfy_cli_check_torch_version("lsp", val);
    case OPT_DEBOUNCE:
        return take_debounce(val, o);
    case OPT_EXPLAIN_DIR:
        o->explain_dir = nfy_arena_strdup(a, val);
        return -1;
    }
    return nfy_cli_usage_error(
        "lsp", nfy_arena_fmt(a, "unexpected argument '%s'", arg));
}

static int parse_args(int argc, char **argv, nfy_lsp_opts *o, nfy_arena *a)
{
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val = NULL;
        int id = nfy_cli_next(&lsp_cmd, argc, argv, &i, &dashdash, &val);
        int rc = nfy_cli_parse_end(id);
        if (rc < 0)
            rc = take_option(id, val, argv[i], o, a);
        if (rc >= 0)
            return rc;
    }
    return -1;
}

int nfy_cli_cmd_lsp(int argc, char **argv)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_lsp_opts o = {.debounce_ms = 20, .hover = hover_text};
    int rc = parse_args(argc, argv, &o, &a);
    if (rc >= 0) {
        nfy_arena_release(&a);
        return rc;
    }
    if (!o.explain_dir)
        o.explain_dir = default_explain_dir(&a);
    nfy_diags d;
    nfy_diags_init(&d);
    nfy_rule_set *rules = nfy_rule_set_new(&d); /* for hover's alternatives */
    nfy_diags_release(&d);
    o.hover_user = rules;
    signal(SIGPIPE, SIG_IGN); /* a client that goes away is seen as EPIPE */
    rc = nfy_lsp_serve(STDIN_FILENO, STDOUT_FILENO, &o);
    nfy_rule_set_free(rules);
    nfy_arena_release(&a);
    return rc;
}
