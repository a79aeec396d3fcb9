/*
 * Shipped torch_npu versions and --torch-version parsing. The list is the
 * set of aten_ops_v*.txt files (generated); a user may write the PyTorch
 * version the way pip or torch.__version__ prints it, so "2.1.0+cpu" or
 * "v2.1.0rc1" both name the 2.1 line.
 */
#include <string.h>

#include "apidb/apidb_data.h"

size_t nfy_apidb_version_count(void)
{
    return nfy__apidb_version_count;
}

const nfy_apidb_version *nfy_apidb_version_at(size_t i)
{
    return i < nfy__apidb_version_count ? &nfy__apidb_versions[i] : NULL;
}

const nfy_apidb_version *nfy_apidb_version_default(void)
{
    for (size_t i = nfy__apidb_version_count; i-- > 0;)
        if (!nfy__apidb_versions[i].beta)
            return &nfy__apidb_versions[i];
    return &nfy__apidb_versions[nfy__apidb_version_count - 1];
}

const char *nfy_apidb_version_list(void)
{
    return nfy__apidb_version_text;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A run of 1-4 digits at *i; false when there is none or it is too long. */
static bool take_number(nfy_str s, size_t *i, unsigned *out)
{
    size_t start = *i;
    unsigned n = 0;
    while (*i < s.len && is_digit(s.ptr[*i]) && *i - start < 5)
        n = n * 10 + (unsigned)(s.ptr[(*i)++] - '0');
    *out = n;
    return *i > start && *i - start <= 4;
}

/* What may follow the version numbers: "rc1", "a0+git..", "+cpu", ".post1" */
static bool suffix_ok(nfy_str s, size_t i)
{
    if (i == s.len)
        return true;
    char c = s.ptr[i];
    if (c == '.' && i + 1 < s.len)
        c = s.ptr[i + 1];
    if (!is_alpha(c) && c != '+')
        return false;
    for (; i < s.len; i++)
        if ((unsigned char)s.ptr[i] <= ' ' || (unsigned char)s.ptr[i] >= 0x7f)
            return false;
    return true;
}

static nfy_str trim(nfy_str s)
{
    while (s.len && is_blank(s.ptr[0])) {
        s.ptr++;
        s.len--;
    }
    while (s.len && is_blank(s.ptr[s.len - 1]))
        s.len--;
    return s;
}

/* "2.10" -> 2, 10 (names in the generated table are always well formed) */
static void split_name(const char *name, unsigned *major, unsigned *minor)
{
    nfy_str s = {name, strlen(name)};
    size_t i = 0;
    (void)take_number(s, &i, major);
    i++;
    (void)take_number(s, &i, minor);
}

nfy_status nfy_apidb_version_parse(nfy_str text, const nfy_apidb_version **out)
{
    nfy_str s = trim(text);
    size_t i = 0;
    unsigned major, minor, patch;
    *out = NULL;
    if (i < s.len && (s.ptr[i] == 'v' || s.ptr[i] == 'V'))
        i++;
    if (!take_number(s, &i, &major) || i >= s.len || s.ptr[i] != '.')
        return NFY_EUSAGE;
    i++;
    if (!take_number(s, &i, &minor))
        return NFY_EUSAGE;
    if (i + 1 < s.len && s.ptr[i] == '.' && is_digit(s.ptr[i + 1])) {
        i++;
        if (!take_number(s, &i, &patch))
            return NFY_EUSAGE;
    }
    if (!suffix_ok(s, i))
        return NFY_EUSAGE;
    for (size_t k = 0; k < nfy__apidb_version_count; k++) {
        unsigned ma, mi;
        split_name(nfy__apidb_versions[k].name, &ma, &mi);
        if (ma == major && mi == minor) {
            *out = &nfy__apidb_versions[k];
            return NFY_OK;
        }
    }
    return NFY_ENOENT;
}
