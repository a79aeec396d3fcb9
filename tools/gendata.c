/*
 * gendata: turn the support data under data/ into C tables for src/apidb.
 *
 *   gendata DATADIR OUT.c
 *
 * Each data set ("family", see the table below) is either one file or one
 * file per data version, named PREFIX<label>SUFFIX (label "2.1", "v2.1",
 * "2.7.1" or "master"). Files are text: '#' lines are the source header,
 * other lines are rows of TAB-separated columns. The output holds one pool
 * of unique NUL-terminated strings, the rows of every family (sorted by key
 * unless the family is a table kept in file order; equal rows of several
 * versions merged into one row with a bit mask of labels), the field
 * offsets, the family descriptors and the list of shipped torch_npu
 * versions (the labels of aten_ops_v*.txt, with the tag named in their
 * headers). The layout is src/apidb/apidb_data.h. Output is deterministic:
 * it depends only on the file contents and names.
 *
 * A build tool, not part of libnpuify: it exits non-zero with a
 * file:line message on bad input, and it is simple rather than clever.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LABELS 32
#define MAX_COLS   8

typedef struct {
    const char *id;     /* family name, also in the output */
    const char *dir;    /* sub-directory of DATADIR */
    const char *prefix; /* file name (unversioned) or prefix (versioned) */
    const char *suffix; /* NULL: unversioned */
    bool sorted;        /* false: a table in file order */
    int key_col;
    int cols[MAX_COLS]; /* columns kept as fields, -1 ends; ALL = every other */
    bool strip_class;   /* key "x (class)" -> "x", plus a field "1"/"" */
} family_spec;

#define ALL (-2)
#define END (-1)

/* Order must match nfy__apidb_fam in src/apidb/apidb_data.h. */
static const family_spec FAMILIES[] = {
    {"aten_ops", "npu", "aten_ops_v", ".txt", true, 0, {END}, false},
    {"aten_cpu_fallback",
     "npu",
     "aten_cpu_fallback_v",
     ".txt",
     true,
     0,
     {END},
     false},
    {"aten_unsupported",
     "npu",
     "aten_unsupported_v",
     ".txt",
     true,
     0,
     {END},
     false},
    {"npu_custom_ops",
     "npu",
     "npu_custom_ops_v",
     ".txt",
     true,
     0,
     {END},
     false},
    {"npu_public_ops",
     "npu",
     "npu_public_ops_v",
     ".txt",
     true,
     0,
     {END},
     false},
    {"npu_module",
     "npu",
     "torch_npu_npu_module_v",
     ".txt",
     true,
     0,
     {END},
     false},
    {"transfer_wrapped",
     "npu",
     "transfer_to_npu_device_wrapped_",
     ".txt",
     true,
     0,
     {END},
     false},
    {"torch_api_supported",
     "npu",
     "torch_api_supported_v",
     ".tsv",
     true,
     0,
     {1, END},
     false},
    {"torch_api_unsupported",
     "npu",
     "torch_api_unsupported_v",
     ".txt",
     true,
     0,
     {END},
     false},
    {"native_api",
     "npu",
     "torch_native_api_support_v",
     ".tsv",
     true,
     1,
     {2, 3, 4, 5, END},
     true},
    {"torch_ops",
     "torch",
     "native_functions_v",
     ".tsv",
     true,
     0,
     {1, END},
     false},
    {"npu_apis", "npu", "torch_npu_apis.txt", NULL, true, 0, {END}, false},
    {"npu_apis_beta",
     "npu",
     "torch_npu_apis_beta.txt",
     NULL,
     true,
     0,
     {END},
     false},
    {"msft_rename",
     "npu",
     "msfmktransplt_func_rename.tsv",
     NULL,
     true,
     0,
     {1, END},
     false},
    {"affinity",
     "npu",
     "msfmktransplt_affinity_apis.tsv",
     NULL,
     false,
     0,
     {ALL},
     false},
    {"msft_rules",
     "npu",
     "msfmktransplt_common_rules.tsv",
     NULL,
     false,
     0,
     {ALL},
     false},
    {"cpp_apis",
     "npu",
     "cpp_npu_api_cuda_equivalents.tsv",
     NULL,
     false,
     0,
     {1, END},
     false},
    {"backend_ops",
     "npu",
     "backend_ops.tsv",
     NULL,
     true,
     0,
     {1, 2, END},
     false},
    {"notes_en",
     "npu",
     "restriction_notes_en.tsv",
     NULL,
     true,
     0,
     {1, 2, END},
     false},
    {"restriction_effects",
     "npu",
     "restriction_effects.tsv",
     NULL,
     true,
     0,
     {1, 2, 3, END},
     false},
    {"torch_inventory",
     "torch",
     "api_inventory_v",
     ".tsv",
     true,
     0,
     {1, 2, END},
     false},
};
#define NFAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

/* ---- Errors and memory ------------------------------------------------- */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gendata: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die("out of memory");
    return q;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xrealloc(NULL, n);
    memcpy(d, s, n);
    return d;
}

/* ---- String pool: unique strings, open-addressing hash ----------------- */

typedef struct {
    char *bytes;
    size_t len, cap;
    uint32_t *slots; /* offset + 1, 0 = empty */
    size_t nslots, used;
} pool;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static void pool_rehash(pool *p)
{
    size_t n = p->nslots ? p->nslots * 2 : 4096;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        die("out of memory");
    for (size_t i = 0; i < p->nslots; i++) {
        if (!p->slots[i])
            continue;
        size_t j = hash_str(p->bytes + p->slots[i] - 1) & (n - 1);
        while (slots[j])
            j = (j + 1) & (n - 1);
        slots[j] = p->slots[i];
    }
    free(p->slots);
    p->slots = slots;
    p->nslots = n;
}

static uint32_t pool_add(pool *p, const char *s)
{
    if ((p->used + 1) * 2 > p->nslots)
        pool_rehash(p);
    size_t j = hash_str(s) & (p->nslots - 1);
    while (p->slots[j]) {
        if (strcmp(p->bytes + p->slots[j] - 1, s) == 0)
            return p->slots[j] - 1;
        j = (j + 1) & (p->nslots - 1);
    }
    size_t n = strlen(s) + 1;
    if (p->len + n > UINT32_MAX - 1)
        die("string pool too large");
    if (p->len + n > p->cap) {
        p->cap = (p->len + n) * 2;
        p->bytes = xrealloc(p->bytes, p->cap);
    }
    memcpy(p->bytes + p->len, s, n);
    uint32_t off = (uint32_t)p->len;
    p->len += n;
    p->slots[j] = off + 1;
    p->used++;
    return off;
}

/* ---- Rows --------------------------------------------------------------- */

typedef struct {
    uint32_t key;
    uint32_t mask;
    uint32_t nfields;
    uint32_t fields[MAX_COLS];
    size_t order; /* file order, for a stable sort */
} row;

typedef struct {
    row *items;
    size_t len, cap;
} row_vec;

static void rows_push(row_vec *v, const row *r)
{
    if (v->len == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 1024;
        v->items = xrealloc(v->items, v->cap * sizeof *v->items);
    }
    v->items[v->len++] = *r;
}

/* ---- Labels ------------------------------------------------------------- */

/* Version order: numbered labels by their numbers, "master" after them. */
static int label_cmp(const char *a, const char *b)
{
    bool am = strcmp(a, "master") == 0, bm = strcmp(b, "master") == 0;
    if (am || bm)
        return (int)am - (int)bm;
    while (*a || *b) {
        unsigned long x = strtoul(a, (char **)&a, 10);
        unsigned long y = strtoul(b, (char **)&b, 10);
        if (x != y)
            return x < y ? -1 : 1;
        if (*a == '.')
            a++;
        if (*b == '.')
            b++;
        if (!*a || !*b)
            return (int)(*a != 0) - (int)(*b != 0);
    }
    return 0;
}

static bool label_ok(const char *s)
{
    if (strcmp(s, "master") == 0)
        return true;
    if (!*s || *s == '.')
        return false;
    for (; *s; s++)
        if (!(*s == '.' || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

typedef struct {
    char *label;
    char *file;
} labelled_file;

static int labelled_cmp(const void *a, const void *b)
{
    return label_cmp(((const labelled_file *)a)->label,
                     ((const labelled_file *)b)->label);
}

/* The files of a versioned family, oldest label first. */
static size_t list_versioned(const char *dir, const family_spec *fs,
                             labelled_file *out)
{
    DIR *d = opendir(dir);
    if (!d)
        die("%s: %s", dir, strerror(errno));
    size_t n = 0, lp = strlen(fs->prefix), ls = strlen(fs->suffix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= lp + ls || strncmp(e->d_name, fs->prefix, lp) != 0 ||
            strcmp(e->d_name + len - ls, fs->suffix) != 0)
            continue;
        char label[64];
        size_t ll = len - lp - ls;
        const char *mid = e->d_name + lp;
        if (ll >= sizeof label)
            continue;
        memcpy(label, mid, ll);
        label[ll] = '\0';
        const char *lab = label[0] == 'v' ? label + 1 : label;
        if (!label_ok(lab))
            continue; /* e.g. torch_npu_apis_beta for prefix torch_npu_apis */
        if (n == MAX_LABELS)
            die("%s: more than %d versions of %s", dir, MAX_LABELS, fs->id);
        out[n].label = xstrdup(lab);
        size_t fl = strlen(dir) + 1 + len + 1;
        out[n].file = xrealloc(NULL, fl);
        snprintf(out[n].file, fl, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(out, n, sizeof *out, labelled_cmp);
    for (size_t i = 1; i < n; i++)
        if (label_cmp(out[i - 1].label, out[i].label) == 0)
            die("%s: two files for version %s of %s", dir, out[i].label,
                fs->id);
    return n;
}

/* ---- Reading one file --------------------------------------------------- */

typedef struct {
    char *tag; /* torch_npu tag from the header, "" if none */
} file_meta;

/* "(tag V7.2.0.1-pytorch2.1.0; ..." -> "V7.2.0.1-pytorch2.1.0" */
static void header_tag(const char *line, file_meta *meta)
{
    const char *t = strstr(line, "(tag ");
    if (!t || meta->tag[0])
        return;
    t += 5;
    size_t n = strcspn(t, ";) \t");
    free(meta->tag);
    meta->tag = xrealloc(NULL, n + 1);
    memcpy(meta->tag, t, n);
    meta->tag[n] = '\0';
}

static size_t split_tabs(char *line, char **cols)
{
    size_t n = 0;
    for (;;) {
        if (n == MAX_COLS + 1)
            return n;
        cols[n++] = line;
        char *tab = strchr(line, '\t');
        if (!tab)
            return n;
        *tab = '\0';
        line = tab + 1;
    }
}

static void strip_eol(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* Key " (class)" suffix: strip it and return true. */
static bool strip_class_suffix(char *key)
{
    static const char sfx[] = " (class)";
    size_t n = strlen(key), m = sizeof sfx - 1;
    if (n > m && strcmp(key + n - m, sfx) == 0) {
        key[n - m] = '\0';
        return true;
    }
    return false;
}

static void row_fields(const family_spec *fs, pool *p, char **cols,
                       size_t ncols, const char *path, size_t lineno, row *r)
{
    r->nfields = 0;
    if (fs->cols[0] == ALL) {
        for (size_t c = 0; c < ncols; c++) {
            if ((int)c == fs->key_col)
                continue;
            if (r->nfields == MAX_COLS)
                die("%s:%zu: too many columns", path, lineno);
            r->fields[r->nfields++] = pool_add(p, cols[c]);
        }
        return;
    }
    for (size_t i = 0; i < MAX_COLS && fs->cols[i] != END; i++) {
        size_t c = (size_t)fs->cols[i];
        r->fields[r->nfields++] = pool_add(p, c < ncols ? cols[c] : "");
    }
}

static void read_file(const family_spec *fs, const char *path, int label,
                      pool *p, row_vec *rows, file_meta *meta)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: %s", path, strerror(errno));
    char *line = NULL, *cols[MAX_COLS + 1];
    size_t cap = 0, lineno = 0;
    while (getline(&line, &cap, f) != -1) {
        lineno++;
        strip_eol(line);
        if (line[0] == '#') {
            header_tag(line, meta);
            continue;
        }
        if (line[0] == '\0')
            continue;
        size_t ncols = split_tabs(line, cols);
        if (ncols > MAX_COLS || (size_t)fs->key_col >= ncols)
            die("%s:%zu: expected a key in column %d (of at most %d)", path,
                lineno, fs->key_col + 1, MAX_COLS);
        row r = {0};
        char *key = cols[fs->key_col];
        bool is_class = fs->strip_class && strip_class_suffix(key);
        if (!key[0])
            die("%s:%zu: empty key", path, lineno);
        r.key = pool_add(p, key);
        r.mask = (uint32_t)1 << label;
        row_fields(fs, p, cols, ncols, path, lineno, &r);
        if (fs->strip_class)
            r.fields[r.nfields++] = pool_add(p, is_class ? "1" : "");
        r.order = rows->len;
        rows_push(rows, &r);
    }
    if (ferror(f))
        die("%s: read error", path);
    free(line);
    fclose(f);
}

/* ---- Sorting and merging ------------------------------------------------ */

static const char *g_pool_bytes; /* qsort has no context argument */

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c = strcmp(g_pool_bytes + x->key, g_pool_bytes + y->key);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static bool same_fields(const row *a, const row *b)
{
    return a->nfields == b->nfields &&
           memcmp(a->fields, b->fields, a->nfields * sizeof a->fields[0]) == 0;
}

/* Sort by key, then merge rows with equal key and fields into one mask. */
static void sort_merge(row_vec *v, const pool *p)
{
    g_pool_bytes = p->bytes;
    qsort(v->items, v->len, sizeof *v->items, row_cmp);
    size_t out = 0, group = 0;
    for (size_t i = 0; i < v->len; i++) {
        row *r = &v->items[i];
        if (out && v->items[out - 1].key != r->key)
            group = out;
        bool merged = false;
        for (size_t j = group; j < out; j++) {
            if (v->items[j].key == r->key && same_fields(&v->items[j], r)) {
                v->items[j].mask |= r->mask;
                merged = true;
                break;
            }
        }
        if (!merged)
            v->items[out++] = *r;
    }
    v->len = out;
}

/* ---- Output ------------------------------------------------------------- */

static void emit_pool(FILE *o, const pool *p)
{
    fputs("const char nfy__apidb_pool[] =\n\"", o);
    size_t col = 0;
    for (size_t i = 0; i < p->len; i++) {
        unsigned char c = (unsigned char)p->bytes[i];
        if (c == '"' || c == '\\' || c == '?')
            col += (size_t)fprintf(o, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f)
            col += (size_t)fprintf(o, "%c", c);
        else
            col += (size_t)fprintf(o, "\\%03o", c);
        if (c == 0 || col >= 76) {
            fputs("\"\n\"", o);
            col = 0;
        }
    }
    fputs("\";\n\n", o);
}

typedef struct {
    const family_spec *spec;
    row_vec rows;
    size_t nlabels;
    uint32_t labels[MAX_LABELS];
    size_t first_row;
} family_out;

static void emit_rows(FILE *o, family_out *fam, size_t nfam)
{
    size_t nfield = 0, nrow = 0;
    fputs("const nfy__apidb_row nfy__apidb_rows[] = {\n", o);
    for (size_t f = 0; f < nfam; f++) {
        fam[f].first_row = nrow;
        fprintf(o, "    /* %s */\n", fam[f].spec->id);
        for (size_t i = 0; i < fam[f].rows.len; i++, nrow++) {
            const row *r = &fam[f].rows.items[i];
            fprintf(o, "    {%u, 0x%x, %zu, %u},\n", r->key, r->mask, nfield,
                    r->nfields);
            nfield += r->nfields;
        }
    }
    fputs("    {0, 0, 0, 0}\n};\n\n", o);
    fputs("const uint32_t nfy__apidb_fields[] = {\n", o);
    for (size_t f = 0; f < nfam; f++)
        for (size_t i = 0; i < fam[f].rows.len; i++)
            for (uint32_t k = 0; k < fam[f].rows.items[i].nfields; k++)
                fprintf(o, "%u,%s", fam[f].rows.items[i].fields[k],
                        (k + 1) % 8 ? "" : "\n");
    fputs("0\n};\n\n", o);
}

static void emit_families(FILE *o, const family_out *fam, size_t nfam)
{
    fputs("const nfy__apidb_family nfy__apidb_families[] = {\n", o);
    for (size_t f = 0; f < nfam; f++) {
        fprintf(o, "    {\"%s\", %s, %zu, %zu, %zu, {", fam[f].spec->id,
                fam[f].spec->sorted ? "true" : "false", fam[f].first_row,
                fam[f].rows.len, fam[f].nlabels);
        for (size_t l = 0; l < fam[f].nlabels; l++)
            fprintf(o, "%s%u", l ? ", " : "", fam[f].labels[l]);
        fputs("}},\n", o);
    }
    fprintf(o, "};\nconst size_t nfy__apidb_family_count = %zu;\n\n", nfam);
}

static bool is_beta(const char *tag)
{
    for (const char *s = tag; *s; s++)
        if (strncmp(s, "beta", 4) == 0 || strncmp(s, "BETA", 4) == 0)
            return true;
    return false;
}

/* ---- Main --------------------------------------------------------------- */

static void load_family(const char *datadir, const family_spec *fs, pool *p,
                        family_out *out, char **tags)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", datadir, fs->dir);
    out->spec = fs;
    labelled_file files[MAX_LABELS];
    size_t n;
    if (fs->suffix) {
        n = list_versioned(dir, fs, files);
        if (n == 0)
            die("%s: no files %s*%s", dir, fs->prefix, fs->suffix);
    } else {
        n = 1;
        files[0].label = xstrdup("");
        size_t fl = strlen(dir) + strlen(fs->prefix) + 2;
        files[0].file = xrealloc(NULL, fl);
        snprintf(files[0].file, fl, "%s/%s", dir, fs->prefix);
    }
    out->nlabels = n;
    for (size_t i = 0; i < n; i++) {
        file_meta meta = {xstrdup("")};
        out->labels[i] = pool_add(p, files[i].label);
        read_file(fs, files[i].file, (int)i, p, &out->rows, &meta);
        if (tags)
            tags[i] = meta.tag;
        else
            free(meta.tag);
        free(files[i].label);
        free(files[i].file);
    }
    if (fs->sorted)
        sort_merge(&out->rows, p);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        die("usage: gendata DATADIR OUT.c");
    pool p = {0};
    pool_add(&p, ""); /* offset 0 is the empty string */
    family_out fam[NFAMILIES];
    memset(fam, 0, sizeof fam);
    char *tags[MAX_LABELS] = {0};
    for (size_t f = 0; f < NFAMILIES; f++)
        load_family(argv[1], &FAMILIES[f], &p, &fam[f], f == 0 ? tags : NULL);
    uint32_t tag_off[MAX_LABELS];
    for (size_t l = 0; l < fam[0].nlabels; l++)
        tag_off[l] = pool_add(&p, tags[l]);

    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
    FILE *o = fopen(tmp, "w");
    if (!o)
        die("%s: %s", tmp, strerror(errno));
    fputs("/* Generated by tools/gendata.c from data/ (see data/README.md)."
          " Do not edit. */\n#include \"apidb/apidb_data.h\"\n\n",
          o);
    emit_pool(o, &p);
    emit_rows(o, fam, NFAMILIES);
    emit_families(o, fam, NFAMILIES);
    /* versions: name and tag offsets */
    fputs("const nfy_apidb_version nfy__apidb_versions[] = {\n", o);
    for (size_t l = 0; l < fam[0].nlabels; l++)
        fprintf(o,
                "    {nfy__apidb_pool + %u, nfy__apidb_pool + %u, %s, %zu},\n",
                fam[0].labels[l], tag_off[l],
                is_beta(tags[l]) ? "true" : "false", l);
    fprintf(o, "};\nconst size_t nfy__apidb_version_count = %zu;\n",
            fam[0].nlabels);
    fputs("const char nfy__apidb_version_text[] = \"", o);
    for (size_t l = 0; l < fam[0].nlabels; l++)
        fprintf(o, "%s%s", l ? ", " : "", p.bytes + fam[0].labels[l]);
    fputs("\";\n", o);
    if (fclose(o) != 0 || rename(tmp, argv[2]) != 0)
        die("%s: %s", argv[2], strerror(errno));
    for (size_t l = 0; l < MAX_LABELS; l++)
        free(tags[l]);
    for (size_t f = 0; f < NFAMILIES; f++)
        free(fam[f].rows.items);
    free(p.bytes);
    free(p.slots);
    return 0;
}
