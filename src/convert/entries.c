/*
 * --mode auto: which Python files are entry scripts besides those with a
 * __main__ guard: the --main files, and the scripts that a launcher in the
 * tree runs (shell scripts and Dockerfiles: `python train.py`, `torchrun
 * --nproc_per_node 8 tools/train.py`, `python -m torch.distributed.launch
 * main.py`, `python -m pkg.train`, `deepspeed train.py`, `accelerate launch
 * train.py`). The result is a list of candidate relative paths; a name no
 * file has is harmless.
 */
#include <stdlib.h>
#include <string.h>

#include "convert/convert_internal.h"

typedef NFY_VEC(const char *) path_vec;

typedef struct {
    nfy_arena *a;
    path_vec *out;
} entry_scan;

static void add_path(entry_scan *s, nfy_str p)
{
    while (nfy_str_starts_with(p, NFY_STR_LIT("./")))
        p = nfy_str_slice(p, 2, p.len);
    if (p.len == 0)
        return;
    const char *c = nfy_arena_strndup(s->a, p.ptr, p.len);
    for (size_t i = 0; i < s->out->len; i++)
        if (strcmp(s->out->items[i], c) == 0)
            return;
    nfy_vec_push(s->out, c);
}

/* A script path as a launcher wrote it, made relative: "$ROOT/x/t.py" and
 * "/workspace/x/t.py" give every tail ("x/t.py", "t.py"); "t.py" next to
 * the launcher also as "dir/t.py". */
static void add_script(entry_scan *s, nfy_str dir, nfy_str p)
{
    bool rooted = p.len && (p.ptr[0] == '/' || p.ptr[0] == '$' ||
                            nfy_str_contains(p, NFY_STR_LIT("$")));
    if (!rooted) {
        add_path(s, p);
        if (dir.len)
            add_path(s,
                     nfy_str_from_cstr(nfy_arena_fmt(
                         s->a, "%.*s/%.*s", NFY_STR_FMT(dir), NFY_STR_FMT(p))));
        return;
    }
    for (size_t i = 0; i < p.len; i++)
        if (p.ptr[i] == '/' && i + 1 < p.len)
            add_path(s, nfy_str_slice(p, i + 1, p.len));
}

/* "pkg.train" -> "pkg/train.py" and "pkg/train/__main__.py". */
static void add_module(entry_scan *s, nfy_str mod)
{
    char *m = nfy_arena_strndup(s->a, mod.ptr, mod.len);
    for (char *q = m; *q; q++)
        if (*q == '.')
            *q = '/';
    add_path(s, nfy_str_from_cstr(nfy_arena_fmt(s->a, "%s.py", m)));
    add_path(s, nfy_str_from_cstr(nfy_arena_fmt(s->a, "%s/__main__.py", m)));
}

static bool word_char(char c)
{
    return c != ' ' && c != '\t' && c != ';' && c != '&' && c != '|' &&
           c != '(' && c != ')' && c != '\n' && c != '[' && c != ']' &&
           c != ',' && c != '"' && c != '\'' && c != '`';
}

/* The next word of line at *i (quotes and JSON-array punctuation dropped). */
static nfy_str next_word(nfy_str line, size_t *i)
{
    while (*i < line.len && !word_char(line.ptr[*i]))
        (*i)++;
    size_t start = *i;
    while (*i < line.len && word_char(line.ptr[*i]))
        (*i)++;
    return nfy_str_slice(line, start, *i);
}

static nfy_str base_name(nfy_str w)
{
    ptrdiff_t slash;
    while ((slash = nfy_str_find_char(w, '/')) >= 0)
        w = nfy_str_slice(w, (size_t)slash + 1, w.len);
    return w;
}

static bool is_launcher(nfy_str w)
{
    nfy_str b = base_name(w);
    if (nfy_str_starts_with(b, NFY_STR_LIT("python"))) {
        for (size_t i = 6; i < b.len; i++)
            if (!((b.ptr[i] >= '0' && b.ptr[i] <= '9') || b.ptr[i] == '.'))
                return false;
        return true;
    }
    return nfy_str_eq_cstr(b, "torchrun") || nfy_str_eq_cstr(b, "deepspeed") ||
           nfy_str_eq_cstr(b, "accelerate") || nfy_str_eq_cstr(b, "horovodrun");
}

/* A launcher module that runs a script given after it. */
static bool is_launch_module(nfy_str m)
{
    return nfy_str_starts_with(m, NFY_STR_LIT("torch.distributed.")) ||
           nfy_str_starts_with(m, NFY_STR_LIT("accelerate.")) ||
           nfy_str_eq_cstr(m, "deepspeed");
}

static void scan_line(entry_scan *s, nfy_str dir, nfy_str line)
{
    size_t i = 0;
    bool after_launcher = false;
    for (nfy_str w = next_word(line, &i); w.len; w = next_word(line, &i)) {
        if (!after_launcher) {
            after_launcher = is_launcher(w);
            continue;
        }
        if (nfy_str_eq_cstr(w, "-m")) {
            nfy_str m = next_word(line, &i);
            if (m.len && !is_launch_module(m)) {
                add_module(s, m);
                after_launcher = false;
            }
        } else if (nfy_str_ends_with(w, NFY_STR_LIT(".py"))) {
            add_script(s, dir, w);
            after_launcher = false;
        }
    }
}

static void scan_text(entry_scan *s, const char *rel, const char *text)
{
    const char *slash = strrchr(rel, '/');
    nfy_str dir = {rel, slash ? (size_t)(slash - rel) : 0};
    nfy_str all = nfy_str_from_cstr(text);
    size_t start = 0;
    for (size_t i = 0; i <= all.len; i++) {
        if (i == all.len || all.ptr[i] == '\n') {
            scan_line(s, dir, nfy_str_slice(all, start, i));
            start = i + 1;
        }
    }
}

static int on_file(void *ctx, const nfy_walk_entry *e)
{
    entry_scan *s = ctx;
    if (e->kind != NFY_WALK_FILE)
        return 0;
    const char *slash = strrchr(e->rel, '/');
    nfy_file_kind kind =
        nfy__convert_classify(slash ? slash + 1 : e->rel, "", 0);
    if (kind != NFY_FILE_KIND_SHELL && kind != NFY_FILE_KIND_DOCKERFILE)
        return 0;
    nfy_source src;
    if (nfy_source_load(&src, e->path, NFY__MAX_SCRIPT_BYTES) != NFY_OK)
        return 0; /* the conversion reports it */
    char *text = kind == NFY_FILE_KIND_SHELL ? nfy_mig_shell_text(&src)
                                             : nfy_mig_dockerfile_text(&src);
    if (text != NULL)
        scan_text(s, e->rel, text);
    free(text);
    nfy_source_release(&src);
    return 0;
}

/* "--main src/train.py" with src "src": "train.py". */
static nfy_str under_src(const char *src, const char *path)
{
    nfy_str p = nfy_str_from_cstr(path), root = nfy_str_from_cstr(src);
    while (root.len > 1 && root.ptr[root.len - 1] == '/')
        root.len--;
    if (nfy_str_starts_with(p, root) && p.len > root.len &&
        p.ptr[root.len] == '/')
        return nfy_str_slice(p, root.len + 1, p.len);
    return p;
}

const char *const *nfy__convert_auto_entries(const nfy_convert_opts *o,
                                             nfy_arena *a)
{
    path_vec out = {0};
    entry_scan s = {a, &out};
    for (size_t i = 0; o->main_files && o->main_files[i]; i++)
        add_path(&s, under_src(o->src, o->main_files[i]));
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names, o->dst};
    nfy_status st = nfy_walk(o->src, &wo, on_file, &s, NULL);
    (void)st; /* the conversion's own walk reports what is unreadable */
    const char **list = nfy_arena_calloc(a, out.len + 1, sizeof *list);
    for (size_t i = 0; i < out.len; i++)
        list[i] = out.items[i];
    nfy_vec_free(&out);
    return list;
}
