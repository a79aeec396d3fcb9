/*
 * msFmkTransplt's custom-rule schema, {"rules": {"ArgsModifyRule": [...],
 * "FuncNameModifyRule": [...], "ModuleNameModifyRule": [...]}} plus the
 * classes its built-in files use (ReplaceStringRule, ReplaceAttributeRule),
 * converted into our rules with generated IDs MSFT-<CLASS>-<n>. Field names
 * follow ascend_tools.md B.5; unlike msFmkTransplt (which ignores them) we
 * reject unknown classes and fields, so typos do not pass silently.
 *   ArgsModifyRule       func_name, arg_idx | arg_keyword, arg_new ("" deletes;
 *                        replace_device_int becomes $ARG), white_list[],
 *                        feature_switch[]
 *   FuncNameModifyRule   old_name, new_name, replace_module, feature_switch[]
 *   ModuleNameModifyRule old_name, new_name, parent_module, feature_switch[]
 *   ReplaceStringRule    str_old, str_new, strict, feature_switch[]
 *   ReplaceAttributeRule old_name, new_name, feature_switch[]
 */
#include <string.h>

#include "rules/rules_internal.h"

typedef enum { C_ARGS, C_FUNC, C_MODULE, C_STRING, C_ATTR } msft_class;

typedef struct {
    const char *name;
    const char *id_tag;
    const char *fields[7]; /* NULL-terminated; the first two are required */
} class_info;

static const class_info classes[] = {
    [C_ARGS] = {"ArgsModifyRule",
                "ARGS",
                {"func_name", "arg_new", "arg_idx", "arg_keyword", "white_list",
                 "feature_switch", NULL}},
    [C_FUNC] = {"FuncNameModifyRule",
                "FUNC",
                {"old_name", "new_name", "replace_module", "feature_switch",
                 NULL}},
    [C_MODULE] = {"ModuleNameModifyRule",
                  "MODULE",
                  {"old_name", "new_name", "parent_module", "feature_switch",
                   NULL}},
    [C_STRING] = {"ReplaceStringRule",
                  "STRING",
                  {"str_old", "str_new", "strict", "feature_switch", NULL}},
    [C_ATTR] = {"ReplaceAttributeRule",
                "ATTR",
                {"old_name", "new_name", "feature_switch", NULL}},
};

#define NCLASSES (sizeof classes / sizeof classes[0])

/* A string member, or NULL with an error when present but not a string. */
static const char *get_str(rules_loader *ld, json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return NULL;
    if (!json_is_string(v)) {
        nfy__rules_push_key(ld, key);
        nfy__rules_error(ld, false, "%s must be a string", key);
        nfy__rules_pop(ld);
        return NULL;
    }
    return nfy__rules_dup(ld, v);
}

/* "|"-join of a string array, each entry in parentheses; NULL if empty. */
static const char *join_array(rules_loader *ld, json_t *obj, const char *key,
                              bool regex)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return NULL;
    nfy__rules_push_key(ld, key);
    nfy_buf b = NFY_BUF_INIT;
    if (!json_is_array(v))
        nfy__rules_error(ld, false, "%s must be an array of strings", key);
    for (size_t i = 0; json_is_array(v) && i < json_array_size(v); i++) {
        json_t *item = json_array_get(v, i);
        if (!json_is_string(item)) {
            nfy__rules_push_index(ld, i);
            nfy__rules_error(ld, false, "must be a string");
            nfy__rules_pop(ld);
            continue;
        }
        const char *s = json_string_value(item);
        if (!regex && (!strcmp(s, "normal") || !strcmp(s, "2.1.0"))) {
            nfy_buf_release(&b);
            nfy__rules_pop(ld);
            return NULL; /* always on */
        }
        nfy_buf_addf(&b, regex ? "%s(%s)" : "%s%s",
                     b.len ? (regex ? "|" : ",") : "", s);
    }
    nfy__rules_pop(ld);
    const char *out =
        b.len ? nfy_arena_strndup(&ld->set->arena, b.data, b.len) : NULL;
    nfy_buf_release(&b);
    return out;
}

/* msFmkTransplt's placeholder for the old argument becomes our $ARG. */
static const char *to_template(rules_loader *ld, const char *s)
{
    static const char placeholder[] = "replace_device_int";
    nfy_buf b = NFY_BUF_INIT;
    const char *p = s;
    for (const char *hit; (hit = strstr(p, placeholder));) {
        nfy_buf_add(&b, p, (size_t)(hit - p));
        nfy_buf_addstr(&b, "$ARG");
        p = hit + sizeof placeholder - 1;
    }
    nfy_buf_addstr(&b, p);
    const char *out =
        nfy_arena_strndup(&ld->set->arena, nfy_buf_cstr(&b), b.len);
    nfy_buf_release(&b);
    return out;
}

static void convert_args(rules_loader *ld, json_t *obj, nfy_rule *r)
{
    const char *func = get_str(ld, obj, "func_name");
    const char *arg_new = get_str(ld, obj, "arg_new");
    json_t *idx = json_object_get(obj, "arg_idx");
    r->kind = NFY_RULE_REWRITE_ARG;
    r->match = NFY_MATCH_CALL;
    r->pattern = func ? func : "";
    r->arg_kw = get_str(ld, obj, "arg_keyword");
    if (idx && (!json_is_integer(idx) || json_integer_value(idx) < 0 ||
                json_integer_value(idx) > 1000)) {
        nfy__rules_push_key(ld, "arg_idx");
        nfy__rules_error(ld, false, "arg_idx must be an integer 0..1000");
        nfy__rules_pop(ld);
    } else if (idx) {
        r->arg_pos = (int)json_integer_value(idx);
    } else if (!r->arg_kw) {
        nfy__rules_error(ld, false,
                         "ArgsModifyRule needs arg_idx or "
                         "arg_keyword");
    }
    if (arg_new && !*arg_new)
        r->flags |= NFY_RULE_F_DELETE;
    else if (arg_new)
        r->replacement = to_template(ld, arg_new);
    r->skip = join_array(ld, obj, "white_list", true);
    const char *which = r->arg_kw
                            ? r->arg_kw
                            : nfy_arena_fmt(&ld->set->arena, "#%d", r->arg_pos);
    r->message = nfy_arena_fmt(&ld->set->arena,
                               "msFmkTransplt ArgsModifyRule: %s argument "
                               "%s%s",
                               r->pattern, which,
                               (r->flags & NFY_RULE_F_DELETE) ? " deleted"
                                                              : " rewritten");
}

/* FuncName / Attribute / Module renames. */
static void convert_rename(rules_loader *ld, json_t *obj, msft_class c,
                           nfy_rule *r)
{
    const char *old = get_str(ld, obj, "old_name");
    const char *new_name = get_str(ld, obj, "new_name");
    old = old ? old : "";
    new_name = new_name ? new_name : "";
    r->kind = NFY_RULE_RENAME;
    bool dotted = strchr(old, '.') != NULL;
    if (c == C_MODULE) {
        const char *parent = get_str(ld, obj, "parent_module");
        r->match = NFY_MATCH_MODULE;
        if (parent && *parent) {
            old = nfy_arena_fmt(&ld->set->arena, "%s.%s", parent, old);
            new_name =
                nfy_arena_fmt(&ld->set->arena, "%s.%s", parent, new_name);
        }
    } else if (c == C_FUNC) {
        r->match = dotted ? NFY_MATCH_NAME : NFY_MATCH_METHOD;
        json_t *rm = json_object_get(obj, "replace_module");
        if (rm && !json_is_boolean(rm)) {
            nfy__rules_push_key(ld, "replace_module");
            nfy__rules_error(ld, false,
                             "replace_module must be true or "
                             "false");
            nfy__rules_pop(ld);
        }
    } else {
        r->match = dotted ? NFY_MATCH_NAME : NFY_MATCH_ATTR;
    }
    r->pattern = old;
    r->replacement = new_name;
    r->message = nfy_arena_fmt(&ld->set->arena, "msFmkTransplt %s: %s -> %s",
                               classes[c].name, old, new_name);
}

static void convert_string(rules_loader *ld, json_t *obj, nfy_rule *r)
{
    static const nfy_rule_ctx any = {NFY_CTX_ANY, NULL, -1, NULL};
    const char *from = get_str(ld, obj, "str_old");
    json_t *strict = json_object_get(obj, "strict");
    r->kind = NFY_RULE_REWRITE_STRING;
    r->match = NFY_MATCH_STRING;
    r->pattern = from ? from : "";
    r->replacement = get_str(ld, obj, "str_new");
    r->ctx = &any;
    r->nctx = 1;
    if (strict && !json_is_boolean(strict)) {
        nfy__rules_push_key(ld, "strict");
        nfy__rules_error(ld, false, "strict must be true or false");
        nfy__rules_pop(ld);
    } else if (!json_is_true(strict)) {
        r->flags |= NFY_RULE_F_SUBSTRING;
    }
    r->message = nfy_arena_fmt(
        &ld->set->arena, "msFmkTransplt ReplaceStringRule: '%s' -> '%s'",
        r->pattern, r->replacement ? r->replacement : "");
}

/* Unknown fields and missing required ones of one entry. */
static void check_fields(rules_loader *ld, json_t *obj, msft_class c)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        bool known = false;
        for (size_t i = 0; classes[c].fields[i] && !known; i++)
            known = !strcmp(classes[c].fields[i], key);
        if (!known) {
            nfy__rules_push_key(ld, key);
            nfy__rules_error(ld, true, "unknown field '%s' in %s", key,
                             classes[c].name);
            nfy__rules_pop(ld);
        }
    }
    for (size_t i = 0; i < 2; i++)
        if (!json_object_get(obj, classes[c].fields[i]))
            nfy__rules_error(ld, false, "missing required field '%s'",
                             classes[c].fields[i]);
}

static size_t msft_count(const rules_loader *ld)
{
    size_t n = ld->out.len;
    for (size_t i = 0; i < ld->set->rules.len; i++)
        n += !strncmp(ld->set->rules.items[i]->id, "MSFT-", 5);
    return n;
}

static void convert_entry(rules_loader *ld, json_t *obj, msft_class c)
{
    if (!json_is_object(obj)) {
        nfy__rules_error(ld, false, "a %s entry is a JSON object",
                         classes[c].name);
        return;
    }
    size_t errors_before = ld->errors;
    check_fields(ld, obj, c);
    nfy_rule *r = nfy__rules_new_rule(ld);
    if (c == C_ARGS)
        convert_args(ld, obj, r);
    else if (c == C_STRING)
        convert_string(ld, obj, r);
    else
        convert_rename(ld, obj, c, r);
    r->option = join_array(ld, obj, "feature_switch", false);
    if (ld->errors != errors_before)
        return;
    r->id = nfy_arena_fmt(&ld->set->arena, "MSFT-%s-%03zu", classes[c].id_tag,
                          msft_count(ld) + 1);
    r->safety = NFY_SAFETY_SAFE;
    r->category = NFY_RULE_CAT_CUSTOM;
    r->tags = "msfmktransplt";
    r->hint = "custom rule converted from an msFmkTransplt rule file";
    nfy__rules_check_rule(ld, r);
    if (ld->errors == errors_before)
        nfy_vec_push(&ld->out, r);
}

static void convert_class(rules_loader *ld, const char *name, json_t *list)
{
    size_t c = 0;
    while (c < NCLASSES && strcmp(classes[c].name, name))
        c++;
    if (c == NCLASSES) {
        nfy__rules_error(ld, true,
                         "unsupported msFmkTransplt rule class '%s' (use "
                         "ArgsModifyRule, FuncNameModifyRule, "
                         "ModuleNameModifyRule, ReplaceStringRule or "
                         "ReplaceAttributeRule)",
                         name);
        return;
    }
    if (!json_is_array(list)) {
        nfy__rules_error(ld, false, "%s must be an array", name);
        return;
    }
    for (size_t i = 0; i < json_array_size(list); i++) {
        nfy__rules_push_index(ld, i);
        convert_entry(ld, json_array_get(list, i), (msft_class)c);
        nfy__rules_pop(ld);
    }
}

void nfy__rules_load_msft(rules_loader *ld, json_t *root)
{
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v)
    {
        if (strcmp(key, "rules")) {
            nfy__rules_push_key(ld, key);
            nfy__rules_error(ld, true, "unknown field '%s'", key);
            nfy__rules_pop(ld);
        }
    }
    nfy__rules_push_key(ld, "rules");
    json_object_foreach(json_object_get(root, "rules"), key, v)
    {
        nfy__rules_push_key(ld, key);
        convert_class(ld, key, v);
        nfy__rules_pop(ld);
    }
    nfy__rules_pop(ld);
}
