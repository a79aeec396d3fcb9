/*
 * Grammar-checked walking over the lexer's tokens for values a reader does
 * not keep (skip) or keeps only as text (a trace's shape lists). Skipping
 * is iterative with an explicit stack of container kinds, so a hostile
 * 100k-deep array costs a diagnostic, not the C stack.
 */
#include <string.h>

#include "core/json_lex.h"

bool nfy_json_fail(nfy_json_lex *lx, const char *msg)
{
    if (lx->tok != NFY_JT_ERROR) {
        lx->error = msg;
        lx->tok = NFY_JT_ERROR;
    }
    return false;
}

static bool is_scalar(nfy_json_tok t)
{
    return t == NFY_JT_STRING || t == NFY_JT_NUMBER || t == NFY_JT_TRUE ||
           t == NFY_JT_FALSE || t == NFY_JT_NULL;
}

static bool is_open(nfy_json_tok t)
{
    return t == NFY_JT_LBRACE || t == NFY_JT_LBRACKET;
}

static nfy_json_tok closer(char kind)
{
    return kind == '{' ? NFY_JT_RBRACE : NFY_JT_RBRACKET;
}

/* In an object: key, colon, then return the value's first token. */
static nfy_json_tok member_value(nfy_json_lex *lx, nfy_json_tok t)
{
    if (t != NFY_JT_STRING) {
        nfy_json_fail(lx, "expected a key string");
        return NFY_JT_ERROR;
    }
    if (nfy_json_lex_next(lx, 0) != NFY_JT_COLON) {
        nfy_json_fail(lx, "expected ':' after key");
        return NFY_JT_ERROR;
    }
    return nfy_json_lex_next(lx, 0);
}

bool nfy_json_skip_value(nfy_json_lex *lx, nfy_json_tok tok, int depth)
{
    char kinds[NFY_JSON_MAX_DEPTH];
    int d = 0;
    if (is_scalar(tok))
        return true;
    if (!is_open(tok))
        return nfy_json_fail(lx, "expected a value");
    if (depth >= NFY_JSON_MAX_DEPTH)
        return nfy_json_fail(lx, "nesting too deep");
    kinds[d++] = tok == NFY_JT_LBRACE ? '{' : '[';
    nfy_json_tok t = nfy_json_lex_next(lx, 0);
    bool first = true; /* right after an opening bracket */
    for (;;) {
        if (first && t == closer(kinds[d - 1])) {
            d--;
        } else {
            if (kinds[d - 1] == '{')
                t = member_value(lx, t);
            if (is_open(t)) {
                if (depth + d >= NFY_JSON_MAX_DEPTH)
                    return nfy_json_fail(lx, "nesting too deep");
                kinds[d++] = t == NFY_JT_LBRACE ? '{' : '[';
                t = nfy_json_lex_next(lx, 0);
                first = true;
                continue;
            }
            if (!is_scalar(t))
                return nfy_json_fail(lx, "expected a value");
        }
        /* A value (scalar or closed container) ends here. */
        for (;;) {
            if (d == 0)
                return true;
            t = nfy_json_lex_next(lx, 0);
            if (t == NFY_JT_COMMA)
                break;
            if (t != closer(kinds[d - 1]))
                return nfy_json_fail(lx, "expected ',' or a closing bracket");
            d--;
        }
        t = nfy_json_lex_next(lx, 0);
        first = false;
    }
}

static void render_scalar(nfy_json_lex *lx, nfy_json_tok t, nfy_buf *out)
{
    if (t == NFY_JT_NUMBER) {
        nfy_buf_add(out, lx->text, lx->text_len);
    } else if (t == NFY_JT_STRING) {
        nfy_buf_addch(out, '\'');
        nfy_buf_add(out, lx->text, lx->text_len);
        nfy_buf_addch(out, '\'');
    } else {
        nfy_buf_addstr(out, t == NFY_JT_TRUE    ? "True"
                            : t == NFY_JT_FALSE ? "False"
                                                : "None");
    }
}

/* Length of a JSON number at p (n bytes), or 0 if none. */
static size_t number_len(const unsigned char *p, size_t n)
{
    size_t i = 0, d;
    if (i < n && p[i] == '-')
        i++;
    for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
        ;
    if (i == d || (p[d] == '0' && i - d > 1))
        return 0;
    if (i < n && p[i] == '.') {
        for (d = ++i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
            ;
        if (i == d)
            return 0;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-'))
            i++;
        for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
            ;
        if (i == d)
            return 0;
    }
    return i;
}

static bool blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Fast path for the common shape list (nested arrays of numbers, already
 * in the window): checks the grammar on the raw bytes after the opening
 * "[" and returns the length up to the matching "]", or 0 to fall back to
 * the token path (strings, literals, objects, errors, window too short).
 */
static size_t simple_list_len(const unsigned char *p, size_t n, int depth)
{
    enum { OPENED, COMMA, VALUE } state = OPENED;
    int level = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (blank(c))
            continue;
        if (c == ']' && state != COMMA) {
            if (--level == 0)
                return i + 1;
            state = VALUE;
        } else if (c == ',' && state == VALUE) {
            state = COMMA;
        } else if (c == '[' && state != VALUE) {
            if (depth + ++level - 1 >= NFY_JSON_MAX_DEPTH)
                return 0;
            state = OPENED;
        } else if (state != VALUE && (c == '-' || (c >= '0' && c <= '9'))) {
            size_t k = number_len(p + i, n - i);
            if (!k || i + k >= n)
                return 0;
            i += k - 1;
            state = VALUE;
        } else {
            return 0;
        }
    }
    return 0;
}

static bool render_fast(nfy_json_lex *lx, int depth, nfy_buf *out)
{
    const unsigned char *p = lx->buf + lx->pos;
    size_t len = simple_list_len(p, lx->len - lx->pos, depth);
    if (!len)
        return false;
    nfy_buf_addch(out, '[');
    size_t run = 0; /* start of the pending run of bytes to copy */
    for (size_t i = 0; i < len; i++) {
        if (!blank(p[i]) && p[i] != ',')
            continue;
        nfy_buf_add(out, p + run, i - run);
        if (p[i] == ',')
            nfy_buf_add(out, ", ", 2);
        run = i + 1;
    }
    nfy_buf_add(out, p + run, len - run);
    lx->pos += len;
    return true;
}

bool nfy_json_render_list(nfy_json_lex *lx, nfy_json_tok tok, int depth,
                          nfy_buf *out)
{
    if (is_scalar(tok)) {
        render_scalar(lx, tok, out);
        return true;
    }
    if (tok == NFY_JT_LBRACE) {
        nfy_buf_addstr(out, "{...}");
        return nfy_json_skip_value(lx, tok, depth);
    }
    if (tok != NFY_JT_LBRACKET)
        return nfy_json_fail(lx, "expected a value");
    if (depth >= NFY_JSON_MAX_DEPTH)
        return nfy_json_fail(lx, "nesting too deep");
    if (render_fast(lx, depth, out))
        return true;
    nfy_buf_addch(out, '[');
    nfy_json_tok t = nfy_json_lex_next(lx, 256);
    if (t != NFY_JT_RBRACKET) {
        for (;;) {
            if (!nfy_json_render_list(lx, t, depth + 1, out))
                return false;
            t = nfy_json_lex_next(lx, 0);
            if (t == NFY_JT_RBRACKET)
                break;
            if (t != NFY_JT_COMMA)
                return nfy_json_fail(lx, "expected ',' or ']'");
            nfy_buf_addstr(out, ", ");
            t = nfy_json_lex_next(lx, 256);
        }
    }
    nfy_buf_addch(out, ']');
    return true;
}
