/*
 * Line rules of shell scripts and Dockerfiles: flag rules with match "line"
 * (a POSIX ERE) or match "string" (literal text), whose contexts name the
 * file kind ("shell", "dockerfile"). They run over the file kind's blanked
 * text (nfy_mig_shell_text, nfy_mig_dockerfile_text): a copy in which comments
 * and line continuations are spaces, so a logical line is one '\n'-free run and
 * every offset is the source's own.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "migrate/scripts.h"

/* An active flag rule of match line/string for this file kind. */
static bool rule_for_kind(const nfy_rule *r, const nfy_rule_env *env,
                          nfy_rule_ctx_kind where)
{
    if (r->kind != NFY_RULE_FLAG ||
        nfy_rules_activity_in(r, env) == NFY_RULE_INACTIVE)
        return false;
    if (r->match != NFY_MATCH_LINE && r->match != NFY_MATCH_STRING)
        return false;
    for (size_t i = 0; i < r->nctx; i++)
        if (r->ctx[i].kind == where)
            return true;
    return r->match == NFY_MATCH_LINE && r->nctx == 0;
}

void nfy_mig_manual_finding(const nfy_source *src, const char *rel, nfy_span sp,
                            const nfy_rule *r, const char *message,
                            nfy_report *rep)
{
    nfy_arena a = NFY_ARENA_INIT;
    nfy_finding f = {
        .file = rel,
        .rule = r->id,
        .op = NFY_OPTYPE_UNSUPPORTED,
        .safety = NFY_SAFETY_MANUAL,
        .cat = NFY_CAT_UNSUPPORTED_API,
        .api = nfy_arena_strndup(&a, src->data + sp.start, sp.end - sp.start),
        .message = message};
    nfy_report_finding_locate(&f, src, sp);
    nfy_report_add_finding(rep, &f);
    nfy_arena_release(&a);
}

static void add_finding(const nfy_rule *r, const nfy_source *src,
                        const char *rel, nfy_span sp, nfy_report *rep)
{
    nfy_arena a = NFY_ARENA_INIT;
    const char *msg = r->message;
    size_t n = strlen(msg);
    bool stop = n > 0 && strchr(".!?:", msg[n - 1]) != NULL;
    if (r->hint && *r->hint)
        msg = nfy_arena_fmt(&a, "%s%s %s", msg, stop ? "" : ".", r->hint);
    nfy_mig_manual_finding(src, rel, sp, r, msg, rep);
    nfy_arena_release(&a);
}

/* First match of r in the NUL-terminated line; false when none. */
static bool match_line(const nfy_rule *r, const regex_t *rx, const char *line,
                       nfy_span *sp)
{
    if (r->match == NFY_MATCH_STRING) {
        const char *hit = strstr(line, r->pattern);
        if (hit == NULL || !*r->pattern)
            return false;
        sp->start = (uint32_t)(hit - line);
        sp->end = sp->start + (uint32_t)strlen(r->pattern);
        return true;
    }
    regmatch_t m[1];
    if (regexec(rx, line, 1, m, 0) != 0 || m[0].rm_eo <= m[0].rm_so)
        return false;
    sp->start = (uint32_t)m[0].rm_so;
    sp->end = (uint32_t)m[0].rm_eo;
    return true;
}

static void scan_rule(const nfy_rule *r, const nfy_source *src, const char *rel,
                      char *blanked, nfy_report *rep)
{
    regex_t rx;
    if (r->match == NFY_MATCH_LINE &&
        regcomp(&rx, r->pattern, REG_EXTENDED | REG_ICASE) != 0)
        return; /* the loader rejects bad patterns; nothing to find */
    size_t i = 0;
    while (i < src->len) {
        char *nl = memchr(blanked + i, '\n', src->len - i);
        size_t end = nl ? (size_t)(nl - blanked) : src->len;
        char keep = blanked[end];
        blanked[end] = '\0';
        nfy_span sp;
        if (match_line(r, &rx, blanked + i, &sp)) {
            sp.start += (uint32_t)i;
            sp.end += (uint32_t)i;
            add_finding(r, src, rel, sp, rep);
        }
        blanked[end] = keep;
        i = end + 1;
    }
    if (r->match == NFY_MATCH_LINE)
        regfree(&rx);
}

void nfy_mig_script_line_findings(const nfy_migrate_script_rules *ps,
                                  const nfy_source *src, const char *rel,
                                  nfy_rule_ctx_kind where, nfy_report *rep)
{
    char *blanked = where == NFY_CTX_DOCKERFILE ? nfy_mig_dockerfile_text(src)
                                                : nfy_mig_shell_text(src);
    if (blanked == NULL)
        return;
    const nfy_rule_set *rules = ps->rules;
    for (size_t i = 0; i < nfy_rule_set_count(rules); i++) {
        const nfy_rule *r = nfy_rules_set_at(rules, i);
        if (rule_for_kind(r, ps->env, where))
            scan_rule(r, src, rel, blanked, rep);
    }
    free(blanked);
}

/* Blank the '\' of a line continuation and its line end (LF or CRLF). */
static size_t blank_continuation(char *b, size_t i, size_t n)
{
    if (b[i] != '\\')
        return 0;
    size_t k = i + 1 < n && b[i + 1] == '\r' ? 2 : 1;
    if (i + k >= n || b[i + k] != '\n')
        return 0;
    memset(b + i, ' ', k + 1);
    return k + 1;
}

static bool word_start(const char *b, size_t i)
{
    return i == 0 || b[i - 1] == ' ' || b[i - 1] == '\t' || b[i - 1] == '\n' ||
           b[i - 1] == ';' || b[i - 1] == '&' || b[i - 1] == '|' ||
           b[i - 1] == '(';
}

char *nfy__mig_text_copy(const nfy_source *src)
{
    char *b = malloc(src->len + 1);
    if (b == NULL)
        return NULL;
    for (size_t i = 0; i < src->len; i++)
        b[i] = src->data[i] == '\0' ? ' ' : src->data[i];
    b[src->len] = '\0';
    return b;
}

void nfy__mig_shell_blank(char *b, size_t n)
{
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = quote == '\'' ? 0 : blank_continuation(b, i, n);
        if (k) {
            i += k - 1;
        } else if (b[i] == '\r') {
            b[i] = ' ';
        } else if (quote) {
            quote = b[i] == quote ? 0 : quote;
        } else if (b[i] == '\'' || b[i] == '"') {
            quote = b[i];
        } else if (b[i] == '#' && word_start(b, i)) {
            while (i < n && b[i] != '\n')
                b[i++] = ' ';
        }
    }
}
