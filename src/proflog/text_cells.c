/*
 * Cell grammars of profiler text tables (profiler_formats.md section 2.2):
 * times with a unit, percents (with NaN and a bare 0), memory sizes with
 * old (b/Kb) and new (B/KB) unit spellings, integers, FLOPs, shape cells.
 * Numbers are parsed by hand: cells are short, and strtod would need a
 * NUL-terminated copy of every one of them.
 */
#include <math.h>
#include <string.h>

#include "proflog/proflog.h"
#include "proflog/text_internal.h"

/* Parse -?digits[.digits] at the start of s; returns bytes used (0: none).
 * Digits accumulate in an integer and are scaled once (cells have few
 * digits; past 18 the rest only scale). */
static size_t parse_decimal(const char *s, size_t n, double *out)
{
    static const double inv10[] = {
        1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8, 1e-9,
        1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18};
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    uint64_t m = 0;
    size_t digits = 0, frac = 0, extra = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        if (digits < 18)
            m = m * 10 + (uint64_t)(s[i] - '0');
        else
            extra++; /* integer digits beyond precision scale up */
    }
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
            if (digits < 18) {
                m = m * 10 + (uint64_t)(s[i] - '0');
                frac++;
            }
    }
    if (digits == 0)
        return 0;
    double v = (double)m;
    if (frac)
        v *= inv10[frac];
    for (; extra; extra--)
        v *= 10;
    *out = neg ? -v : v;
    return i;
}

static bool is_nan_word(nfy_str c)
{
    static const char *const words[] = {"NaN", "nan",  "-nan", "-NaN",
                                        "inf", "-inf", "Inf",  "-Inf"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t wl = strlen(words[i]);
        if (c.len == wl && !memcmp(c.ptr, words[i], wl))
            return true;
    }
    return false;
}

bool nfy_prof_parse_time(nfy_str c, double *us)
{
    double v;
    size_t k = parse_decimal(c.ptr, c.len, &v);
    if (!k)
        return false;
    nfy_str unit = nfy_str_slice(c, k, c.len);
    if (nfy_str_eq_cstr(unit, "us"))
        *us = v;
    else if (nfy_str_eq_cstr(unit, "ms"))
        *us = v * 1e3;
    else if (nfy_str_eq_cstr(unit, "s"))
        *us = v * 1e6;
    else if (nfy_str_eq_cstr(unit, "ns"))
        *us = v * 1e-3;
    else
        return false;
    return true;
}

bool nfy_prof_parse_pct(nfy_str c, double *pct)
{
    if (c.len && c.ptr[c.len - 1] == '%')
        c.len--;
    double v;
    size_t k = parse_decimal(c.ptr, c.len, &v);
    if (k && k == c.len) {
        *pct = v;
        return true;
    }
    if (is_nan_word(c)) {
        *pct = NAN;
        return true;
    }
    return false;
}

bool nfy_prof_parse_mem(nfy_str c, double *bytes)
{
    double v;
    size_t k = parse_decimal(c.ptr, c.len, &v);
    if (!k || k >= c.len || c.ptr[k] != ' ')
        return false;
    nfy_str unit = nfy_str_slice(c, k + 1, c.len);
    static const char *const units[] = {"b", "kb", "mb", "gb", "tb", "pb"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (unit.len != strlen(units[i]))
            continue;
        bool same = true;
        for (size_t j = 0; j < unit.len; j++) {
            char ch = unit.ptr[j];
            if (ch >= 'A' && ch <= 'Z')
                ch = (char)(ch - 'A' + 'a');
            same = same && ch == units[i][j];
        }
        if (same) {
            *bytes = v * pow(1024.0, (double)i);
            return true;
        }
    }
    return false;
}

bool nfy_prof__parse_int(nfy_str c, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (c.len && c.ptr[0] == '-') {
        neg = true;
        i = 1;
    }
    if (i >= c.len || c.len - i > 18)
        return false;
    int64_t v = 0;
    for (; i < c.len; i++) {
        if (c.ptr[i] < '0' || c.ptr[i] > '9')
            return false;
        v = v * 10 + (c.ptr[i] - '0');
    }
    *out = neg ? -v : v;
    return true;
}

bool nfy_prof__parse_flops(nfy_str c, double *out)
{
    if (nfy_str_eq_cstr(c, "--")) {
        *out = NAN;
        return true;
    }
    double v;
    size_t k = parse_decimal(c.ptr, c.len, &v);
    if (!k || k != c.len)
        return false;
    *out = v;
    return true;
}

bool nfy_prof_shapes_truncated(nfy_str s)
{
    int depth = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] == '[')
            depth++;
        else if (s.ptr[i] == ']')
            depth--;
    }
    return depth != 0 || (s.len && s.ptr[s.len - 1] != ']');
}

bool nfy_prof__is_shapes(nfy_str c, bool *cut)
{
    if (!c.len || c.ptr[0] != '[')
        return false;
    int depth = 1;
    for (size_t i = 1; i < c.len; i++) {
        char ch = c.ptr[i];
        if (ch == '[')
            depth++;
        else if (ch == ']')
            depth--;
        else if (!((ch >= '0' && ch <= '9') || ch == ',' || ch == ' ' ||
                   ch == '-'))
            return false;
    }
    *cut = depth != 0 || c.ptr[c.len - 1] != ']';
    return true;
}

static size_t skip_ws(const unsigned char *p, size_t i, size_t len)
{
    while (i < len &&
           (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i;
}

/* A trace starts with '{' or with '[' then '{' / ']' (an event array);
 * "[rank0]: ..." and "[W init.cpp]" start text logs. */
bool nfy_prof_sniff_trace(const void *head, size_t len)
{
    const unsigned char *p = head;
    if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return true;
    size_t i = 0;
    if (len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
        i = 3;
    i = skip_ws(p, i, len);
    if (i >= len)
        return false;
    if (p[i] == '{')
        return true;
    if (p[i] != '[')
        return false;
    i = skip_ws(p, i + 1, len);
    return i >= len || p[i] == '{' || p[i] == ']';
}
