/*
 * file:// URIs (RFC 8089, percent-encoded as RFC 3986 says), and the rule
 * explanations that diagnostics link to: one Markdown file per rule,
 * written once into the explain directory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lsp/lsp_internal.h"

static int hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

char *nfy__lsp_uri_path(const char *uri)
{
    if (strncmp(uri, "file://", 7))
        return NULL;
    const char *p = uri + 7;
    if (*p != '/') { /* file://host/path: only the local host */
        if (strncmp(p, "localhost/", 10))
            return NULL;
        p += 9;
    }
    size_t n = strlen(p);
    char *out = malloc(n + 1), *o = out;
    if (!out)
        abort();
    for (; *p && *p != '?' && *p != '#'; p++) {
        int h1, h2;
        if (*p == '%' && (h1 = hex(p[1])) >= 0 && (h2 = hex(p[2])) >= 0) {
            char ch = (char)(h1 * 16 + h2);
            if (ch == '\0') {
                free(out);
                return NULL;
            }
            *o++ = ch;
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

char *nfy__lsp_path_uri(const char *path)
{
    static const char keep[] = "-._~/!$&'()*+,;=:@";
    nfy_buf b = NFY_BUF_INIT;
    nfy_buf_addstr(&b, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
            (*p >= '0' && *p <= '9') || strchr(keep, *p))
            nfy_buf_addch(&b, (char)*p);
        else
            nfy_buf_addf(&b, "%%%02X", *p);
    }
    char *out = strdup(b.data);
    nfy_buf_release(&b);
    if (!out)
        abort();
    return out;
}

char *nfy__lsp_explain_uri(nfy__lsp_server *s, const char *rule)
{
    const char *dir = s->opts->explain_dir;
    const nfy_rule *r = nfy_rules_set_find(s->rules, rule);
    if (!dir || !r || strchr(rule, '/') || rule[0] == '.')
        return NULL;
    json_t *known = json_object_get(s->explained, rule);
    if (known) /* written this session (fresh for this build's rules) */
        return json_is_string(known) ? strdup(json_string_value(known)) : NULL;
    nfy_arena a = NFY_ARENA_INIT;
    char *path = nfy_arena_fmt(&a, "%s/%s.md", dir, rule);
    char *uri = NULL;
    if (nfy_mkdirs(dir, 0700) == NFY_OK) {
        nfy_buf text = NFY_BUF_INIT;
        nfy_rules_render_explain(r, &text);
        if (nfy_file_write_atomic_flags(path, text.data ? text.data : "",
                                        text.len, 0600, 0) == NFY_OK)
            uri = nfy__lsp_path_uri(path);
        nfy_buf_release(&text);
    }
    json_object_set_new(s->explained, rule,
                        uri ? json_string(uri) : json_false());
    nfy_arena_release(&a);
    return uri;
}
