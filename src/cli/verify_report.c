/* Print what the verified run reported (one JSON object per line). */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/verify.h"

#define MAX_SHOWN 20

static const char *str_of(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* path relative to the working directory when it lies inside it. */
static const char *shown_path(const char *path, const char *cwd)
{
    size_t n = strlen(cwd);
    if (n > 1 && !strncmp(path, cwd, n) && path[n] == '/')
        return path + n + 1;
    return path;
}

static void print_problem(json_t *o, const nfy_rule_set *rules,
                          const char *version, const char *cwd)
{
    const char *kind = str_of(o, "event"), *api = str_of(o, "api");
    const char *rule_id = str_of(o, "rule");
    /* FILE:LINE: error[RULE]: the one diagnostic shape; the event names
     * no column, so there is none to show */
    bool cuda = !strcmp(kind, "cuda");
    printf("%s:%lld: error[%s]: ", shown_path(str_of(o, "file"), cwd),
           (long long)json_integer_value(json_object_get(o, "line")),
           cuda                        ? rule_id
           : !strcmp(kind, "invented") ? "verify-api"
                                       : "verify-emulator");
    if (cuda) {
        const nfy_rule *r = rules ? nfy_rules_set_find(rules, rule_id) : NULL;
        printf("CUDA call left after migration: %s (rule %s: %s)\n", api,
               rule_id, r ? r->message : "?");
    } else if (!strcmp(kind, "invented"))
        printf("%s does not exist in torch_npu %s (in none of its API "
               "lists)\n",
               api, version);
    else
        printf("%s is torch_npu %s API but not emulated: this run cannot "
               "check it\n",
               api, version);
}

/* One problem per distinct (event, api, file, line). */
static bool seen_before(json_t *seen, json_t *o)
{
    char *key = NULL;
    json_t *tuple = json_pack(
        "[OOOO]", json_object_get(o, "event"), json_object_get(o, "api"),
        json_object_get(o, "file"), json_object_get(o, "line"));
    if (tuple)
        key = json_dumps(tuple, JSON_COMPACT);
    json_decref(tuple);
    if (!key)
        return false;
    bool seen_it = json_object_get(seen, key) != NULL;
    json_object_set_new(seen, key, json_true());
    free(key);
    return seen_it;
}

static void take(json_t *o, const nfy_rule_set *rules, const char *version,
                 const char *cwd, json_t *seen, nfy_verify_summary *sum)
{
    const char *kind = str_of(o, "event");
    if (!strcmp(kind, "exit")) {
        sum->processes++;
        sum->steps +=
            (unsigned long)json_integer_value(json_object_get(o, "steps"));
        sum->backward +=
            (unsigned long)json_integer_value(json_object_get(o, "backward"));
        return;
    }
    if (seen_before(seen, o))
        return;
    if (sum->problems++ < MAX_SHOWN)
        print_problem(o, rules, version, cwd);
}

void nfy_cli_verify_report(const char *events, const nfy_rule_set *rules,
                           const char *torch_version, nfy_verify_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    FILE *f = fopen(events, "r");
    if (!f)
        return;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    json_t *seen = json_object();
    char line[65536];
    while (fgets(line, sizeof line, f)) {
        json_t *o = json_loads(line, 0, NULL);
        if (json_is_object(o))
            take(o, rules, torch_version, cwd, seen, sum);
        json_decref(o);
    }
    json_decref(seen);
    fclose(f);
    if (sum->problems > MAX_SHOWN)
        printf("... and %zu more\n", sum->problems - MAX_SHOWN);
}
