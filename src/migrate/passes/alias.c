/*
 * The "member-alias" pass: a class of the project that defines its own
 * cuda() (or is_cuda) would break once every obj.cuda() in the tree is
 * renamed to obj.npu(), since the member pass cannot tell a tensor from an
 * instance of that class. So right after each such definition in a class
 * body (a def, or an assignment such as `cuda = _to_cuda`) the pass adds
 * `npu = cuda`: the renamed call sites then reach the class's own method,
 * and so does anything that still calls cuda() by name (getattr(x, "cuda")).
 * An alias, not a forwarding `def npu(self, *a, **k): return self.cuda(...)`:
 * a subclass whose cuda() calls super().cuda() (renamed super().npu())
 * would recurse forever through a forwarder, while the alias binds each
 * class's npu to its own cuda. A class that already binds npu keeps it.
 * The member names come from the enabled METHOD/ATTR rename rules
 * (NPU101 cuda -> npu, NPU102 is_cuda -> is_npu, custom ones too).
 */
#include <string.h>

#include "migrate/pass.h"

typedef NFY_VEC(const nfy_rule *) member_rules;

static void collect_rules(const mig_ctx *c, member_rules *out)
{
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, c->rules, NFY_RULE_RENAME, -1);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if ((r->match == NFY_MATCH_METHOD || r->match == NFY_MATCH_ATTR) &&
            r->replacement != NULL && r->replacement[0] != '\0' &&
            strcmp(r->pattern, r->replacement) != 0 &&
            nfy__mig_rule_edits(c, r))
            nfy_vec_push(out, r);
    }
}

static bool binds_value(const nfy_binding *b)
{
    return b->kind == NFY_BIND_DEF || b->kind == NFY_BIND_ASSIGN ||
           b->kind == NFY_BIND_ANNASSIGN || b->kind == NFY_BIND_IMPORT ||
           b->kind == NFY_BIND_CLASS;
}

/* Does the class scope bind name anywhere in its body? */
static bool class_binds(const mig_ctx *c, uint32_t scope, const char *name)
{
    for (uint32_t i = 0; i < c->m->nbindings; i++) {
        const nfy_binding *b = &c->m->bindings[i];
        if (b->scope == scope && binds_value(b) && mig_tok_is(c, b->tok, name))
            return true;
    }
    return false;
}

/* A method is reached by a call: a class attribute that holds a literal
 * (`cuda = "x"`, `cuda = None`) is no method and needs no alias, while an
 * attribute rule (is_cuda) renames every access, so any value counts. */
static bool worth_alias(const mig_ctx *c, const nfy_rule *r,
                        const nfy_binding *b)
{
    if (b->kind == NFY_BIND_DEF || r->match != NFY_MATCH_METHOD)
        return true;
    uint32_t v = b->value_first;
    return v != NFY_NONE && c->m->toks[v].kind == NFY_TOK_NAME &&
           !mig_tok_is(c, v, "None") && !mig_tok_is(c, v, "True") &&
           !mig_tok_is(c, v, "False");
}

/* The statement after which the alias goes: the last one of a def's body,
 * or the assignment itself. */
static uint32_t last_stmt_of(const mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    if (st->kind == NFY_STMT_DEF && st->body_end > s + 1)
        return st->body_end - 1;
    return s;
}

/* Insert `to = from` on its own line after the definition statement s. */
static void insert_alias(mig_ctx *c, const nfy_rule *pass, const nfy_rule *r,
                         uint32_t s, uint32_t cls_tok)
{
    nfy_str ind = nfy__mig_stmt_indent(c, s);
    uint32_t last = last_stmt_of(c, s);
    uint32_t nl = nfy__mig_next_sig(c, c->m->stmts[last].end - 1);
    if (!nfy__mig_is_indent(ind) || nl == NFY_NONE ||
        c->m->toks[nl].kind != NFY_TOK_NEWLINE)
        return; /* `x = 1; cuda = f` and the like: leave it to a human */
    nfy_str brk = mig_tok(c, nl);
    const char *line = nfy_mig_fmt(c, "%.*s%s = %s", NFY_STR_FMT(ind),
                                   r->replacement, r->pattern);
    const char *text = brk.len == 0
                           ? nfy_mig_fmt(c, "\n%s", line)
                           : nfy_mig_fmt(c, "%s%.*s", line, NFY_STR_FMT(brk));
    uint32_t at = c->m->toks[nl].end;
    const char *call = r->match == NFY_MATCH_METHOD ? "()" : "";
    nfy__mig_edit(
        c, pass, 0, 0, at, at, text,
        nfy_mig_fmt(c,
                    "insert '%s = %s' in class %.*s: .%s%s is renamed "
                    "to .%s%s everywhere",
                    r->replacement, r->pattern,
                    NFY_STR_FMT(mig_tok(c, cls_tok)), r->pattern, call,
                    r->replacement, call));
}

void nfy__mig_pass_member_alias(mig_ctx *c)
{
    const nfy_rule *pass = nfy__mig_pass_rule_of(c, NFY_PASS_MEMBER_ALIAS);
    if (pass == NULL || !nfy__mig_rule_edits(c, pass))
        return;
    member_rules rl = {0};
    collect_rules(c, &rl);
    for (uint32_t i = 0; i < c->m->nbindings && rl.len > 0; i++) {
        const nfy_binding *b = &c->m->bindings[i];
        if (b->scope >= c->m->nscopes ||
            c->m->scopes[b->scope].kind != NFY_SCOPE_CLASS ||
            (b->kind != NFY_BIND_DEF && b->kind != NFY_BIND_ASSIGN &&
             b->kind != NFY_BIND_ANNASSIGN) ||
            b->stmt == NFY_NONE)
            continue;
        for (size_t k = 0; k < rl.len; k++) {
            const nfy_rule *r = rl.items[k];
            if (mig_tok_is(c, b->tok, r->pattern) && worth_alias(c, r, b) &&
                !class_binds(c, b->scope, r->replacement))
                insert_alias(c, pass, r, b->stmt,
                             c->m->scopes[b->scope].name_tok);
        }
    }
    nfy_vec_free(&rl);
}
