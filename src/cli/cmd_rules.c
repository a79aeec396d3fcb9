/*
 * `npuify rules`: list the rule catalogue (built-in plus --rules files) as an
 * aligned table or JSON, or explain one rule with its before/after example.
 * A bad rule file gives file:line:col diagnostics and exit 3, so the command
 * doubles as a validator for custom rule files.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/opt_table.h"
#include "core/core.h"
#include "rules/pass_list.h"
#include "rules/rules.h"

#define MAX_RULE_FILES 16

typedef struct {
    const char *explain;
    const char *files[MAX_RULE_FILES];
    size_t nfiles;
    int kind; /* -1: all */
    bool json;
    bool passes;
    bool no_builtin;
    bool json_diags;
    bool color;
} rules_args;

enum rules_opt {
    OPT_EXPLAIN,
    OPT_JSON,
    OPT_KIND,
    OPT_PASSES,
    OPT_RULES,
    OPT_NO_BUILTIN,
    OPT_JSON_DIAGS
};

/* The options of rules: its parsing and --help come from this list. */
static const nfy_cli_option rules_opts[] = {
    {OPT_EXPLAIN, NULL, "--explain", "ID",
     "show one rule in full, with its example"},
    {OPT_PASSES, NULL, "--passes", NULL,
     "list the passes in run order, with their rules"},
    {OPT_JSON, NULL, "--json", NULL,
     "print the rules as JSON (npuify-rules/1 schema)"},
    {OPT_KIND, NULL, "--kind", "KIND",
     "only rules of this kind (rename-qualified-api,\n"
     "rewrite-argument, rewrite-string-in-context,\n"
     "insert-import, remove-import, flag)"},
    {OPT_RULES, NULL, "--rules", "FILE.json",
     "add custom rules (npuify or msFmkTransplt\n"
     "schema); a bad file is reported with\nfile:line:col"},
    {OPT_NO_BUILTIN, NULL, "--no-builtin", NULL,
     "leave out the built-in catalogue"},
    {OPT_JSON_DIAGS, NULL, "--json-diagnostics", NULL,
     "print diagnostics as JSON lines"},
    NFY_CLI_COLOR_OPTIONS,
};

static const nfy_cli_command rules_cmd = {
    "rules",
    "usage: npuify rules [options]\n",
    "List the migration rules: ID, kind, safety and message.\n",
    rules_opts,
    sizeof rules_opts / sizeof rules_opts[0],
    "Exit: 0 ok, 2 usage (or unknown rule ID), 3 bad rule file, 4 internal.\n"};

/* One option (id from the table, its value or NULL); -1 to go on. */
static int take_option(rules_args *a, int id, const char *val)
{
    nfy_rule_kind k;
    switch (id) {
    case OPT_EXPLAIN:
        a->explain = val;
        break;
    case OPT_RULES:
        if (a->nfiles == MAX_RULE_FILES)
            return nfy_cli_usage_error("rules", "too many --rules");
        a->files[a->nfiles++] = val;
        break;
    case OPT_KIND:
        if (!nfy_rules_kind_parse(nfy_str_from_cstr(val), &k))
            return nfy_cli_usage_error("rules", "unknown --kind");
        a->kind = (int)k;
        break;
    case OPT_JSON:
        a->json = true;
        break;
    case OPT_PASSES:
        a->passes = true;
        break;
    case OPT_NO_BUILTIN:
        a->no_builtin = true;
        break;
    case OPT_JSON_DIAGS:
        a->json_diags = true;
        break;
    case NFY_CLI_OPT_COLOR:
    case NFY_CLI_OPT_NO_COLOR:
        return nfy_cli_color_option("rules", id, val, &a->color);
    }
    return -1;
}

static int parse_args(int argc, char **argv, rules_args *a)
{
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int id = nfy_cli_next(&rules_cmd, argc, argv, &i, &dashdash, &val);
        if (id == NFY_CLI_HELP)
            return NFY_EXIT_OK;
        if (id == NFY_CLI_ERROR)
            return NFY_EXIT_USAGE;
        if (id == NFY_CLI_ARG)
            return nfy_cli_usage_error("rules", "takes no argument (see "
                                                "--explain ID)");
        int rc = id >= 0 ? take_option(a, id, val) : -1;
        if (rc >= 0)
            return rc;
    }
    return -1;
}

/* Built-in set plus the --rules files; exit code or -1 to go on. */
static int load_set(const rules_args *a, nfy_rule_set **out, nfy_diags *diags)
{
    nfy_rule_set *set =
        a->no_builtin ? nfy_rules_set_new_empty() : nfy_rule_set_new(diags);
    if (!set)
        return NFY_EXIT_INTERNAL;
    int rc = -1;
    for (size_t i = 0; i < a->nfiles; i++)
        if (nfy_rules_load_file(set, a->files[i], diags) != NFY_OK)
            rc = NFY_EXIT_INPUT; /* keep going: report every bad file */
    if (rc != -1) {
        nfy_rule_set_free(set);
        return rc;
    }
    *out = set;
    return -1;
}

static int print_rules(const rules_args *a, const nfy_rule_set *set)
{
    nfy_buf out = NFY_BUF_INIT;
    if (a->passes)
        nfy_rules_render_passes(set, &out);
    else if (a->json)
        nfy_rules_render_json(set, a->kind, true, &out);
    else
        nfy_rules_render_table(set, a->kind, true, &out);
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    nfy_buf_release(&out);
    return NFY_EXIT_OK;
}

static int explain(const rules_args *a, const nfy_rule_set *set)
{
    const nfy_rule *r = nfy_rules_set_find(set, a->explain);
    if (!r) {
        nfy_buf m = NFY_BUF_INIT;
        nfy_buf_addf(&m, "no rule '%s' (see 'npuify rules')", a->explain);
        int rc = nfy_cli_usage_error("rules", nfy_buf_cstr(&m));
        nfy_buf_release(&m);
        return rc;
    }
    nfy_buf out = NFY_BUF_INIT;
    if (a->json) {
        nfy_rules_rule_render_json(r, &out);
        nfy_buf_addch(&out, '\n');
    } else {
        nfy_rules_render_explain(r, &out);
    }
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    nfy_buf_release(&out);
    return NFY_EXIT_OK;
}

int nfy_cli_cmd_rules(int argc, char **argv)
{
    rules_args a = {.kind = -1};
    (void)nfy_cli_color("auto", &a.color);
    int rc = parse_args(argc, argv, &a);
    if (rc != -1)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_rule_set *set = NULL;
    rc = load_set(&a, &set, &diags);
    nfy_cli_print_diags(&diags, a.color, a.json_diags);
    nfy_diags_release(&diags);
    if (rc != -1)
        return rc;
    rc = a.explain ? explain(&a, set) : print_rules(&a, set);
    nfy_rule_set_free(set);
    return rc;
}
