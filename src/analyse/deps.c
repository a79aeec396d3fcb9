/*
 * NPU706: CUDA-bound dependencies in requirement files, environment.yml,
 * pyproject.toml, setup.cfg and setup.py (its string literals only);
 * Dockerfiles are convert's container line rules. Each word of a line
 * (split at blanks, quotes, commas, brackets; comments dropped) is matched
 * against the globs of the rule's table (data/rules/rules.json): a package name
 * normalised as pip does (lower case, '_' -> '-'), with its local version
 * for CUDA builds ("torch+cu118"), or a URL / image name as written.
 */
#include <string.h>

#include "analyse/an_internal.h"

static bool word_char(char ch)
{
    return ch != ' ' && ch != '\t' && ch != '\r' && ch != '"' && ch != '\'' &&
           ch != ',' && ch != '[' && ch != ']' && ch != '\n';
}

/* "Flash_Attn==2.3+cu118" -> "flash-attn+cu118"; "torch>=2" -> "torch". */
static char *package_key(an_ctx *c, nfy_str w)
{
    size_t n = 0;
    while (n < w.len && strchr("=<>!~;@ (", w.ptr[n]) == NULL)
        n++;
    char *key = nfy_arena_alloc(c->arena, w.len + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = w.ptr[i];
        key[k++] = ch == '_' ? '-' : (ch >= 'A' && ch <= 'Z') ? ch + 32 : ch;
    }
    const char *plus = memchr(w.ptr + n, '+', w.len - n);
    if (plus && plus[1] == 'c' && plus[2] == 'u')
        for (const char *p = plus; p < w.ptr + w.len && word_char(*p); p++)
            key[k++] = *p;
    key[k] = '\0';
    return key;
}

static void match_word(an_ctx *c, const nfy_rule *r, nfy_str w, size_t off)
{
    while (w.len && w.ptr[0] == '-') { /* "- pkg" (conda), "--index-url" */
        w.ptr++;
        w.len--;
        off++;
    }
    if (w.len == 0)
        return;
    bool path = memchr(w.ptr, '/', w.len) != NULL;
    const char *key =
        path ? nfy_arena_strndup(c->arena, w.ptr, w.len) : package_key(c, w);
    for (size_t i = 0; i < r->nmap; i++) {
        const nfy_rule_pair *p = &r->map[i];
        if ((strchr(p->from, '/') != NULL) != path ||
            !nfy_rules_glob(p->from, nfy_str_from_cstr(key)))
            continue;
        const char *to = p->to && p->to[0] ? p->to : NULL;
        nfy__analyse_emit(
            c, "NPU706", (nfy_span){(uint32_t)off, (uint32_t)(off + w.len)},
            key,
            to ? nfy_arena_fmt(c->arena, "%s; NPU: %s", p->note, to) : p->note,
            to);
        return;
    }
}

/* setup.py is code: only the words of its string literals count
 * (install_requires=["torch==2.1.0+cu118", ...]). */
static bool quoted_only(const char *rel)
{
    const char *b = strrchr(rel, '/');
    return strcmp(b ? b + 1 : rel, "setup.py") == 0;
}

static void scan_words(an_ctx *c, const nfy_rule *r, size_t b, size_t e)
{
    const char *s = c->src->data;
    for (size_t i = b; i < e;) {
        while (i < e && !word_char(s[i]))
            i++;
        size_t j = i;
        while (j < e && word_char(s[j]))
            j++;
        if (j > i)
            match_word(c, r, (nfy_str){s + i, j - i}, i);
        i = j;
    }
}

/* Each '...' / "..." of [b, e) (one line). */
static void scan_quoted(an_ctx *c, const nfy_rule *r, size_t b, size_t e)
{
    const char *s = c->src->data;
    for (size_t i = b; i < e; i++) {
        if (s[i] != '"' && s[i] != '\'')
            continue;
        size_t j = i + 1;
        while (j < e && s[j] != s[i])
            j++;
        scan_words(c, r, i + 1, j);
        i = j;
    }
}

void nfy__analyse_dependencies(an_ctx *c)
{
    const nfy_rule *r = nfy__analyse_rule(c, "NPU706");
    if (r == NULL)
        return;
    bool quoted = quoted_only(c->rel);
    const char *s = c->src->data;
    size_t n = c->src->len;
    for (size_t b = 0; b < n;) {
        size_t e = b;
        while (e < n && s[e] != '\n')
            e++;
        const char *hash = quoted ? NULL : memchr(s + b, '#', e - b);
        size_t code_e = hash ? (size_t)(hash - s) : e;
        if (quoted)
            scan_quoted(c, r, b, code_e);
        else
            scan_words(c, r, b, code_e);
        b = e + 1;
    }
}
