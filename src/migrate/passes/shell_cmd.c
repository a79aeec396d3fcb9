/*
 * Shell commands in Python: the command string (or argument list) given to
 * os.system, os.popen or subprocess.* is checked against the line rules of
 * context "shell" (docker run --gpus, nvidia-docker, CUDA wheels, ...), as
 * a shell script's line would be. Literal text only: the string parts of
 * the first argument, list items joined with spaces.
 */
#include <regex.h>
#include <string.h>

#include "migrate/run.h"

static bool runs_shell(nfy_str q)
{
    static const mig_word callees[] = {MIG_WORD("os.system"),
                                       MIG_WORD("os.popen"),
                                       MIG_WORD("subprocess.run"),
                                       MIG_WORD("subprocess.call"),
                                       MIG_WORD("subprocess.check_call"),
                                       MIG_WORD("subprocess.check_output"),
                                       MIG_WORD("subprocess.Popen"),
                                       MIG_WORD("subprocess.getoutput"),
                                       MIG_WORD("subprocess.getstatusoutput")};
    if (q.len < 8 || (q.ptr[0] != 'o' && q.ptr[0] != 's'))
        return false; /* every callee above: most calls end here */
    return mig_str_in(q, callees, sizeof callees / sizeof callees[0]);
}

/* The literal text of the command argument, NUL-terminated in the arena. */
static const char *command_text(mig_ctx *c, uint32_t k, uint32_t *arg)
{
    uint32_t a = nfy_pysyn_posarg(c->m, k, 0);
    if (a == NFY_NONE)
        a = nfy_pysyn_kwarg(c->m, k, "args");
    if (a == NFY_NONE)
        a = nfy_pysyn_kwarg(c->m, k, "cmd");
    if (a == NFY_NONE)
        return NULL;
    *arg = a;
    nfy_buf b = NFY_BUF_INIT;
    for (uint32_t t = c->m->args[a].value_first; t < c->m->args[a].value_end;
         t++) {
        uint32_t off;
        nfy_str body = nfy_mig_string_body(c, t, &off);
        if (body.len == 0)
            continue;
        if (b.len && nfy_mig_tok_op(c, nfy__mig_prev_sig(c, t), NFY_OP_COMMA))
            (void)nfy_buf_addch(&b, ' ');
        (void)nfy_buf_addview(&b, body);
    }
    const char *text = b.len ? nfy_mig_strdup(c, nfy_buf_view(&b)) : NULL;
    nfy_buf_release(&b);
    return text;
}

static bool shell_line_rule(const nfy_rule *r)
{
    if (r->kind != NFY_RULE_FLAG || r->match != NFY_MATCH_LINE)
        return false;
    for (size_t i = 0; i < r->nctx; i++)
        if (r->ctx[i].kind == NFY_CTX_SHELL)
            return true;
    return r->nctx == 0;
}

static void check_rule(mig_ctx *c, const mig_shell_rule *sr, uint32_t a,
                       const char *cmd)
{
    regmatch_t m[1];
    if (regexec(&sr->rx, cmd, 1, m, 0) == 0 && m[0].rm_eo > m[0].rm_so) {
        nfy_str hit = {cmd + m[0].rm_so, (size_t)(m[0].rm_eo - m[0].rm_so)};
        nfy__mig_flag(c, sr->r, c->m->args[a].value_span,
                      nfy_mig_strdup(c, hit), NULL);
    }
}

void nfy__mig_shell_rules_build(const nfy_rule_set *set,
                                const nfy_rule_env *env,
                                mig_shell_rule_list *out)
{
    for (size_t i = 0; i < nfy_rule_set_count(set); i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (!shell_line_rule(r) ||
            nfy_rules_activity_in(r, env) == NFY_RULE_INACTIVE)
            continue;
        mig_shell_rule sr = {.r = r};
        if (regcomp(&sr.rx, r->pattern, REG_EXTENDED | REG_ICASE) != 0)
            continue; /* the loader rejects bad patterns */
        nfy_vec_push(out, sr);
    }
}

void nfy__mig_shell_rules_free(mig_shell_rule_list *l)
{
    for (size_t i = 0; i < l->len; i++)
        regfree(&l->items[i].rx);
    nfy_vec_free(l);
}

void nfy__mig_pass_shell_commands(mig_ctx *c)
{
    const mig_shell_rule_list *rules = &c->p->run->shell;
    for (uint32_t k = 0; k < c->m->ncalls && rules->len > 0; k++) {
        if (!runs_shell(mig_callee_qual(c, k)) || c->m->calls[k].nargs == 0)
            continue;
        uint32_t a = NFY_NONE;
        const char *cmd = command_text(c, k, &a);
        if (cmd == NULL)
            continue;
        for (size_t i = 0; i < rules->len; i++)
            check_rule(c, &rules->items[i], a, cmd);
    }
}
