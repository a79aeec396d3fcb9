/*
 * The generic half of apidb: reading the generated tables. A family's rows
 * are sorted by key, so lookups are binary searches; a row carries a mask of
 * the data versions ("labels") it belongs to, and choosing the label that
 * serves a shipped torch_npu version is done here once for every data set
 * (exact, nearest older, "master" for the newest, oldest as a last resort).
 */
#include <string.h>

#include "apidb/apidb_data.h"

const nfy__apidb_family *nfy__apidb_fam(nfy__apidb_fam_id f)
{
    return &nfy__apidb_families[f];
}

const char *nfy__apidb_str(uint32_t off)
{
    return nfy__apidb_pool + off;
}

const char *nfy__apidb_field(const nfy__apidb_row *r, uint32_t i)
{
    if (i >= r->nfields)
        return NULL;
    return nfy__apidb_str(nfy__apidb_fields[r->fields + i]);
}

const char *nfy__apidb_field_opt(const nfy__apidb_row *r, uint32_t i)
{
    const char *s = nfy__apidb_field(r, i);
    if (!s || !s[0] || strcmp(s, "-") == 0)
        return NULL;
    return s;
}

const nfy_apidb_version *nfy__apidb_or_default(const nfy_apidb_version *v)
{
    return v ? v : nfy_apidb_version_default();
}

/* ---- Labels ------------------------------------------------------------ */

typedef struct {
    unsigned major, minor;
    bool master;
    bool ok;
} minor_version;

/* "2.7.1" -> 2.7; "master" -> newest of all; "" -> not a version. */
static minor_version parse_label(const char *s)
{
    minor_version mv = {0, 0, false, false};
    if (*s == 'm' && strcmp(s, "master") == 0) {
        mv.master = mv.ok = true;
        return mv;
    }
    if (*s < '0' || *s > '9')
        return mv;
    for (; *s >= '0' && *s <= '9'; s++)
        mv.major = mv.major * 10 + (unsigned)(*s - '0');
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            mv.minor = mv.minor * 10 + (unsigned)(*s - '0');
    mv.ok = true;
    return mv;
}

/* <0, 0, >0 like strcmp; master is greater than any number. */
static int minor_cmp(minor_version a, minor_version b)
{
    if (a.master || b.master)
        return (int)a.master - (int)b.master;
    if (a.major != b.major)
        return a.major < b.major ? -1 : 1;
    if (a.minor != b.minor)
        return a.minor < b.minor ? -1 : 1;
    return 0;
}

int nfy__apidb_label_exact(const nfy__apidb_family *f,
                           const nfy_apidb_version *v)
{
    minor_version want = parse_label(v->name);
    for (uint32_t i = 0; i < f->nlabels; i++) {
        minor_version have = parse_label(nfy__apidb_str(f->labels[i]));
        if (have.ok && !have.master && minor_cmp(have, want) == 0)
            return (int)i;
    }
    return -1;
}

int nfy__apidb_label_nearest(const nfy__apidb_family *f,
                             const nfy_apidb_version *v)
{
    minor_version want = parse_label(v->name);
    int best = -1, last_numbered = -1, master = -1;
    for (uint32_t i = 0; i < f->nlabels; i++) {
        minor_version have = parse_label(nfy__apidb_str(f->labels[i]));
        if (!have.ok)
            return (int)i; /* an unversioned family: its only file */
        if (have.master) {
            master = (int)i;
            continue;
        }
        last_numbered = (int)i;
        if (minor_cmp(have, want) <= 0)
            best = (int)i;
    }
    if (last_numbered < 0)
        return master; /* only a master file (or an empty family: -1) */
    if (master >= 0 && best == last_numbered) {
        minor_version newest =
            parse_label(nfy__apidb_str(f->labels[last_numbered]));
        if (minor_cmp(newest, want) < 0)
            return master;
    }
    return best >= 0 ? best : 0;
}

/* ---- Searching --------------------------------------------------------- */

/* The sign of memcmp over the common length, then shorter first; in one
 * pass over key (no strlen of it: most keys differ in their first bytes). */
static int key_cmp(const char *key, nfy_str s)
{
    for (size_t i = 0; i < s.len; i++) {
        unsigned char k = (unsigned char)key[i];
        if (k == '\0')
            return -1; /* a prefix of s (or s holds a NUL there) */
        if (k != (unsigned char)s.ptr[i])
            return k < (unsigned char)s.ptr[i] ? -1 : 1;
    }
    return key[s.len] != '\0';
}

static const nfy__apidb_row *row_at(const nfy__apidb_family *f, uint32_t i)
{
    return &nfy__apidb_rows[f->first_row + i];
}

/* key_cmp knowing that key and s agree on their first `from` bytes; *lcp
 * gets the length they agree on. */
static int key_cmp_from(const char *key, nfy_str s, size_t from, size_t *lcp)
{
    size_t i = from;
    for (; i < s.len; i++) {
        unsigned char k = (unsigned char)key[i];
        if (k == '\0' || k != (unsigned char)s.ptr[i]) {
            *lcp = i; /* a key ending here is a prefix of s: less */
            return k == '\0' || k < (unsigned char)s.ptr[i] ? -1 : 1;
        }
    }
    *lcp = i;
    return key[s.len] != '\0';
}

/*
 * Binary search that skips the prefix s shares with both bounds: every
 * key between two sorted keys has the prefix they have in common, so the
 * bytes of "torch.nn.functional." are compared once, not at every step.
 */
uint32_t nfy__apidb_lower_bound(const nfy__apidb_family *f, nfy_str s)
{
    uint32_t lo = 0, hi = f->nrows;
    size_t lcp_lo = 0, lcp_hi = 0; /* with the keys at lo - 1 and at hi */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        size_t lcp;
        size_t from = lcp_lo < lcp_hi ? lcp_lo : lcp_hi;
        if (key_cmp_from(nfy__apidb_str(row_at(f, mid)->key), s, from, &lcp) <
            0) {
            lo = mid + 1;
            lcp_lo = lcp;
        } else {
            hi = mid;
            lcp_hi = lcp;
        }
    }
    return lo;
}

bool nfy__apidb_has_label(const nfy__apidb_row *r, int label)
{
    return label >= 0 && label < 32 && (r->mask >> label) & 1u;
}

size_t nfy__apidb_find(const nfy__apidb_family *f, nfy_str key, uint32_t *first,
                       uint32_t *end)
{
    uint32_t i = f->sorted ? nfy__apidb_lower_bound(f, key) : 0, j = i;
    if (f->sorted) {
        while (j < f->nrows &&
               key_cmp(nfy__apidb_str(row_at(f, j)->key), key) == 0)
            j++;
    } else {
        /* tables keep file order: the first run of equal keys */
        while (i < f->nrows &&
               key_cmp(nfy__apidb_str(row_at(f, i)->key), key) != 0)
            i++;
        for (j = i; j < f->nrows &&
                    key_cmp(nfy__apidb_str(row_at(f, j)->key), key) == 0;)
            j++;
    }
    *first = i;
    *end = j;
    return j - i;
}

const nfy__apidb_row *nfy__apidb_find_in(const nfy__apidb_family *f,
                                         nfy_str key, int label)
{
    uint32_t i, end;
    nfy__apidb_find(f, key, &i, &end);
    for (; i < end; i++)
        if (nfy__apidb_has_label(row_at(f, i), label))
            return row_at(f, i);
    return NULL;
}

const nfy__apidb_row *nfy__apidb_find_base(const nfy__apidb_family *f,
                                           nfy_str base, int label)
{
    if (base.len == 0)
        return NULL;
    for (uint32_t i = nfy__apidb_lower_bound(f, base); i < f->nrows; i++) {
        const nfy__apidb_row *r = row_at(f, i);
        const char *key = nfy__apidb_str(r->key);
        if (strncmp(key, base.ptr, base.len) != 0 || strlen(key) < base.len)
            break;
        char next = key[base.len];
        if (next != '\0' && next != '.')
            break; /* '.' sorts before every name character */
        if (nfy__apidb_has_label(r, label))
            return r;
    }
    return NULL;
}
