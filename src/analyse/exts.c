/*
 * The operator names a project's C++/CUDA sources define for Python, read
 * from the registration macros (no C++ parser: the macros have one shape):
 *   PYBIND11_MODULE(MOD, VAR) { ... VAR.def("NAME", ...) ... }
 *     -> "MOD.NAME" and "?.NAME" (any module: for cpp_extension.load)
 *   TORCH_LIBRARY(NS, VAR) / TORCH_LIBRARY_FRAGMENT / TORCH_LIBRARY_IMPL
 *     { VAR.def("NAME(...) -> ...") / VAR.impl("NAME", ...) }
 *     -> "NS::NAME"
 * Comments and the insides of other string literals are skipped. A name is
 * a CUDA operator when its file is a .cu/.cuh or names CUDA at all (the
 * module then needs a CUDA build), or when CUDA sources lie in a
 * subdirectory of its directory (what it dispatches to); else plain C++.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/an_internal.h"

void nfy_analyse_exts_init(nfy_analyse_exts *x)
{
    memset(x, 0, sizeof *x);
    nfy_arena_init(&x->arena);
}

void nfy_analyse_exts_release(nfy_analyse_exts *x)
{
    free(x->names);
    free(x->where);
    free(x->cuda);
    free(x->cu_files);
    nfy_arena_release(&x->arena);
    memset(x, 0, sizeof *x);
}

static void add_name(nfy_analyse_exts *x, const char *key, const char *where,
                     bool cuda)
{
    if (x->len == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        nfy_str *n = realloc(x->names, cap * sizeof *n);
        const char **w = n ? realloc(x->where, cap * sizeof *w) : NULL;
        bool *c = w ? realloc(x->cuda, cap * sizeof *c) : NULL;
        if (n == NULL || w == NULL || c == NULL)
            abort(); /* out of memory, as the arena does */
        x->names = n;
        x->where = w;
        x->cuda = c;
        x->cap = cap;
    }
    x->names[x->len] = nfy_str_from_cstr(nfy_arena_strdup(&x->arena, key));
    x->cuda[x->len] = cuda;
    x->where[x->len++] = nfy_arena_strdup(&x->arena, where);
}

static bool ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_';
}

static size_t skip_blank(nfy_str s, size_t i)
{
    while (i < s.len && (s.ptr[i] == ' ' || s.ptr[i] == '\t' ||
                         s.ptr[i] == '\n' || s.ptr[i] == '\r'))
        i++;
    return i;
}

static nfy_str ident_at(nfy_str s, size_t *i)
{
    *i = skip_blank(s, *i);
    size_t b = *i;
    while (*i < s.len && ident_char(s.ptr[*i]))
        (*i)++;
    return (nfy_str){s.ptr + b, *i - b};
}

/* End of the brace block starting at the first '{' from i (or s.len). */
static size_t block_end(nfy_str s, size_t i, size_t *open)
{
    while (i < s.len && s.ptr[i] != '{' && s.ptr[i] != ';')
        i++;
    *open = i;
    int depth = 0;
    for (; i < s.len; i++) {
        if (s.ptr[i] == '{')
            depth++;
        else if (s.ptr[i] == '}' && --depth == 0)
            return i;
        else if (s.ptr[i] == '"') /* a string: skip it */
            for (i++; i < s.len && s.ptr[i] != '"'; i++)
                i += s.ptr[i] == '\\';
    }
    return s.len;
}

static uint32_t line_at(nfy_str s, size_t off)
{
    uint32_t line = 1;
    for (size_t i = 0; i < off && i < s.len; i++)
        line += s.ptr[i] == '\n';
    return line;
}

typedef struct {
    nfy_analyse_exts *x;
    nfy_str text;
    const char *rel;
    bool cuda; /* the file has CUDA code */
} scan;

/* Each VAR.def("NAME / VAR.impl("NAME in [b, e): key from fmt. */
static void registrations(scan *sc, size_t b, size_t e, nfy_str var,
                          nfy_str mod, bool library)
{
    nfy_str s = sc->text;
    for (size_t i = b; i + var.len + 5 < e; i++) {
        if ((i > 0 && ident_char(s.ptr[i - 1])) ||
            memcmp(s.ptr + i, var.ptr, var.len) != 0 ||
            s.ptr[i + var.len] != '.')
            continue;
        size_t j = i + var.len + 1;
        nfy_str verb = ident_at(s, &j);
        if (!nfy_str_eq_cstr(verb, "def") &&
            !(library && nfy_str_eq_cstr(verb, "impl")))
            continue;
        j = skip_blank(s, j);
        if (j >= e || s.ptr[j] != '(')
            continue;
        j = skip_blank(s, j + 1);
        if (j >= e || s.ptr[j] != '"')
            continue;
        j++;
        nfy_str name = ident_at(s, &j);
        if (name.len == 0)
            continue;
        char where[512];
        snprintf(where, sizeof where, "%s:%u", sc->rel, line_at(s, i));
        char key[512];
        snprintf(key, sizeof key, library ? "%.*s::%.*s" : "%.*s.%.*s",
                 (int)mod.len, mod.ptr, (int)name.len, name.ptr);
        add_name(sc->x, key, where, sc->cuda);
        if (!library) {
            snprintf(key, sizeof key, "?.%.*s", (int)name.len, name.ptr);
            add_name(sc->x, key, where, sc->cuda);
        }
    }
}

static void macro_blocks(scan *sc, const char *macro, bool library,
                         bool has_key)
{
    nfy_str s = sc->text;
    size_t mlen = strlen(macro);
    for (size_t i = 0; i + mlen < s.len; i++) {
        if ((i > 0 && ident_char(s.ptr[i - 1])) ||
            memcmp(s.ptr + i, macro, mlen) != 0)
            continue;
        size_t j = skip_blank(s, i + mlen);
        if (j >= s.len || s.ptr[j] != '(')
            continue;
        j++;
        nfy_str mod = ident_at(s, &j);
        j = skip_blank(s, j);
        if (has_key && j < s.len && s.ptr[j] == ',') {
            j++;
            (void)ident_at(s, &j);
            j = skip_blank(s, j);
        }
        if (mod.len == 0 || j >= s.len || s.ptr[j] != ',')
            continue;
        j++;
        nfy_str var = ident_at(s, &j);
        size_t open, end = block_end(s, j, &open);
        if (var.len > 0 && open < s.len && s.ptr[open] == '{')
            registrations(sc, open, end, var, mod, library);
        i = open;
    }
}

static int key_cmp(const void *a, const void *b)
{
    const nfy_str *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->ptr, y->ptr, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Sort names (with their locations) and keep the first of equal ones. */
static void sort_unique(nfy_analyse_exts *x)
{
    for (size_t i = 1; i < x->len; i++) /* insertion sort: few names */
        for (size_t j = i; j > 0 && key_cmp(&x->names[j - 1], &x->names[j]) > 0;
             j--) {
            nfy_str t = x->names[j];
            x->names[j] = x->names[j - 1];
            x->names[j - 1] = t;
            const char *w = x->where[j];
            x->where[j] = x->where[j - 1];
            x->where[j - 1] = w;
            bool c = x->cuda[j];
            x->cuda[j] = x->cuda[j - 1];
            x->cuda[j - 1] = c;
        }
    size_t out = 0;
    for (size_t i = 0; i < x->len; i++)
        if (out == 0 || key_cmp(&x->names[out - 1], &x->names[i]) != 0) {
            x->names[out] = x->names[i];
            x->cuda[out] = x->cuda[i];
            x->where[out++] = x->where[i];
        }
    x->len = out;
}

/* CUDA code: a .cu/.cuh file, or one that names CUDA ("cuda", "CUDA":
 * headers, guards, checks, #ifdef WITH_CUDA). */
static bool is_cu_name(const char *rel);

static bool has_cuda(nfy_str text, const char *rel)
{
    if (is_cu_name(rel))
        return true;
    return nfy_str_contains(text, NFY_STR_LIT("cuda")) ||
           nfy_str_contains(text, NFY_STR_LIT("CUDA"));
}

static bool is_cu_name(const char *rel)
{
    size_t n = strlen(rel);
    return (n > 3 && strcmp(rel + n - 3, ".cu") == 0) ||
           (n > 4 && strcmp(rel + n - 4, ".cuh") == 0);
}

static void add_cu_file(nfy_analyse_exts *x, const char *rel)
{
    if (x->ncu == x->cu_cap) {
        size_t cap = x->cu_cap ? 2 * x->cu_cap : 16;
        const char **f = realloc(x->cu_files, cap * sizeof *f);
        if (f == NULL)
            abort(); /* out of memory, as the arena does */
        x->cu_files = f;
        x->cu_cap = cap;
    }
    x->cu_files[x->ncu++] = nfy_arena_strdup(&x->arena, rel);
}

/* Whether a .cu/.cuh lies in a subdirectory of the directory of where
 * ("csrc/vision.cpp:12": csrc/nms/nms_cuda.cu, not csrc/other.cu: a CPU
 * extension often sits next to a CUDA one). */
static bool cu_below(const nfy_analyse_exts *x, const char *where)
{
    const char *slash = strrchr(where, '/');
    size_t dir = slash ? (size_t)(slash - where) + 1 : 0;
    for (size_t i = 0; i < x->ncu; i++)
        if (strncmp(x->cu_files[i], where, dir) == 0 &&
            strchr(x->cu_files[i] + dir, '/') != NULL)
            return true;
    return false;
}

void nfy_analyse_exts_scan(nfy_analyse_exts *x, const nfy_source *src,
                           const char *relpath)
{
    nfy_str text = {src->data, src->len};
    if (is_cu_name(relpath))
        add_cu_file(x, relpath);
    scan sc = {x, text, relpath, has_cuda(text, relpath)};
    macro_blocks(&sc, "PYBIND11_MODULE", false, false);
    macro_blocks(&sc, "TORCH_LIBRARY", true, false);
    macro_blocks(&sc, "TORCH_LIBRARY_FRAGMENT", true, false);
    macro_blocks(&sc, "TORCH_LIBRARY_IMPL", true, true);
    sort_unique(x);
}

const char *nfy_analyse_exts_find(const nfy_analyse_exts *x, nfy_str name,
                                  bool *cuda)
{
    if (x == NULL || x->len == 0)
        return NULL;
    const nfy_str *hit =
        bsearch(&name, x->names, x->len, sizeof *x->names, key_cmp);
    if (hit && cuda)
        *cuda =
            x->cuda[hit - x->names] || cu_below(x, x->where[hit - x->names]);
    return hit ? x->where[hit - x->names] : NULL;
}
