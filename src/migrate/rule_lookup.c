/*
 * Rule-set questions of the driver and the passes: the rule environment of
 * a run, and the active rule of a dedicated pass.
 */
#include <string.h>

#include "migrate/mig.h"
#include "rules/rules.h"

void nfy__mig_rule_env(unsigned flags, const char *version, nfy_rule_env *out)
{
    static const struct {
        const char *name;
        unsigned flag;
    } opts[] = {{"amp", NFY_MIGRATE_AMP},
                {"distributed", NFY_MIGRATE_DISTRIBUTED},
                {"auto", NFY_MIGRATE_AUTO},
                {"msfmktransplt", NFY_MIGRATE_MSFT}};
    _Static_assert(sizeof opts / sizeof opts[0] <
                       sizeof out->options / sizeof out->options[0],
                   "room for the terminating NULL");
    memset(out, 0, sizeof *out);
    out->torch_version = version;
    out->unsafe = (flags & NFY_MIGRATE_UNSAFE) != 0;
    out->imports_only = (flags & NFY_MIGRATE_AUTO) != 0;
    size_t n = 0;
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (flags & opts[i].flag)
            out->options[n++] = opts[i].name;
}

nfy_safety nfy__mig_rule_safety(const nfy_rule_set *set, const char *id)
{
    const nfy_rule *r = nfy_rules_set_find(set, id);
    if (r == NULL || r->safety == NFY_SAFETY_SAFE)
        return NFY_SAFETY_SAFE;
    return r->safety == NFY_SAFETY_UNSAFE ? NFY_SAFETY_UNSAFE
                                          : NFY_SAFETY_MANUAL;
}

const nfy_rule *nfy__mig_pass_rule_in(const nfy_rule_set *set,
                                      const nfy_rule_env *env, nfy_pass_id pass)
{
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, set, -1, NFY_MATCH_PASS);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));)
        if (r->pass == pass &&
            nfy_rules_activity_in(r, env) != NFY_RULE_INACTIVE)
            return r;
    return NULL;
}

bool nfy__mig_pass_rule(const nfy_rule_set *set, const nfy_rule_env *env,
                        nfy_pass_id pass, const char **id, const char **message,
                        const char **hint)
{
    const nfy_rule *r = nfy__mig_pass_rule_in(set, env, pass);
    if (r == NULL)
        return false;
    *id = r->id;
    *message = r->message;
    *hint = r->hint;
    return true;
}

bool nfy__mig_pass_rule_row(const nfy_rule_set *set, const nfy_rule_env *env,
                            nfy_pass_id pass, size_t i, const char **from,
                            const char **note)
{
    const nfy_rule *r = nfy__mig_pass_rule_in(set, env, pass);
    if (r == NULL || i >= r->nmap)
        return false;
    *from = r->map[i].from;
    *note = r->map[i].note;
    return true;
}

/* Where sentence [s, e) advises option opt ("'convert --amp'", "'npuify
 * convert --distributed'"), or NULL. */
static const char *advice_at(const char *s, const char *e, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = s; p + 10 + n <= e; p++) {
        if (strncmp(p, "convert --", 10) || strncmp(p + 10, opt, n))
            continue;
        char after = p + 10 + n < e ? p[10 + n] : '\0';
        if (!(after >= 'a' && after <= 'z') && after != '-')
            return p;
    }
    return NULL;
}

/* Sentence [s, e) without its advice at: the clause ", or run ..." alone
 * when the advice is one, else the whole sentence. */
static void drop_advice(nfy_buf *out, const char *s, const char *e,
                        const char *at)
{
    const char *clause = NULL;
    for (const char *p = s; p + 5 <= at; p++)
        if (!strncmp(p, ", or ", 5))
            clause = p;
    if (!clause)
        return;
    nfy_buf_add(out, s, (size_t)(clause - s));
    nfy_buf_addstr(out, e[-1] == ' ' ? ". " : ".");
}

const char *nfy__mig_hint_in_env(nfy_arena *a, const nfy_rule_env *env,
                                 const char *hint)
{
    if (hint == NULL || env->options[0] == NULL)
        return hint;
    nfy_buf out = NFY_BUF_INIT;
    bool dropped = false;
    for (const char *s = hint; *s;) {
        const char *e = strstr(s, ". ");
        e = e ? e + 2 : s + strlen(s);
        const char *at = NULL;
        for (size_t i = 0; env->options[i] && !at; i++)
            at = advice_at(s, e, env->options[i]);
        if (at) {
            dropped = true;
            drop_advice(&out, s, e, at);
        } else {
            nfy_buf_add(&out, s, (size_t)(e - s));
        }
        s = e;
    }
    while (out.len && out.data[out.len - 1] == ' ')
        out.len--;
    const char *r =
        dropped ? nfy_arena_strndup(a, out.data ? out.data : "", out.len)
                : hint;
    nfy_buf_release(&out);
    return r;
}
