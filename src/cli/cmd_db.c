/*
 * npuify db: the shipped NPU support data as answers.
 *   db query NAME [--torch-version V]   one API or operator, every data set
 *   db stats                            counts per version
 *   db diff V1 V2                       what changed between two versions
 * --format json prints one JSON document (jansson) for scripts.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/analyse.h"
#include "apidb/apidb.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/db_query.h"
#include "cli/opt_table.h"
#include "rules/rules.h"

enum db_opt { OPT_TORCH, OPT_FORMAT };

/* The options of db: its parsing and --help come from this list. */
static const nfy_cli_option db_opts[] = {
    {OPT_TORCH, NULL, "--torch-version", "V",
     "query: the version to answer for (default\n" NFY_CLI_DEFAULT_VERSION
     ", the newest that is not a beta)"},
    {OPT_FORMAT, NULL, "--format", "text|json",
     "text (default) or one JSON document"},
};

static const nfy_cli_command db_cmd = {
    "db",
    "usage: npuify db query NAME [--torch-version V] [--format text|json]\n"
    "       npuify db stats [--format text|json]\n"
    "       npuify db diff V1 V2 [--format text|json]\n",
    "Answer from the shipped support data (data/npu, data/README.md): is an\n"
    "API (torch.cdist, torch.cuda.nvtx.range_push, apex.optimizers.FusedAdam)\n"
    "or an operator (aten::nonzero) supported on NPU, since which version,\n"
    "with which restriction, CPU fallback, NPU alternative; counts per\n"
    "version; the names added and removed between two versions.\n",
    db_opts,
    sizeof db_opts / sizeof db_opts[0],
    "Exit: 0 ok, 2 usage (or a version with no data).\n"};

typedef struct {
    const char *sub;
    const char *args[2];
    size_t nargs;
    const char *torch_version;
    bool json;
} db_args;

/* A positional argument: the subcommand, then its arguments. */
static int take_arg(db_args *a, const char *val)
{
    if (!a->sub)
        a->sub = val;
    else if (a->nargs < 2)
        a->args[a->nargs++] = val;
    else
        return nfy_cli_usage_error("db", "too many arguments");
    return -1;
}

static int parse_args(int argc, char **argv, db_args *a)
{
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int rc = -1;
        switch (nfy_cli_next(&db_cmd, argc, argv, &i, &dashdash, &val)) {
        case NFY_CLI_HELP:
            return NFY_EXIT_OK;
        case NFY_CLI_ERROR:
            return NFY_EXIT_USAGE;
        case NFY_CLI_ARG:
            rc = take_arg(a, val);
            break;
        case OPT_TORCH:
            a->torch_version = val;
            break;
        case OPT_FORMAT:
            if (strcmp(val, "json") && strcmp(val, "text"))
                return nfy_cli_usage_error("db", "--format takes text|json");
            a->json = !strcmp(val, "json");
            break;
        }
        if (rc >= 0)
            return rc;
    }
    if (!a->sub)
        return nfy_cli_usage_error("db", "give query, stats or diff");
    return -1;
}

static const nfy_apidb_version *version_arg(const char *text, int *rc)
{
    const nfy_apidb_version *v = NULL;
    if (text == NULL)
        return nfy_apidb_version_default();
    if (nfy_apidb_version_parse(nfy_str_from_cstr(text), &v) != NFY_OK) {
        nfy_arena a = NFY_ARENA_INIT;
        *rc = nfy_cli_usage_error(
            "db", nfy_arena_fmt(&a, "no data for version '%s'; shipped: %s",
                                text, nfy_apidb_version_list()));
        nfy_arena_release(&a);
        return NULL;
    }
    return v;
}

static void set_str(json_t *o, const char *key, const char *val)
{
    json_object_set_new(o, key, val ? json_string(val) : json_null());
}

static void print_json(json_t *o)
{
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (s)
        puts(s);
    free(s);
    json_decref(o);
}

/* Text form: "key: value" per member, in order. */
static void print_text(json_t *o, int indent)
{
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val)
    {
        if (json_is_null(val))
            continue;
        printf("%*s%s:", indent, "", key);
        if (json_is_object(val)) {
            putchar('\n');
            print_text(val, indent + 2);
        } else if (json_is_array(val)) {
            size_t i;
            json_t *item;
            json_array_foreach(val, i, item)
                printf("%s%s", i ? ", " : " ",
                       json_is_string(item) ? json_string_value(item) : "?");
            putchar('\n');
        } else if (json_is_string(val)) {
            printf(" %s\n", json_string_value(val));
        } else if (json_is_boolean(val)) {
            printf(" %s\n", json_is_true(val) ? "yes" : "no");
        } else if (json_is_integer(val)) {
            printf(" %lld\n", (long long)json_integer_value(val));
        }
    }
    if (indent == 0)
        json_decref(o);
}

static void emit(const db_args *a, json_t *o)
{
    if (a->json)
        print_json(o);
    else
        print_text(o, 0);
}

/* ---- query: operators ---- */

static bool is_operator_name(const char *name)
{
    return strstr(name, "::") != NULL || !strncmp(name, "torch.ops.", 10);
}

static json_t *query_op(const nfy_apidb_version *v, const char *name)
{
    nfy_op_info info;
    nfy_str n = nfy_str_from_cstr(name);
    nfy_op_status st = nfy_apidb_op_status(v, n, &info);
    const nfy_apidb_version *first = nfy_apidb_op_first_supported(n);
    json_t *o = json_object();
    set_str(o, "name", name);
    set_str(o, "kind", "operator");
    set_str(o, "torch_version", v->name);
    set_str(o, "status", nfy_apidb_op_status_name(st));
    json_object_set_new(o, "supported", json_boolean(st == NFY_OP_SUPPORTED));
    json_object_set_new(o, "cpu_fallback",
                        json_boolean(st == NFY_OP_CPU_FALLBACK));
    set_str(o, "first_supported", first ? first->name : NULL);
    set_str(o, "matched", info.matched);
    json_object_set_new(o, "custom_npu_op", json_boolean(info.custom));
    set_str(o, "native_functions", info.torch_version);
    return o;
}

/* ---- query: Python APIs ---- */

static const char *first_supported_api(const char *name)
{
    nfy_arena a = NFY_ARENA_INIT;
    const char *found = NULL;
    for (size_t i = 0; i < nfy_apidb_version_count() && !found; i++) {
        const nfy_apidb_version *v = nfy_apidb_version_at(i);
        nfy_analyse_verdict d;
        if (nfy_analyse_judge(v->name, nfy_str_from_cstr(name), &a, &d) ==
                NFY_API_SUPPORTED &&
            d.judged && d.api && !strcmp(d.api, name))
            found = v->name;
    }
    nfy_arena_release(&a);
    return found;
}

static const char *api_status_name(int st)
{
    return st == NFY_API_SUPPORTED     ? "supported"
           : st == NFY_API_UNSUPPORTED ? "unsupported"
                                       : "unknown";
}

static void add_native(json_t *o, const nfy_apidb_version *v, nfy_str n)
{
    nfy_native_api na;
    if (!nfy_apidb_native_api(v, n, &na))
        return;
    json_t *x = json_object();
    set_str(x, "list", na.data_version);
    set_str(x, "npu_name", na.npu_name);
    set_str(x, "products", na.products);
    json_object_set_new(x, "supported", json_boolean(na.supported == 'Y'));
    set_str(x, "note", na.note);
    json_object_set_new(o, "native_api_list", x);
}

/* NPU alternatives: the rule tables, torch.npu, renames, affinity, C++. */
static void add_alternatives(json_t *o, const nfy_apidb_version *v, nfy_str n,
                             const nfy_rule_set *rules)
{
    json_t *alt = json_array();
    nfy_rule_hit hits[4];
    size_t nh =
        rules ? nfy_rules_set_lookup(rules, NFY_LOOKUP_QUALNAME, n, hits, 4)
              : 0;
    for (size_t i = 0; i < nh && i < 4; i++) {
        const nfy_rule_hit *h = &hits[i];
        if ((h->rule->flags & NFY_RULE_F_APIDB) &&
            !nfy_apidb_npu_module_has(v, n, NULL))
            continue; /* the rename needs torch.npu to have the name */
        const char *to = h->pair && h->pair->to && h->pair->to[0]
                             ? h->pair->to
                             : h->rule->replacement;
        /* a module rename keeps the rest of the name */
        size_t tail = h->pair == NULL && to ? h->matched_len : n.len;
        char buf[512];
        snprintf(buf, sizeof buf, "%s%.*s (rule %s: %s)",
                 to ? to : "no counterpart", (int)(n.len - tail), n.ptr + tail,
                 h->rule->id,
                 h->pair && h->pair->note ? h->pair->note : h->rule->message);
        json_array_append_new(alt, json_string(buf));
    }
    const char *ren = nfy_apidb_msft_rename(n);
    if (ren)
        json_array_append_new(alt, json_string(ren));
    nfy_apidb_affinity af;
    if (nfy_apidb_affinity_find(n, &af))
        json_array_append_new(alt, json_string(af.replacement));
    const char *cpp = nfy_apidb_cpp_npu_equivalent(n);
    if (cpp)
        json_array_append_new(alt, json_string(cpp));
    json_object_set_new(o, "npu_alternatives", alt);
}

/* What the restriction means for convert's rename to torch.npu
 * (data/npu/restriction_effects.tsv): "rename: safe", "rename: safe when
 * reading name, total_memory, ...", "rename: manual", with the reason. */
static void add_rename_effect(json_t *o, const nfy_apidb_version *v, nfy_str n)
{
    nfy_api_restriction rs;
    if (!nfy_apidb_api_restriction(v, n, &rs))
        return;
    char buf[1024];
    const char *why =
        rs.why ? rs.why : "a restriction npuify has no reading of";
    switch (rs.effect) {
    case NFY_RESTRICT_ADVICE:
        snprintf(buf, sizeof buf, "safe (%s)", why);
        break;
    case NFY_RESTRICT_ATTRS:
        snprintf(buf, sizeof buf,
                 "safe only when reading %s at the call; else "
                 "manual (%s)",
                 rs.condition ? rs.condition : "?", why);
        break;
    default:
        snprintf(buf, sizeof buf, "manual: not renamed, named at its line (%s)",
                 why);
    }
    set_str(o, "rename_to_npu", buf);
}

json_t *nfy_cli_db_query_api(const nfy_apidb_version *v, const char *name,
                             const nfy_rule_set *rules)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_str n = nfy_str_from_cstr(name);
    nfy_analyse_verdict d;
    int st = nfy_analyse_judge(v->name, n, &a, &d);
    json_t *o = json_object();
    set_str(o, "name", name);
    set_str(o, "kind", "api");
    set_str(o, "torch_version", v->name);
    set_str(o, "status", d.judged ? api_status_name(st) : "not-a-torch-api");
    set_str(o, "decided_by", d.api);
    set_str(o, "source", d.source);
    set_str(o, "restriction", d.note);
    add_rename_effect(o, v, n);
    set_str(o, "first_supported", first_supported_api(name));
    add_native(o, v, n);
    bool beta = false;
    bool documented = nfy_apidb_npu_api_documented(n, &beta);
    json_object_set_new(o, "torch_npu_api", json_boolean(documented));
    if (documented)
        json_object_set_new(o, "torch_npu_api_beta", json_boolean(beta));
    bool is_public = false;
    if (nfy_apidb_npu_custom_op(v, n, &is_public))
        json_object_set_new(o, "npu_custom_op", json_boolean(true));
    json_object_set_new(o, "transfer_to_npu_rewrites_device",
                        json_boolean(nfy_apidb_transfer_wrapped(v, n, NULL)));
    add_alternatives(o, v, n, rules);
    nfy_arena_release(&a);
    return o;
}

static int cmd_query(const db_args *a)
{
    if (a->nargs != 1)
        return nfy_cli_usage_error("db", "query takes one NAME");
    int rc = -1;
    const nfy_apidb_version *v = version_arg(a->torch_version, &rc);
    if (!v)
        return rc;
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_rule_set *rules = nfy_rule_set_new(&diags);
    emit(a, is_operator_name(a->args[0])
                ? query_op(v, a->args[0])
                : nfy_cli_db_query_api(v, a->args[0], rules));
    nfy_rule_set_free(rules);
    nfy_diags_release(&diags);
    return NFY_EXIT_OK;
}

/* ---- stats ---- */

/* The version-independent migration tables: how many rows each has. */
static json_t *table_counts(void)
{
    json_t *t = json_object();
    size_t n = 0, with = 0;
    nfy_apidb_pair pair;
    for (n = 0; nfy_apidb_msft_rename_at(n, &pair); n++)
        ;
    json_object_set_new(t, "msft_renames", json_integer((json_int_t)n));
    nfy_apidb_affinity af;
    for (n = 0; nfy_apidb_affinity_at(n, &af); n++)
        with += strcmp(af.kind, "torch") == 0;
    json_object_set_new(t, "affinity", json_integer((json_int_t)n));
    json_object_set_new(t, "affinity_torch_apis",
                        json_integer((json_int_t)with));
    nfy_apidb_msft_rule rule;
    for (n = 0; nfy_apidb_msft_rule_at(n, &rule); n++)
        ;
    json_object_set_new(t, "msft_rules", json_integer((json_int_t)n));
    for (n = 0, with = 0; nfy_apidb_cpp_api_at(n, &pair); n++)
        with += pair.to != NULL;
    json_object_set_new(t, "cpp_apis", json_integer((json_int_t)n));
    json_object_set_new(t, "cpp_apis_with_cuda_counterpart",
                        json_integer((json_int_t)with));
    return t;
}

static int cmd_stats(const db_args *a)
{
    if (a->nargs != 0)
        return nfy_cli_usage_error("db", "stats takes no argument");
    json_t *root = json_object();
    for (size_t i = 0; i < nfy_apidb_version_count(); i++) {
        const nfy_apidb_version *v = nfy_apidb_version_at(i);
        json_t *o = json_object();
        set_str(o, "npu_tag", v->npu_tag);
        for (int s = 0; s < NFY_APIDB_SET_COUNT; s++) {
            const char *dv = NULL;
            size_t n = nfy_apidb_set_each(v, (nfy_apidb_set)s, NULL, NULL, &dv);
            json_t *x = json_object();
            json_object_set_new(x, "count", json_integer((json_int_t)n));
            set_str(x, "file_version", dv);
            json_object_set_new(o, nfy_apidb_set_name((nfy_apidb_set)s), x);
        }
        json_object_set_new(root, v->name, o);
    }
    json_t *tables = table_counts();
    if (a->json) {
        json_t *doc = json_object();
        json_object_set_new(doc, "versions", root);
        json_object_set_new(doc, "tables", tables);
        print_json(doc);
        return NFY_EXIT_OK;
    }
    printf("%-7s", "version");
    for (int s = 0; s < NFY_APIDB_SET_COUNT; s++)
        printf(" %22s", nfy_apidb_set_name((nfy_apidb_set)s));
    putchar('\n');
    const char *key;
    json_t *o;
    json_object_foreach(root, key, o)
    {
        printf("%-7s", key);
        for (int s = 0; s < NFY_APIDB_SET_COUNT; s++) {
            json_t *x =
                json_object_get(o, nfy_apidb_set_name((nfy_apidb_set)s));
            char cell[64];
            snprintf(cell, sizeof cell, "%lld (%s)",
                     (long long)json_integer_value(json_object_get(x, "count")),
                     json_string_value(json_object_get(x, "file_version"))
                         ? json_string_value(json_object_get(x, "file_version"))
                         : "-");
            printf(" %22s", cell);
        }
        putchar('\n');
    }
    json_decref(root);
    printf("tables (all versions):\n");
    print_text(tables, 2);
    json_decref(tables);
    return NFY_EXIT_OK;
}

/* ---- diff ---- */

typedef struct {
    const char **names;
    size_t len, cap;
} name_list;

static void collect(void *ctx, const char *name, const char *note)
{
    (void)note;
    name_list *l = ctx;
    if (l->len == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        const char **n = realloc(l->names, l->cap * sizeof *n);
        if (!n)
            abort();
        l->names = n;
    }
    l->names[l->len++] = name;
}

/* Names of b missing from a into out (both sorted). */
static void missing(const name_list *a, const name_list *b, json_t *out)
{
    size_t i = 0;
    for (size_t j = 0; j < b->len; j++) {
        while (i < a->len && strcmp(a->names[i], b->names[j]) < 0)
            i++;
        if (i == a->len || strcmp(a->names[i], b->names[j]) != 0)
            json_array_append_new(out, json_string(b->names[j]));
    }
}

static int cmd_diff(const db_args *a)
{
    if (a->nargs != 2)
        return nfy_cli_usage_error("db", "diff takes two versions");
    int rc = -1;
    const nfy_apidb_version *v1 = version_arg(a->args[0], &rc);
    const nfy_apidb_version *v2 = v1 ? version_arg(a->args[1], &rc) : NULL;
    if (!v2)
        return rc;
    json_t *root = json_object();
    set_str(root, "from", v1->name);
    set_str(root, "to", v2->name);
    for (int s = 0; s < NFY_APIDB_SET_COUNT; s++) {
        name_list l1 = {0}, l2 = {0};
        const char *d1, *d2;
        nfy_apidb_set_each(v1, (nfy_apidb_set)s, collect, &l1, &d1);
        nfy_apidb_set_each(v2, (nfy_apidb_set)s, collect, &l2, &d2);
        json_t *x = json_object();
        set_str(x, "from_file", d1);
        set_str(x, "to_file", d2);
        json_t *added = json_array(), *removed = json_array();
        missing(&l1, &l2, added);
        missing(&l2, &l1, removed);
        json_object_set_new(x, "added", added);
        json_object_set_new(x, "removed", removed);
        json_object_set_new(root, nfy_apidb_set_name((nfy_apidb_set)s), x);
        free(l1.names);
        free(l2.names);
    }
    if (a->json) {
        print_json(root);
        return NFY_EXIT_OK;
    }
    printf("db diff %s -> %s\n", v1->name, v2->name);
    for (int s = 0; s < NFY_APIDB_SET_COUNT; s++) {
        json_t *x = json_object_get(root, nfy_apidb_set_name((nfy_apidb_set)s));
        json_t *ad = json_object_get(x, "added"),
               *rm = json_object_get(x, "removed");
        printf("%s (%s -> %s): +%zu -%zu\n",
               nfy_apidb_set_name((nfy_apidb_set)s),
               json_string_value(json_object_get(x, "from_file")),
               json_string_value(json_object_get(x, "to_file")),
               json_array_size(ad), json_array_size(rm));
        size_t i;
        json_t *it;
        json_array_foreach(ad, i, it) printf("  + %s\n", json_string_value(it));
        json_array_foreach(rm, i, it) printf("  - %s\n", json_string_value(it));
    }
    json_decref(root);
    return NFY_EXIT_OK;
}

/* An unknown subcommand, with the closest one ("qurey": "query"). */
static int unknown_sub(const char *sub)
{
    static const char *const subs[] = {"query", "stats", "diff"};
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        size_t d = nfy_cli_edit_distance(sub, subs[i]);
        if (d < best_d && d < strlen(sub)) {
            best_d = d;
            best = subs[i];
        }
    }
    nfy_arena ar = NFY_ARENA_INIT;
    int rc = nfy_cli_usage_error(
        "db", best ? nfy_arena_fmt(&ar,
                                   "unknown subcommand '%s'; did you mean "
                                   "'%s'?",
                                   sub, best)
                   : nfy_arena_fmt(&ar,
                                   "unknown subcommand '%s'; give query, "
                                   "stats or diff",
                                   sub));
    nfy_arena_release(&ar);
    return rc;
}

int nfy_cli_cmd_db(int argc, char **argv)
{
    db_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (!strcmp(a.sub, "query"))
        return cmd_query(&a);
    if (!strcmp(a.sub, "stats"))
        return cmd_stats(&a);
    if (!strcmp(a.sub, "diff"))
        return cmd_diff(&a);
    return unknown_sub(a.sub);
}
