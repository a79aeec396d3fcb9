/*
 * The project's own modules (migrate.h nfy_migrate_modules): the dotted
 * names a tree's .py files make importable, so that an import of the
 * project's own package is never taken for a third-party library of the
 * same name (mmcv's tree importing mmcv.ops, a test importing a helper
 * named require_cuda). Which directory is the import root is not known
 * (src/ layouts, scripts run from a subdirectory), so each directory that
 * is not a regular package counts as one; a directory without __init__.py
 * is no module of its own (benchmarks/transformer_engine/ holds scripts,
 * it does not shadow the library).
 */
#include <stdlib.h>
#include <string.h>

#include "migrate/migrate.h"

void nfy_mig_modules_init(nfy_migrate_modules *m)
{
    memset(m, 0, sizeof *m);
    nfy_arena_init(&m->arena);
}

void nfy_mig_modules_release(nfy_migrate_modules *m)
{
    nfy_vec_free(&m->items);
    nfy_vec_free(&m->paths);
    nfy_arena_release(&m->arena);
    memset(m, 0, sizeof *m);
}

/* Components [from, to) of a path (comp/len) as a dotted name. */
static void add_range(nfy_migrate_modules *m, const char *const *comp,
                      const size_t *len, size_t from, size_t to, bool file)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        n += len[i] + 1;
    char *s = nfy_arena_alloc(&m->arena, n);
    char *p = s;
    for (size_t i = from; i < to; i++) {
        memcpy(p, comp[i], len[i]);
        p += len[i];
        *p++ = i + 1 < to ? '.' : '\0';
    }
    nfy_vec_push(&m->items, ((nfy_migrate_module){s, file}));
}

enum { MODULE_DEPTH_MAX = 32 };

void nfy_mig_modules_add(nfy_migrate_modules *m, const char *relpath)
{
    size_t n = strlen(relpath);
    if (n >= 4 && strcmp(relpath + n - 3, ".py") == 0)
        nfy_vec_push(&m->paths, nfy_arena_strndup(&m->arena, relpath, n));
}

static int by_path(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Is the directory of the first n bytes of a path a regular package (its
 * __init__.py among the sorted paths)? */
static bool is_package(nfy_migrate_modules *m, const char *dir, size_t n)
{
    char *key = nfy_arena_alloc(&m->arena, n + sizeof "/__init__.py");
    memcpy(key, dir, n);
    memcpy(key + n, "/__init__.py", sizeof "/__init__.py");
    return bsearch(&key, m->paths.items, m->paths.len, sizeof *m->paths.items,
                   by_path) != NULL;
}

/* The names of one .py file: from each directory that can be an import
 * root (the tree's root, or a directory that is no regular package: a
 * package's subdirectory is reached through the package), the file's
 * module, or for __init__.py its package. */
static void add_file(nfy_migrate_modules *m, const char *path)
{
    const char *comp[MODULE_DEPTH_MAX];
    size_t len[MODULE_DEPTH_MAX], k = 0;
    for (const char *p = path; *p && k < MODULE_DEPTH_MAX;) {
        size_t l = strcspn(p, "/");
        if (l > 0)
            comp[k] = p, len[k++] = l;
        p += l + (p[l] == '/');
    }
    if (k == 0 || len[k - 1] <= 3)
        return;
    len[k - 1] -= 3; /* the stem */
    bool init = len[k - 1] == 8 && memcmp(comp[k - 1], "__init__", 8) == 0;
    for (size_t from = 0; from + (init ? 1 : 0) < k; from++) {
        if (from > 0 &&
            is_package(m, path,
                       (size_t)(comp[from - 1] + len[from - 1] - path)))
            continue;
        add_range(m, comp, len, from, init ? k - 1 : k, !init);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const nfy_migrate_module *)a)->name,
                  ((const nfy_migrate_module *)b)->name);
}

void nfy_mig_modules_finish(nfy_migrate_modules *m)
{
    if (m->paths.len == 0)
        return; /* no .py file: no modules (and no array to sort) */
    qsort(m->paths.items, m->paths.len, sizeof *m->paths.items, by_path);
    for (size_t i = 0; i < m->paths.len; i++)
        add_file(m, m->paths.items[i]);
    if (m->items.len == 0)
        return;
    qsort(m->items.items, m->items.len, sizeof *m->items.items, by_name);
    size_t k = 0;
    for (size_t i = 0; i < m->items.len; i++) {
        nfy_migrate_module *x = &m->items.items[i];
        if (k > 0 && strcmp(m->items.items[k - 1].name, x->name) == 0) {
            m->items.items[k - 1].file |= x->file; /* x.py beside x/ */
            continue;
        }
        m->items.items[k++] = *x;
    }
    m->items.len = k;
}
/* strcmp of q (not NUL-terminated) with s. */
static int cmp_q(nfy_str q, const char *s)
{
    size_t n = strlen(s);
    int c = memcmp(q.ptr, s, q.len < n ? q.len : n);
    return c != 0 ? c : q.len < n ? -1 : q.len > n;
}

const nfy_migrate_module *nfy_mig_module_find(const nfy_migrate_modules *m,
                                              nfy_str q)
{
    if (m == NULL || q.len == 0)
        return NULL;
    size_t lo = 0, hi = m->items.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_q(q, m->items.items[mid].name);
        if (c == 0)
            return &m->items.items[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}
