/*
 * f-strings under PEP 701 (Python 3.12+): a replacement field {...} may hold
 * strings with any quotes (also the enclosing one), nested f-strings,
 * newlines and comments, and its format spec may hold nested fields. One
 * recursive scanner serves two callers: the lexer, to find where an
 * f-string ends, and nfy_lex_fstring_split, which records the top-level literal
 * and {expr!conv:spec} parts of a token. Scans are bounded (nesting depth,
 * bytes), so hostile input costs little; past the bounds the lexer falls
 * back to Python 3.11's rules.
 */
#include <string.h>

#include "pylex/lex_internal.h"

enum { MAX_DEPTH = 16, SCAN_BUDGET = 1 << 16 };

typedef struct {
    const char *s;
    uint32_t n;               /* scan limit */
    uint32_t depth;           /* replacement fields entered */
    nfy_fstring_parts *parts; /* top-level parts to record, or NULL */
    uint32_t lit_start;       /* start of the pending top-level literal */
    uint32_t reached;         /* furthest offset a failed scan looked at */
} fscan;

typedef struct {
    char quote;
    bool triple, raw;
} strctx;

static bool scan_body(fscan *f, uint32_t *pos, const strctx *sc, bool in_spec);

/* Every scan moves forward only, so its cost is how far it got. */
static bool fail_at(fscan *f, uint32_t i)
{
    if (i > f->reached)
        f->reached = i;
    return false;
}

static bool recording(const fscan *f)
{
    return f->parts && f->depth == 0;
}

static void add_literal(fscan *f, uint32_t start, uint32_t end)
{
    if (end <= start)
        return;
    nfy_fstring_part part = {{start, end}, false, {end, end}, {end, end}};
    nfy_vec_push(f->parts, part);
}

/* A string inside a replacement field, starting at its prefix. */
static bool nested_string(fscan *f, uint32_t *pos)
{
    nfy__lex_strstart st;
    if (!nfy__lex_string_start(f->s, *pos, f->n, &st))
        return false;
    strctx sc = {st.quote, (st.flags & NFY_TOKF_TRIPLE) != 0,
                 (st.flags & NFY_TOKF_RAW) != 0};
    uint32_t i = *pos + st.plen + (sc.triple ? 3 : 1);
    if (st.flags & NFY_TOKF_FSTRING) {
        *pos = i;
        return scan_body(f, pos, &sc, false);
    }
    const char *s = f->s;
    while (i < f->n) {
        char c = s[i];
        if (c == '\\') {
            i += 2;
            continue;
        }
        if (c == sc.quote &&
            (!sc.triple || (i + 2 < f->n && s[i + 1] == c && s[i + 2] == c))) {
            *pos = i + (sc.triple ? 3 : 1);
            return true;
        }
        if (c == '\n' && !sc.triple)
            return fail_at(f, i);
        i++;
    }
    return fail_at(f, i);
}

static bool word_byte(char c)
{
    unsigned cls = nfy__lex_class((unsigned char)c);
    return cls == LC_NAME || cls == LC_PREFIX || cls == LC_DIGIT ||
           cls == LC_HIGH;
}

/* Record the {expr!conv:spec} part of a top-level field. */
static void add_field(fscan *f, uint32_t expr_start, uint32_t expr_end,
                      uint32_t conv_start, uint32_t spec_start, uint32_t close)
{
    if (!f->parts || f->depth != 1)
        return;
    uint32_t conv_end = spec_start ? spec_start - 1 : close;
    nfy_fstring_part part = {
        {expr_start, expr_end},
        true,
        {conv_start ? conv_start : expr_end, conv_start ? conv_end : expr_end},
        {spec_start ? spec_start : close, close}};
    nfy_vec_push(f->parts, part);
}

/* A replacement field; *pos is just after its '{'. */
static bool scan_field(fscan *f, uint32_t *pos, const strctx *sc)
{
    if (++f->depth > MAX_DEPTH)
        return fail_at(f, *pos);
    const char *s = f->s;
    uint32_t i = *pos, expr_start = i, conv = 0, bracket = 0;
    while (i < f->n) {
        char c = s[i];
        nfy__lex_strstart st;
        if (c == '\'' || c == '"') {
            if (!nested_string(f, &i))
                return false;
        } else if (word_byte(c)) {
            uint32_t j = i; /* a name, or a string prefix */
            while (j < f->n && word_byte(s[j]))
                j++;
            if (j - i <= 2 && nfy__lex_string_start(s, i, f->n, &st) &&
                st.plen == j - i) {
                if (!nested_string(f, &i))
                    return false;
            } else {
                i = j;
            }
        } else if (c == '#') {
            while (i < f->n && s[i] != '\n')
                i++;
        } else if (c == '(' || c == '[' || c == '{') {
            bracket++, i++;
        } else if (c == ')' || c == ']') {
            bracket -= bracket > 0, i++;
        } else if (c == '}' && bracket) {
            bracket--, i++;
        } else if (c == '}' || (c == ':' && !bracket)) {
            uint32_t expr_end = conv ? conv : i, spec = 0;
            if (c == ':') {
                spec = ++i;
                if (!scan_body(f, &i, sc, true))
                    return false;
            }
            add_field(f, expr_start, expr_end, conv, spec, i);
            f->depth--;
            *pos = i + 1;
            return true;
        } else if (c == '!' && !bracket && i + 1 < f->n && s[i + 1] != '=') {
            conv = conv ? conv : i;
            i++;
        } else if (c == '\\') {
            i += 2;
        } else {
            i++;
        }
    }
    return fail_at(f, i);
}

/* \N{NAME} in a non-raw string: its braces open no field. */
static uint32_t named_escape(const fscan *f, uint32_t i, char quote)
{
    uint32_t j = i + 3;
    while (j < f->n && f->s[j] != '}' && f->s[j] != quote && f->s[j] != '\n')
        j++;
    return j < f->n && f->s[j] == '}' ? j + 1 : i + 2;
}

/* At the string's closing quote(s) i: finish the body or the spec. */
static bool at_close(fscan *f, uint32_t *pos, const strctx *sc, bool in_spec,
                     uint32_t i)
{
    if (in_spec) /* the string ends inside a field: unterminated */
        return fail_at(f, i);
    if (recording(f))
        add_literal(f, f->lit_start, i);
    *pos = i + (sc->triple ? 3 : 1);
    return true;
}

/*
 * Literal text from *pos: up to the closing quotes (in_spec false, *pos
 * after them) or up to the '}' ending a format spec (in_spec, *pos at it).
 */
static bool scan_body(fscan *f, uint32_t *pos, const strctx *sc, bool in_spec)
{
    const char *s = f->s;
    uint32_t i = *pos;
    while (i < f->n) {
        char c = s[i];
        if (c == '\\') {
            if (i + 1 < f->n && s[i + 1] == '{')
                i++; /* the brace still opens a field */
            else if (!sc->raw && i + 2 < f->n && s[i + 1] == 'N' &&
                     s[i + 2] == '{')
                i = named_escape(f, i, sc->quote);
            else
                i += 2;
        } else if (c == sc->quote &&
                   (!sc->triple ||
                    (i + 2 < f->n && s[i + 1] == c && s[i + 2] == c))) {
            return at_close(f, pos, sc, in_spec, i);
        } else if (c == '\n' && !sc->triple) {
            return fail_at(f, i);
        } else if (c == '{' && !in_spec && i + 1 < f->n && s[i + 1] == '{') {
            i += 2;
        } else if (c == '{') {
            if (recording(f))
                add_literal(f, f->lit_start, i);
            i++;
            if (!scan_field(f, &i, sc))
                return false;
            if (recording(f))
                f->lit_start = i;
        } else if (c == '}' && in_spec) {
            *pos = i;
            return true;
        } else {
            i += (c == '}' && i + 1 < f->n && s[i + 1] == '}') ? 2 : 1;
        }
    }
    return fail_at(f, i);
}

bool nfy__lex_fstring_scan(const char *s, uint32_t body, uint32_t n, char quote,
                           bool triple, bool raw, uint32_t *budget,
                           uint32_t *end)
{
    uint32_t window = *budget < SCAN_BUDGET ? *budget : SCAN_BUDGET;
    if (!window)
        return false;
    fscan f = {s, n - body > window ? body + window : n, 0, NULL, body, body};
    strctx sc = {quote, triple, raw};
    uint32_t i = body;
    bool ok = scan_body(&f, &i, &sc, false);
    uint32_t cost = (ok ? i : f.reached) - body + 1;
    *budget -= cost < *budget ? cost : *budget;
    if (ok)
        *end = i;
    return ok;
}

bool nfy_lex_fstring_split(const nfy_source *src, const nfy_token *tok,
                           nfy_fstring_parts *out)
{
    if (tok->kind != NFY_TOK_STRING || !(tok->flags & NFY_TOKF_FSTRING) ||
        tok->end > src->len)
        return false;
    const char *s = src->data;
    nfy__lex_strstart st;
    if (!nfy__lex_string_start(s, tok->start, tok->end, &st))
        return false;
    strctx sc = {st.quote, (st.flags & NFY_TOKF_TRIPLE) != 0,
                 (st.flags & NFY_TOKF_RAW) != 0};
    uint32_t qlen = sc.triple ? 3 : 1;
    uint32_t body = tok->start + st.plen + qlen;
    size_t before = out->len;
    fscan f = {s, tok->end, 0, out, body, body};
    uint32_t i = body;
    if (scan_body(&f, &i, &sc, false) && i == tok->end)
        return true;
    /* Not well formed: one literal part with the whole body. */
    out->len = before;
    uint32_t stop = tok->end;
    if (stop >= body + qlen && !memcmp(s + stop - qlen, s + body - qlen, qlen))
        stop -= qlen;
    f.depth = 0;
    add_literal(&f, body, stop > body ? stop : body);
    return true;
}
