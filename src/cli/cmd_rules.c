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
#include "core/core.h"
#include "rules/rules.h"

#define MAX_RULE_FILES 16

typedef struct {
    const char *explain;
    const char *files[MAX_RULE_FILES];
    size_t nfiles;
    int kind; /* -1: all */
    bool json;
    bool no_builtin;
    bool json_diags;
    bool color;
} rules_args;

static const char usage_text[] =
    "usage: npuify rules [options]\n"
    "\n"
    "List the migration rules: ID, kind, safety and message.\n"
    "\n"
    "options:\n"
    "  --explain ID          show one rule in full, with its example\n"
    "  --json                print the rules as JSON (npuify-rules/1 schema)\n"
    "  --kind KIND           only rules of this kind (rename-qualified-api,\n"
    "                        rewrite-argument, rewrite-string-in-context,\n"
    "                        insert-import, remove-import, flag)\n"
    "  --rules FILE.json     add custom rules (npuify or msFmkTransplt "
    "schema);\n"
    "                        a bad file is reported with file:line:col\n"
    "  --no-builtin          leave out the built-in catalogue\n"
    "  --json-diagnostics    print diagnostics as JSON lines\n"
    "  --color               colour diagnostics\n"
    "\n"
    "Exit: 0 ok, 2 usage (or unknown rule ID), 3 bad rule file, 4 internal.\n";

static int parse_args(int argc, char **argv, rules_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage_text, stdout);
            return NFY_EXIT_OK;
        } else if (nfy_cli_opt(argc, argv, &i, NULL, "--explain", &val)) {
            if (!val)
                return nfy_cli_usage_error("rules", "--explain needs an ID");
            a->explain = val;
        } else if (nfy_cli_opt(argc, argv, &i, NULL, "--rules", &val)) {
            if (!val)
                return nfy_cli_usage_error("rules", "--rules needs a FILE");
            if (a->nfiles == MAX_RULE_FILES)
                return nfy_cli_usage_error("rules", "too many --rules");
            a->files[a->nfiles++] = val;
        } else if (nfy_cli_opt(argc, argv, &i, NULL, "--kind", &val)) {
            nfy_rule_kind k;
            if (!val || !nfy_rule_kind_parse(nfy_str_from_cstr(val), &k))
                return nfy_cli_usage_error("rules", "unknown --kind");
            a->kind = (int)k;
        } else if (!strcmp(arg, "--json")) {
            a->json = true;
        } else if (!strcmp(arg, "--no-builtin")) {
            a->no_builtin = true;
        } else if (!strcmp(arg, "--json-diagnostics")) {
            a->json_diags = true;
        } else if (!strcmp(arg, "--color")) {
            a->color = true;
        } else {
            return nfy_cli_usage_error("rules", "unknown argument");
        }
    }
    return -1;
}

/* Built-in set plus the --rules files; exit code or -1 to go on. */
static int load_set(const rules_args *a, nfy_rule_set **out, nfy_diags *diags)
{
    nfy_rule_set *set =
        a->no_builtin ? nfy_rule_set_new_empty() : nfy_rule_set_new(diags);
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
    if (a->json)
        nfy_rules_render_json(set, a->kind, true, &out);
    else
        nfy_rules_render_table(set, a->kind, true, &out);
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    nfy_buf_release(&out);
    return NFY_EXIT_OK;
}

static int explain(const rules_args *a, const nfy_rule_set *set)
{
    const nfy_rule *r = nfy_rule_set_find(set, a->explain);
    if (!r) {
        fprintf(stderr,
                "npuify rules: error[usage]: no rule '%s' (see 'npuify "
                "rules')\n",
                a->explain);
        return NFY_EXIT_USAGE;
    }
    nfy_buf out = NFY_BUF_INIT;
    if (a->json) {
        nfy_rule_render_json(r, &out);
        nfy_buf_addch(&out, '\n');
    } else {
        nfy_rule_render_explain(r, &out);
    }
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    nfy_buf_release(&out);
    return NFY_EXIT_OK;
}

int nfy_cmd_rules(int argc, char **argv)
{
    rules_args a = {.kind = -1};
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
