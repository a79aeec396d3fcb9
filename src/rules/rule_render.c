/*
 * Rendering rules for `npuify rules`: an aligned table, one rule explained
 * in full with its before/after example, and JSON in our own schema (so
 * `npuify rules --json` output loads back as a rule file).
 */
#include <string.h>

#include "rules/rules_internal.h"

static const char *const severity_names[] = {"note", "warning", "error"};

/* ---- Table --------------------------------------------------------------- */

static void pad(nfy_buf *out, const char *s, size_t width)
{
    size_t n = strlen(s);
    nfy_buf_addstr(out, s);
    for (; n < width; n++)
        nfy_buf_addch(out, ' ');
}

static bool shown(const nfy_rule *r, int kind, bool include_disabled)
{
    return (kind < 0 || (int)r->kind == kind) &&
           (r->enabled || include_disabled);
}

void nfy_rules_render_table(const nfy_rule_set *set, int kind,
                            bool include_disabled, nfy_buf *out)
{
    size_t wid = 2, wkind = 4, wsafety = 6;
    size_t n = nfy_rule_set_count(set);
    for (size_t i = 0; i < n; i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (!shown(r, kind, include_disabled))
            continue;
        size_t a = strlen(r->id), b = strlen(nfy_rules_kind_name(r->kind));
        size_t c = strlen(nfy_rules_safety_name(r->safety));
        wid = a > wid ? a : wid;
        wkind = b > wkind ? b : wkind;
        wsafety = c > wsafety ? c : wsafety;
    }
    pad(out, "ID", wid + 2);
    pad(out, "KIND", wkind + 2);
    pad(out, "SAFETY", wsafety + 2);
    nfy_buf_addstr(out, "MESSAGE\n");
    for (size_t i = 0; i < n; i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (!shown(r, kind, include_disabled))
            continue;
        pad(out, r->id, wid + 2);
        pad(out, nfy_rules_kind_name(r->kind), wkind + 2);
        pad(out, nfy_rules_safety_name(r->safety), wsafety + 2);
        if (nfy_rules_is_preview(r))
            nfy_buf_addstr(out, "[preview] ");
        if (!r->enabled)
            nfy_buf_addstr(out, "[off] ");
        else if (r->option)
            nfy_buf_addf(out, "[%s] ", r->option);
        nfy_buf_addf(out, "%s\n", r->message);
    }
}

/* ---- Contexts as text
 * --------------------------------------------------------- */

static void ctx_text(const nfy_rule_ctx *c, nfy_buf *out)
{
    nfy_buf_addstr(out, nfy_rules_ctx_kind_name(c->kind));
    if (c->name)
        nfy_buf_addf(out, ":%s", c->name);
    if (c->pos >= 0)
        nfy_buf_addf(out, "@%d", c->pos);
    if (c->kw)
        nfy_buf_addf(out, "=%s", c->kw);
}

/* ---- Explain
 * --------------------------------------------------------------------- */

static void indented(nfy_buf *out, const char *label, const char *text)
{
    nfy_buf_addf(out, "%s\n", label);
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        nfy_buf_addf(out, "    %.*s\n", (int)n, p);
        p += n + (nl ? 1 : 0);
    }
}

static void explain_data(const nfy_rule *r, nfy_buf *out)
{
    nfy_buf_addf(out, "match:       %s \"%s\"\n",
                 nfy_rules_match_kind_name(r->match), r->pattern);
    if (r->replacement)
        nfy_buf_addf(out, "replacement: \"%s\"\n", r->replacement);
    if (r->arg_pos >= 0)
        nfy_buf_addf(out, "argument:    position %d%s%s\n", r->arg_pos,
                     r->arg_kw ? " or keyword " : "",
                     r->arg_kw ? r->arg_kw : "");
    else if (r->arg_kw)
        nfy_buf_addf(out, "argument:    keyword %s\n", r->arg_kw);
    if (r->arg_match)
        nfy_buf_addf(out, "only if:     /%s/\n", r->arg_match);
    if (r->skip)
        nfy_buf_addf(out, "skip if:     /%s/\n", r->skip);
    if (r->arg_value)
        nfy_buf_addf(out, "only value:  \"%s\"\n", r->arg_value);
    if (r->flags & NFY_RULE_F_DEVICE_FORM)
        nfy_buf_addf(out,
                     "forms:       \"%s\", \"%s:N\", f\"%s:{i}\", "
                     "\"%s:%%d\" %% i, \"%s:{}\".format(i), "
                     "\"%s:\" + str(i)\n",
                     r->pattern, r->pattern, r->pattern, r->pattern, r->pattern,
                     r->pattern);
    if (r->flags & NFY_RULE_F_SUBSTRING)
        nfy_buf_addstr(out, "forms:       anywhere inside the string\n");
    if (r->flags & NFY_RULE_F_APIDB)
        nfy_buf_addf(out,
                     "apidb:       only where torch_npu has the target; "
                     "else %s\n",
                     r->fallback ? r->fallback : "no change");
    if (r->option)
        nfy_buf_addf(out, "option:      %s\n", r->option);
    if (r->min_torch || r->max_torch)
        nfy_buf_addf(out, "torch:       %s%s%s%s\n", r->min_torch ? ">= " : "",
                     r->min_torch ? r->min_torch : "",
                     r->max_torch ? " <= " : "",
                     r->max_torch ? r->max_torch : "");
    if (r->tags)
        nfy_buf_addf(out, "tags:        %s\n", r->tags);
}

static void explain_lists(const nfy_rule *r, nfy_buf *out)
{
    if (r->nctx) {
        nfy_buf_addstr(out, "contexts:\n");
        for (size_t i = 0; i < r->nctx; i++) {
            nfy_buf_addstr(out, "    ");
            ctx_text(&r->ctx[i], out);
            nfy_buf_addch(out, '\n');
        }
    }
    if (r->nmap) {
        nfy_buf_addstr(out, "table:\n");
        for (size_t i = 0; i < r->nmap; i++) {
            const nfy_rule_pair *p = &r->map[i];
            nfy_buf_addf(out, "    %s -> %s", p->from,
                         *p->to ? p->to : "(none)");
            if (p->note)
                nfy_buf_addf(out, "  (%s)", p->note);
            nfy_buf_addch(out, '\n');
        }
    }
}

void nfy_rules_render_explain(const nfy_rule *r, nfy_buf *out)
{
    nfy_buf_addf(
        out, "%s  %s  (%s, %s, %s%s)\n", r->id, nfy_rules_kind_name(r->kind),
        nfy_rules_category_name(r->category), nfy_rules_safety_name(r->safety),
        severity_names[r->severity % 3], r->enabled ? "" : ", off by default");
    nfy_buf_addf(out, "  %s\n\n", r->message);
    nfy_buf why = NFY_BUF_INIT;
    if (nfy_rules_preview_why(r, &why))
        nfy_buf_addf(out,
                     "preview:     %s: this rule never fires; the example "
                     "shows what it is meant to do\n",
                     nfy_buf_cstr(&why));
    nfy_buf_release(&why);
    if (r->hint)
        nfy_buf_addf(out, "hint:        %s\n", r->hint);
    explain_data(r, out);
    explain_lists(r, out);
    if (r->before)
        indented(out, "before:", r->before);
    if (r->after)
        indented(out, "after:", r->after);
    if (r->fix)
        indented(out, "by hand:", r->fix);
    nfy_buf_addf(out, "origin:      %s\n", r->origin ? r->origin : "?");
}

/* ---- JSON
 * ----------------------------------------------------------------------------
 */

static void json_key(nfy_buf *out, const char *key)
{
    nfy_buf_addstr(out, ", ");
    nfy_json_escape(out, key, strlen(key));
    nfy_buf_addstr(out, ": ");
}

static void json_str(nfy_buf *out, const char *key, const char *val)
{
    if (!val)
        return;
    json_key(out, key);
    nfy_json_escape(out, val, strlen(val));
}

static void json_flag(nfy_buf *out, const nfy_rule *r, const char *key,
                      unsigned flag)
{
    if (r->flags & flag) {
        json_key(out, key);
        nfy_buf_addstr(out, flag == NFY_RULE_F_OFF ? "false" : "true");
    }
}

static void json_lists(const nfy_rule *r, nfy_buf *out)
{
    if (r->nctx) {
        json_key(out, "ctx");
        nfy_buf_addch(out, '[');
        for (size_t i = 0; i < r->nctx; i++) {
            nfy_buf spec = NFY_BUF_INIT;
            ctx_text(&r->ctx[i], &spec);
            nfy_buf_addstr(out, i ? ", " : "");
            nfy_json_escape(out, nfy_buf_cstr(&spec), spec.len);
            nfy_buf_release(&spec);
        }
        nfy_buf_addch(out, ']');
    }
    if (r->nmap) {
        json_key(out, "map");
        nfy_buf_addch(out, '[');
        for (size_t i = 0; i < r->nmap; i++) {
            const nfy_rule_pair *p = &r->map[i];
            nfy_buf_addstr(out, i ? ", [" : "[");
            nfy_json_escape(out, p->from, strlen(p->from));
            nfy_buf_addstr(out, ", ");
            nfy_json_escape(out, p->to, strlen(p->to));
            if (p->note) {
                nfy_buf_addstr(out, ", ");
                nfy_json_escape(out, p->note, strlen(p->note));
            }
            nfy_buf_addch(out, ']');
        }
        nfy_buf_addch(out, ']');
    }
}

void nfy_rules_rule_render_json(const nfy_rule *r, nfy_buf *out)
{
    nfy_buf_addstr(out, "{\"id\": ");
    nfy_json_escape(out, r->id, strlen(r->id));
    json_str(out, "kind", nfy_rules_kind_name(r->kind));
    json_str(out, "match", nfy_rules_match_kind_name(r->match));
    json_str(out, "pattern", r->pattern);
    json_str(out, "replacement", r->replacement);
    json_str(out, "safety", nfy_rules_safety_name(r->safety));
    json_str(out, "severity", severity_names[r->severity % 3]);
    if (r->arg_pos >= 0) {
        json_key(out, "arg_pos");
        nfy_buf_addf(out, "%d", r->arg_pos);
    }
    json_str(out, "arg_kw", r->arg_kw);
    json_str(out, "arg_match", r->arg_match);
    json_str(out, "arg_value", r->arg_value);
    json_str(out, "skip", r->skip);
    json_flag(out, r, "delete", NFY_RULE_F_DELETE);
    json_flag(out, r, "device_form", NFY_RULE_F_DEVICE_FORM);
    json_flag(out, r, "substring", NFY_RULE_F_SUBSTRING);
    json_flag(out, r, "apidb", NFY_RULE_F_APIDB);
    json_flag(out, r, "default", NFY_RULE_F_OFF);
    json_str(out, "fallback", r->fallback);
    json_str(out, "option", r->option);
    json_str(out, "min_torch", r->min_torch);
    json_str(out, "max_torch", r->max_torch);
    json_str(out, "tags", r->tags);
    json_lists(r, out);
    json_str(out, "message", r->message);
    json_str(out, "hint", r->hint);
    json_str(out, "before", r->before);
    json_str(out, "after", r->after);
    json_str(out, "fix", r->fix);
    nfy_buf_addch(out, '}');
}

void nfy_rules_render_json(const nfy_rule_set *set, int kind,
                           bool include_disabled, nfy_buf *out)
{
    nfy_buf_addstr(out, "{\"schema\": \"npuify-rules/1\", \"rules\": [\n");
    bool first = true;
    for (size_t i = 0; i < nfy_rule_set_count(set); i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (!shown(r, kind, include_disabled))
            continue;
        nfy_buf_addstr(out, first ? "  " : ",\n  ");
        nfy_rules_rule_render_json(r, out);
        first = false;
    }
    nfy_buf_addstr(out, "\n]}\n");
}
