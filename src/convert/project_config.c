/*
 * The project settings file (project_config.h): a line-oriented reader of
 * the TOML subset it needs, with positions for every error.
 */
#define _GNU_SOURCE /* memmem */
#include "convert/project_config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const char *s, *end;
    const char *line_start;
    uint32_t line;
    const char *file;
    nfy_diags *diags;
    nfy_project_config *c;
    bool in_table; /* keys apply: top level of npuify.toml, [tool.npuify] */
    bool pyproject;
    NFY_VEC(const char *) rules;
    bool failed;
} cfg_reader;

void nfy_convert_project_config_init(nfy_project_config *c)
{
    memset(c, 0, sizeof *c);
    c->amp = -1;
    c->unsafe = -1;
}

void nfy_convert_project_config_release(nfy_project_config *c)
{
    nfy_arena_release(&c->arena);
    nfy_convert_project_config_init(c);
}

static uint32_t col_of(const cfg_reader *r, const char *p)
{
    uint32_t col = 0;
    for (const char *q = r->line_start; q < p; q++)
        col += ((unsigned char)*q & 0xC0) != 0x80;
    return col;
}

static void fail(cfg_reader *r, const char *at, const char *what)
{
    if (r->failed)
        return;
    r->failed = true;
    nfy_diag_add_at(r->diags, NFY_SEV_ERROR, "config-syntax", r->file, r->line,
                    col_of(r, at), "%s", what);
}

static void skip_blank(cfg_reader *r)
{
    while (r->s < r->end && (*r->s == ' ' || *r->s == '\t'))
        r->s++;
}

/* Blanks, comments and line ends (inside arrays). */
static void skip_space(cfg_reader *r)
{
    for (;;) {
        skip_blank(r);
        if (r->s < r->end && *r->s == '#')
            while (r->s < r->end && *r->s != '\n')
                r->s++;
        if (r->s >= r->end || (*r->s != '\n' && *r->s != '\r'))
            return;
        if (*r->s == '\n') {
            r->line++;
            r->line_start = r->s + 1;
        }
        r->s++;
    }
}

static bool at_line_end(cfg_reader *r)
{
    skip_blank(r);
    if (r->s < r->end && *r->s == '#')
        while (r->s < r->end && *r->s != '\n')
            r->s++;
    return r->s >= r->end || *r->s == '\n' || *r->s == '\r';
}

static bool is_bare(char ch)
{
    return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
           (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
}

/* A basic ("...") or literal ('...') string into the arena. */
static const char *read_string(cfg_reader *r)
{
    char q = *r->s++;
    nfy_buf b = NFY_BUF_INIT;
    while (r->s < r->end && *r->s != q && *r->s != '\n') {
        char ch = *r->s++;
        if (q == '"' && ch == '\\' && r->s < r->end) {
            char e = *r->s++;
            ch = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            if (e != 'n' && e != 't' && e != '"' && e != '\\') {
                fail(r, r->s - 2, "unsupported escape in a string");
                break;
            }
        }
        nfy_buf_addch(&b, ch);
    }
    const char *out = NULL;
    if (!r->failed && (r->s >= r->end || *r->s != q))
        fail(r, r->s, "unterminated string");
    else if (!r->failed)
        out = nfy_arena_strndup(&r->c->arena, b.data ? b.data : "", b.len);
    r->s++;
    nfy_buf_release(&b);
    return out;
}

typedef enum { V_STRING, V_BOOL, V_ARRAY, V_BAD } value_kind;

typedef struct {
    value_kind kind;
    const char *str;
    bool b;
} cfg_value;

static bool word_is(cfg_reader *r, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(r->end - r->s) < n || memcmp(r->s, w, n) ||
        (r->s + n < r->end && is_bare(r->s[n])))
        return false;
    r->s += n;
    return true;
}

static void read_array(cfg_reader *r, bool keep)
{
    r->s++;
    for (;;) {
        skip_space(r);
        if (r->s < r->end && *r->s == ']') {
            r->s++;
            return;
        }
        if (r->s >= r->end || (*r->s != '"' && *r->s != '\'')) {
            fail(r, r->s, "expected a string or ']' in the array");
            return;
        }
        const char *v = read_string(r);
        if (r->failed)
            return;
        if (keep)
            nfy_vec_push(&r->rules, v);
        skip_space(r);
        if (r->s < r->end && *r->s == ',')
            r->s++;
        else if (r->s >= r->end || *r->s != ']') {
            fail(r, r->s, "expected ',' or ']' in the array");
            return;
        }
    }
}

/* Another tool's value (pyproject.toml): skipped whole, whatever its type
 * (numbers, dates, inline tables, multi-line arrays and strings). */
static void skip_foreign_value(cfg_reader *r)
{
    int depth = 0;
    while (r->s < r->end) {
        char ch = *r->s;
        if ((ch == '"' || ch == '\'') && r->end - r->s >= 3 && r->s[1] == ch &&
            r->s[2] == ch) {
            const char q[4] = {ch, ch, ch, 0};
            const char *close =
                memmem(r->s + 3, (size_t)(r->end - r->s - 3), q, 3);
            for (const char *p = r->s; p < (close ? close : r->end); p++)
                if (*p == '\n') {
                    r->line++;
                    r->line_start = p + 1;
                }
            r->s = close ? close + 3 : r->end;
            continue;
        }
        if (ch == '"' || ch == '\'') {
            r->s++;
            while (r->s < r->end && *r->s != ch && *r->s != '\n')
                r->s +=
                    (*r->s == '\\' && ch == '"' && r->s + 1 < r->end) ? 2 : 1;
            if (r->s < r->end && *r->s == ch)
                r->s++;
            continue;
        }
        if (ch == '#' || ch == '\n') {
            if (depth == 0)
                return;
            if (ch == '#')
                while (r->s < r->end && *r->s != '\n')
                    r->s++;
            else {
                r->line++;
                r->line_start = ++r->s;
            }
            continue;
        }
        depth += (ch == '[' || ch == '{') - (ch == ']' || ch == '}');
        r->s++;
    }
}

static cfg_value read_value(cfg_reader *r, bool keep_array)
{
    cfg_value v = {V_BAD, NULL, false};
    if (r->s < r->end && (*r->s == '"' || *r->s == '\'')) {
        v.str = read_string(r);
        v.kind = r->failed ? V_BAD : V_STRING;
    } else if (word_is(r, "true") || word_is(r, "false")) {
        v.kind = V_BOOL;
        v.b = r->s[-1] == 'e' && r->s[-2] == 'u';
    } else if (r->s < r->end && *r->s == '[') {
        read_array(r, keep_array);
        v.kind = r->failed ? V_BAD : V_ARRAY;
    } else {
        fail(r, r->s, "expected a string, true, false or an array");
    }
    return v;
}

static const char *resolve_rel(cfg_reader *r, const char *dir, const char *p)
{
    return p[0] == '/' ? p : nfy_arena_fmt(&r->c->arena, "%s/%s", dir, p);
}

/* Store key=value; pos is the key's position for errors. */
static void apply(cfg_reader *r, const char *key, size_t klen, const char *pos,
                  const cfg_value *v)
{
    nfy_project_config *c = r->c;
#define KEY_IS(k) (klen == sizeof k - 1 && !memcmp(key, k, klen))
    if (KEY_IS("torch-version") && v->kind == V_STRING)
        c->torch_version = v->str;
    else if (KEY_IS("amp") && v->kind == V_BOOL)
        c->amp = v->b;
    else if (KEY_IS("amp") && v->kind == V_STRING && !strcmp(v->str, "apex"))
        c->amp = 1, c->amp_apex = true;
    else if (KEY_IS("amp") && v->kind == V_STRING && !strcmp(v->str, "bf16"))
        c->amp = 1, c->amp_bf16 = true;
    else if (KEY_IS("unsafe") && v->kind == V_BOOL)
        c->unsafe = v->b;
    else if (KEY_IS("rules") && v->kind == V_ARRAY)
        ;
    else if (KEY_IS("torch-version") || KEY_IS("amp") || KEY_IS("unsafe") ||
             KEY_IS("rules"))
        fail(r, pos, "a value of the wrong type for this key");
    else {
        nfy_diag_add_at(r->diags, NFY_SEV_WARNING, "config-key", r->file,
                        r->line, col_of(r, pos),
                        "unknown key '%.*s' (known: torch-version, amp, "
                        "unsafe, rules)",
                        (int)klen, key);
    }
#undef KEY_IS
}

static void read_table_header(cfg_reader *r)
{
    const char *start = ++r->s;
    while (r->s < r->end && *r->s != ']' && *r->s != '\n')
        r->s++;
    if (r->s >= r->end || *r->s != ']') {
        fail(r, r->s, "expected ']' to close the table name");
        return;
    }
    size_t n = (size_t)(r->s - start);
    r->s++;
    r->in_table = r->pyproject && n == 11 && !memcmp(start, "tool.npuify", 11);
    if (!r->pyproject)
        fail(r, start - 1, "npuify.toml takes its keys at the top level");
    if (!at_line_end(r))
        fail(r, r->s, "unexpected text after the table name");
}

static void read_key_value(cfg_reader *r)
{
    const char *key = r->s;
    while (r->s < r->end && is_bare(*r->s))
        r->s++;
    size_t klen = (size_t)(r->s - key);
    if (klen == 0) {
        fail(r, key, "expected a key");
        return;
    }
    skip_blank(r);
    if (r->s >= r->end || *r->s != '=') {
        fail(r, r->s, "expected '=' after the key");
        return;
    }
    r->s++;
    skip_blank(r);
    if (!r->in_table) {
        skip_foreign_value(r);
        return;
    }
    bool keep = klen == 5 && !memcmp(key, "rules", 5);
    cfg_value v = read_value(r, keep);
    if (r->failed)
        return;
    if (!at_line_end(r)) {
        fail(r, r->s, "unexpected text after the value");
        return;
    }
    apply(r, key, klen, key, &v);
}

static void read_all(cfg_reader *r)
{
    while (!r->failed) {
        skip_space(r);
        if (r->s >= r->end)
            return;
        if (*r->s == '[')
            read_table_header(r);
        else
            read_key_value(r);
    }
}

static nfy_status parse(nfy_project_config *c, const char *path,
                        const char *dir, const char *text, size_t len,
                        bool pyproject, nfy_diags *diags)
{
    cfg_reader r = {.s = text,
                    .end = text + len,
                    .line_start = text,
                    .line = 1,
                    .file = path,
                    .diags = diags,
                    .c = c,
                    .in_table = !pyproject,
                    .pyproject = pyproject};
    read_all(&r);
    if (r.rules.len) {
        c->rules =
            nfy_arena_calloc(&c->arena, r.rules.len + 1, sizeof *c->rules);
        for (size_t i = 0; i < r.rules.len; i++)
            c->rules[i] = resolve_rel(&r, dir, r.rules.items[i]);
        c->nrules = r.rules.len;
    }
    nfy_vec_free(&r.rules);
    return r.failed ? NFY_ESYNTAX : NFY_OK;
}

/* pyproject.toml counts only when it has a [tool.npuify] table. */
static bool has_npuify_table(const char *text, size_t len)
{
    static const char key[] = "[tool.npuify]";
    for (const char *p = text; p && (size_t)(p - text) < len;) {
        const char *hit =
            memmem(p, len - (size_t)(p - text), key, sizeof key - 1);
        if (!hit)
            return false;
        if (hit == text || hit[-1] == '\n')
            return true;
        p = hit + 1;
    }
    return false;
}

static nfy_status read_file(const char *path, nfy_buf *b, nfy_diags *diags)
{
    nfy_status st = nfy_file_read(path, 1 << 20, b);
    if (st)
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "config-read", path, 0, 0,
                        "cannot read: %s", nfy_status_str(st));
    return st;
}

nfy_status nfy_convert_project_config_load(const char *dir,
                                           nfy_project_config *c,
                                           nfy_diags *diags)
{
    static const char *const names[] = {"npuify.toml", "pyproject.toml"};
    for (size_t i = 0; i < 2; i++) {
        char *path = nfy_arena_fmt(&c->arena, "%s/%s", dir, names[i]);
        if (access(path, F_OK) != 0)
            continue;
        nfy_buf b = NFY_BUF_INIT;
        nfy_status st = read_file(path, &b, diags);
        if (!st && i == 1 && !has_npuify_table(b.data ? b.data : "", b.len)) {
            nfy_buf_release(&b);
            return NFY_OK;
        }
        if (!st) {
            c->path = path;
            st =
                parse(c, path, dir, b.data ? b.data : "", b.len, i == 1, diags);
        }
        nfy_buf_release(&b);
        return st;
    }
    return NFY_OK;
}
