/*
 * Launcher shell scripts: CUDA/NCCL environment names (export NCCL_X=...,
 * CUDA_VISIBLE_DEVICES=0,1 python ..., $NCCL_X, ${CUDA_VISIBLE_DEVICES})
 * renamed to their Ascend counterparts by the ENV rules whose contexts
 * include "shell". A name without a counterpart is reported, not changed.
 * The scan is lexical: comments and single-quoted text are skipped.
 * The line rules of context "shell" (docker run --gpus, nvidia-smi, ...)
 * are reported by nfy_mig_script_line_findings over nfy_mig_shell_text.
 */
#include <string.h>

#include "migrate/scripts.h"

static bool is_ident_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool is_ident(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* An ENV rule active in this run whose contexts include shell scripts. */
static bool rule_in_shell(const nfy_migrate_script_rules *ps, const nfy_rule *r)
{
    if (r->match != NFY_MATCH_ENV ||
        nfy_rules_activity_in(r, ps->env) == NFY_RULE_INACTIVE)
        return false;
    for (size_t i = 0; i < r->nctx; i++)
        if (r->ctx[i].kind == NFY_CTX_SHELL)
            return true;
    return r->nctx == 0;
}

/* Why an active rule did not edit: unsafe without --unsafe, or manual. */
static const char *not_applied(const nfy_rule *r)
{
    return r->safety == NFY_SAFETY_UNSAFE
               ? "not applied: unsafe rule (use --unsafe)"
               : r->message;
}

static void record_name(const nfy_migrate_script_rules *ps,
                        const nfy_source *src, const char *rel, nfy_span sp,
                        nfy_edit_set *set, nfy_report *rep, nfy_diags *diags)
{
    const nfy_rule_set *rules = ps->rules;
    nfy_str name = {src->data + sp.start, sp.end - sp.start};
    for (size_t i = 0; i < nfy_rule_set_count(rules); i++) {
        const nfy_rule *r = nfy_rules_set_at(rules, i);
        if (!rule_in_shell(ps, r) || !nfy_rules_glob(r->pattern, name))
            continue;
        /* A matching name without a table row has no known counterpart. */
        const nfy_rule_pair *p = nfy_rules_map_find(r, name);
        bool renames = p && p->to && *p->to;
        if (renames && nfy_rules_activity_in(r, ps->env) != NFY_RULE_EDITS) {
            nfy_mig_manual_finding(src, rel, sp, r, not_applied(r), rep);
            return;
        }
        if (renames) {
            /* Bounds are valid by construction; a failure is in diags. */
            nfy_status st = nfy_edit_set_add(set, sp.start, sp.end,
                                             nfy_str_from_cstr(p->to), r->id,
                                             r->message, diags);
            (void)st;
            return;
        }
        nfy_mig_manual_finding(src, rel, sp, r,
                               p && p->note ? p->note : r->message, rep);
        return;
    }
}

/* "--dist-backend" and "dist_backend" name the same keyword. */
static bool option_matches(nfy_str opt, const char *kw)
{
    size_t n = strlen(kw);
    if (opt.len != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char a = opt.ptr[i] == '-' ? '_' : opt.ptr[i];
        char b = kw[i] == '-' ? '_' : kw[i];
        if (a != b)
            return false;
    }
    return true;
}

/* Whether one of r's contexts is a keyword context naming opt. */
static bool kw_ctx_names(const nfy_rule *r, nfy_str opt)
{
    for (size_t k = 0; k < r->nctx; k++)
        if (r->ctx[k].kind == NFY_CTX_KEYWORD && r->ctx[k].name &&
            option_matches(opt, r->ctx[k].name))
            return true;
    return false;
}

static bool has_shell_ctx(const nfy_rule *r)
{
    for (size_t k = 0; k < r->nctx; k++)
        if (r->ctx[k].kind == NFY_CTX_SHELL)
            return true;
    return false;
}

/*
 * The active string rule (e.g. "nccl" -> "hccl") for an option's value: a
 * rule whose kw: context names the option (the script keyword it sets)
 * beats one for any launcher option (ctx shell), as keyword contexts beat
 * shell ones in Python (rules.h, precedence).
 */
static const nfy_rule *option_rule(const nfy_migrate_script_rules *ps,
                                   nfy_str opt, nfy_str value)
{
    const nfy_rule *any_option = NULL;
    for (size_t i = 0; i < nfy_rule_set_count(ps->rules); i++) {
        const nfy_rule *r = nfy_rules_set_at(ps->rules, i);
        if (r->kind != NFY_RULE_REWRITE_STRING ||
            r->match != NFY_MATCH_STRING || !r->replacement ||
            !nfy_str_eq_cstr(value, r->pattern) ||
            nfy_rules_activity_in(r, ps->env) == NFY_RULE_INACTIVE)
            continue;
        if (kw_ctx_names(r, opt))
            return r;
        if (any_option == NULL && has_shell_ctx(r))
            any_option = r;
    }
    return any_option;
}

static bool is_opt_char(char c)
{
    return is_ident(c) || c == '-';
}

/*
 * A command-line option "--NAME VALUE" or "--NAME=VALUE" (VALUE possibly
 * quoted) whose value a string rule rewrites in keyword NAME. Returns the
 * offset to continue scanning from.
 */
static size_t scan_option(const nfy_migrate_script_rules *ps,
                          const nfy_source *src, const char *rel, size_t i,
                          nfy_edit_set *set, nfy_report *rep, nfy_diags *diags)
{
    const char *s = src->data;
    size_t n = src->len, start = i + 2, end = start;
    while (end < n && is_opt_char(s[end]))
        end++;
    nfy_str opt = {s + start, end - start};
    size_t v = end;
    if (v < n && s[v] == '=')
        v++;
    else
        while (v < n && (s[v] == ' ' || s[v] == '\t'))
            v++;
    if (v < n && (s[v] == '"' || s[v] == '\''))
        v++;
    size_t vend = v;
    while (vend < n && is_ident(s[vend]))
        vend++;
    const nfy_rule *r = option_rule(ps, opt, (nfy_str){s + v, vend - v});
    if (r && vend > v && nfy_rules_activity_in(r, ps->env) != NFY_RULE_EDITS) {
        nfy_mig_manual_finding(src, rel,
                               (nfy_span){(uint32_t)v, (uint32_t)vend}, r,
                               not_applied(r), rep);
    } else if (r && vend > v) {
        nfy_status st = nfy_edit_set_add(set, (uint32_t)v, (uint32_t)vend,
                                         nfy_str_from_cstr(r->replacement),
                                         r->id, r->message, diags);
        (void)st;
    }
    return end;
}

/* Is the identifier at i an assignment word start (NAME=...)? */
static bool at_word_start(const char *s, size_t i)
{
    return i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\n' ||
           s[i - 1] == ';' || s[i - 1] == '(' || s[i - 1] == '&' ||
           s[i - 1] == '|';
}

nfy_status nfy_mig_shell_env_edits(const nfy_migrate_script_rules *ps,
                                   const nfy_source *src, const char *rel,
                                   nfy_edit_set *set, nfy_report *rep,
                                   nfy_diags *diags)
{
    const char *s = src->data;
    size_t n = src->len;
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '#' && at_word_start(s, i)) {
            while (i < n && s[i] != '\n')
                i++;
        } else if (c == '\'') {
            const char *q = memchr(s + i + 1, '\'', n - i - 1);
            i = q ? (size_t)(q - s) + 1 : n;
        } else if (c == '$' && i + 1 < n &&
                   (is_ident_start(s[i + 1]) || s[i + 1] == '{')) {
            size_t start = i + 1 + (s[i + 1] == '{');
            size_t end = start;
            while (end < n && is_ident(s[end]))
                end++;
            if (end > start)
                record_name(ps, src, rel,
                            (nfy_span){(uint32_t)start, (uint32_t)end}, set,
                            rep, diags);
            i = end > start ? end : i + 1;
        } else if (c == '-' && i + 2 < n && s[i + 1] == '-' &&
                   at_word_start(s, i) && is_ident_start(s[i + 2])) {
            i = scan_option(ps, src, rel, i, set, rep, diags);
        } else if (is_ident_start(c) && at_word_start(s, i)) {
            size_t end = i;
            while (end < n && is_ident(s[end]))
                end++;
            if (end < n && s[end] == '=')
                record_name(ps, src, rel,
                            (nfy_span){(uint32_t)i, (uint32_t)end}, set, rep,
                            diags);
            i = end;
        } else {
            i++;
        }
    }
    return NFY_OK;
}

char *nfy_mig_shell_text(const nfy_source *src)
{
    char *blanked = nfy__mig_text_copy(src);
    if (blanked != NULL)
        nfy__mig_shell_blank(blanked, src->len);
    return blanked;
}
