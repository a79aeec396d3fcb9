/*
 * Hover: the dotted name under the cursor, its first part resolved through
 * the file's imports ("import torch as t", "from torch import cuda"), and
 * the support data's answer for it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_internal.h"

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        abort();
    return p;
}

static bool ident_ch(char c)
{
    return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* [*from, *to) of the dotted name ending with the identifier at off. */
static bool name_at(const char *t, size_t len, size_t off, size_t *from,
                    size_t *to)
{
    size_t b = off, e = off;
    while (e < len && ident_ch(t[e]))
        e++;
    while (b > 0 && (ident_ch(t[b - 1]) || t[b - 1] == '.'))
        b--;
    while (b < e && t[b] == '.')
        b++;
    if (b == e || isdigit((unsigned char)t[b]))
        return false;
    *from = b;
    *to = e;
    return true;
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static const char *word_end(const char *p, const char *end, bool dots)
{
    while (p < end && (ident_ch(*p) || (dots && *p == '.')))
        p++;
    return p;
}

/* In one "import" or "from ... import" line: what does head name? */
static char *bound_in_line(const char *p, const char *end, const char *head,
                           size_t hn)
{
    bool from = !strncmp(p, "from ", 5);
    const char *mod = NULL, *mod_end = NULL;
    if (from) {
        mod = skip_ws(p + 5, end);
        mod_end = word_end(mod, end, true);
        p = skip_ws(mod_end, end);
        if (strncmp(p, "import", 6))
            return NULL;
        p += 6;
    } else {
        p += 7;
    }
    for (;;) {
        p = skip_ws(p, end);
        if (p < end && *p == '(')
            p = skip_ws(p + 1, end);
        const char *n = p, *n_end = word_end(p, end, !from);
        if (n_end == n)
            return NULL;
        p = skip_ws(n_end, end);
        const char *as = n, *as_end = from ? n_end : word_end(n, n_end, false);
        if (!strncmp(p, "as ", 3)) {
            as = skip_ws(p + 3, end);
            as_end = word_end(as, end, false);
            p = skip_ws(as_end, end);
        }
        if ((size_t)(as_end - as) == hn && !memcmp(as, head, hn)) {
            /* "import a.b" binds a; "import a.b as c" binds c = a.b */
            const char *full_end = as == n && !from ? as_end : n_end;
            size_t fl = (size_t)(full_end - n);
            if (!from) {
                char *r = xmalloc(fl + 1);
                memcpy(r, n, fl);
                r[fl] = '\0';
                return r;
            }
            size_t ml = (size_t)(mod_end - mod);
            char *r = xmalloc(ml + 1 + fl + 1);
            memcpy(r, mod, ml);
            r[ml] = '.';
            memcpy(r + ml + 1, n, fl);
            r[ml + 1 + fl] = '\0';
            return r;
        }
        if (p >= end || *p != ',')
            return NULL;
        p++;
    }
}

/* The module or object head is bound to by the file's imports, or NULL. */
static char *resolve_head(const char *t, size_t len, const char *head,
                          size_t hn)
{
    char *found = NULL;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && t[e] != '\n')
            e++;
        const char *p = skip_ws(t + i, t + e);
        if (!strncmp(p, "import ", 7) || !strncmp(p, "from ", 5)) {
            char *r = bound_in_line(p, t + e, head, hn);
            if (r) {
                free(found);
                found = r; /* the last binding wins */
            }
        }
        i = e + 1;
    }
    return found;
}

static char *qualname(const char *t, size_t len, size_t from, size_t to)
{
    const char *dot = memchr(t + from, '.', to - from);
    size_t hn = dot ? (size_t)(dot - (t + from)) : to - from;
    char *head = resolve_head(t, len, t + from, hn);
    const char *base = head ? head : "";
    size_t bl = head ? strlen(head) : hn;
    size_t rest = to - from - hn;
    char *q = xmalloc(bl + rest + 1);
    memcpy(q, head ? base : t + from, bl);
    memcpy(q + bl, t + from + hn, rest);
    q[bl + rest] = '\0';
    free(head);
    return q;
}

json_t *nfy__lsp_hover(nfy__lsp_server *s, nfy__lsp_doc *doc, json_t *params)
{
    json_t *pos = json_object_get(params, "position");
    json_t *l = json_object_get(pos, "line"),
           *c = json_object_get(pos, "character");
    if (!s->opts->hover || !json_is_integer(l) || !json_is_integer(c) ||
        json_integer_value(l) < 0 || json_integer_value(c) < 0)
        return json_null();
    const char *t = doc->text.data ? doc->text.data : "";
    size_t off =
        nfy__lsp_offset(t, doc->text.len, (uint32_t)json_integer_value(l),
                        (uint32_t)json_integer_value(c));
    size_t from, to;
    if (!name_at(t, doc->text.len, off, &from, &to))
        return json_null();
    char *q = qualname(t, doc->text.len, from, to);
    const char *tv = s->config.torch_version ? s->config.torch_version
                                             : s->opts->torch_version;
    char *md = strncmp(q, "torch", 5) && strncmp(q, "apex", 4)
                   ? NULL
                   : s->opts->hover(s->opts->hover_user, q, tv);
    free(q);
    if (!md)
        return json_null();
    json_t *r = json_pack("{s:{s:s,s:o}}", "contents", "kind", "markdown",
                          "value", nfy__lsp_string(md));
    free(md);
    return r;
}
