/*
 * Environment variable names in Python: "NCCL_SOCKET_IFNAME" ->
 * "HCCL_SOCKET_IFNAME", "CUDA_VISIBLE_DEVICES" -> "ASCEND_RT_VISIBLE_DEVICES"
 * where the literal is an environment key (os.environ[...], os.getenv,
 * os.environ.get/setdefault/pop, a key of a dict bound to an env-like name or
 * passed as env=). Names whose map row has no counterpart, and names that
 * fit the rule's glob but have no row, are reported and left as they are.
 * Shell scripts are handled by src/migrate/shell.c.
 */
#include <string.h>

#include "migrate/ctxmatch.h"

/* NAME_LIKE_THIS: the only shape environment names take here. */
static bool env_shaped(nfy_str s)
{
    for (size_t i = 0; i < s.len; i++) {
        char ch = s.ptr[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            return false;
    }
    return s.len > 0;
}

static bool env_like_name(nfy_str s)
{
    for (size_t i = 0; i + 3 <= s.len; i++) {
        if ((s.ptr[i] == 'e' || s.ptr[i] == 'E') &&
            (s.ptr[i + 1] == 'n' || s.ptr[i + 1] == 'N') &&
            (s.ptr[i + 2] == 'v' || s.ptr[i + 2] == 'V'))
            return true;
    }
    return false;
}

/* A key of a dict literal bound to an env-like name or passed as env=. */
static bool env_dict_key(const mig_ctx *c, uint32_t lit)
{
    const nfy_strlit *s = &c->m->strings[lit];
    if (s->ctx != NFY_STR_DICT_KEY)
        return false;
    uint32_t a = c->tok_arg[s->first];
    if (a != NFY_NONE) {
        const nfy_arg *arg = &c->m->args[a];
        return arg->kind == NFY_ARG_KEYWORD &&
               env_like_name(mig_tok(c, arg->name_tok));
    }
    uint32_t st = s->stmt;
    if (st == NFY_NONE || c->m->stmts[st].kind != NFY_STMT_ASSIGN ||
        c->m->stmts[st].value_first == NFY_NONE)
        return false;
    uint32_t eq = nfy__mig_prev_sig(c, c->m->stmts[st].value_first);
    return env_like_name(mig_tok(c, nfy__mig_prev_sig(c, eq)));
}

/* env["X"] on a variable named like env (a copy of os.environ). */
static bool env_var_subscript(const mig_ctx *c, uint32_t lit)
{
    const nfy_strlit *s = &c->m->strings[lit];
    uint32_t l = nfy__mig_prev_sig(c, s->first),
             r = nfy__mig_next_sig(c, s->end - 1);
    if (!nfy_mig_tok_op(c, l, NFY_OP_LSQB) ||
        !nfy_mig_tok_op(c, r, NFY_OP_RSQB))
        return false;
    uint32_t base = nfy__mig_prev_sig(c, l);
    return base != NFY_NONE && c->m->toks[base].kind == NFY_TOK_NAME &&
           env_like_name(mig_tok(c, base));
}

static bool env_ctx(const mig_ctx *c, uint32_t lit, const nfy_rule *r)
{
    const nfy_strlit *s = &c->m->strings[lit];
    for (size_t i = 0; i < r->nctx; i++) {
        const nfy_rule_ctx *x = &r->ctx[i];
        if (x->kind == NFY_CTX_SHELL)
            continue;
        if (x->kind == NFY_CTX_ASSIGN) {
            if (env_dict_key(c, lit) || env_var_subscript(c, lit))
                return true;
            continue;
        }
        if (nfy__mig_expr_in_ctx(c, s->first, s->end, lit, x))
            return true;
    }
    return false;
}

/* Why a name that fits r's glob stays: its row's note, or no row at all. */
static const char *no_counterpart(mig_ctx *c, const nfy_rule_pair *row,
                                  nfy_str body)
{
    if (row == NULL)
        return nfy_mig_fmt(c,
                           "%.*s: no NPU counterpart known, check it by hand",
                           NFY_STR_FMT(body));
    return nfy_mig_fmt(c, "%.*s has no NPU counterpart%s%s", NFY_STR_FMT(body),
                       row->note ? ": " : "", row->note ? row->note : "");
}

static void env_literal(mig_ctx *c, uint32_t lit, const nfy_rule *r,
                        nfy_str body, uint32_t off)
{
    if (!env_ctx(c, lit, r))
        return;
    const nfy_rule_pair *row = nfy_rules_map_find(r, body);
    uint32_t t = c->m->strings[lit].first;
    nfy_span sp = {off, off + (uint32_t)body.len};
    if (row == NULL || row->to == NULL || row->to[0] == '\0') {
        nfy_finding_cat cat;
        nfy_op_type op;
        nfy__mig_flag_class(r, &cat, &op);
        nfy__mig_note_add(c, r, sp, cat, op, nfy_mig_strdup(c, body),
                          no_counterpart(c, row, body));
        nfy_vec_last(c->notes)->safety = NFY_SAFETY_MANUAL;
        c->claimed[t] =
            CLAIM_WHOLE; /* reported: not "left unchanged" as text */
        return;
    }
    nfy__mig_edit(c, r, t, t + 1, sp.start, sp.end, row->to,
                  nfy_mig_fmt(c, "%.*s -> %s", NFY_STR_FMT(body), row->to));
}

void nfy__mig_pass_env(mig_ctx *c)
{
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, c->rules, NFY_RULE_REWRITE_STRING, NFY_MATCH_ENV);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if (!nfy__mig_rule_on(c, r))
            continue;
        for (uint32_t i = 0; i < c->m->nstrings; i++) {
            const nfy_strlit *s = &c->m->strings[i];
            if (s->end != s->first + 1 ||
                (s->flags & (NFY_TOKF_FSTRING | NFY_TOKF_BYTES)) ||
                nfy__mig_claimed(c, s->first, s->end))
                continue;
            nfy_str body = c->lit_body[i];
            if (body.len > 0 && env_shaped(body) &&
                nfy_rules_glob(r->pattern, body))
                env_literal(c, i, r, body, c->lit_off[i]);
        }
    }
}
