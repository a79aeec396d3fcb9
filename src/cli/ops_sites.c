/*
 * `npuify ops`: each with_stack site joined to the calls in the user's
 * source that can dispatch its operator (src/analyse/op_calls.c). A frame
 * names a file as the profiled process saw it (absolute, or relative to
 * where it ran); it is read as named, else under --source DIR (the path,
 * then its shorter and shorter tails), so a profile taken elsewhere still
 * finds the project. Each file is parsed once, whatever the number of
 * frames naming it; a file that cannot be read leaves its sites as the
 * profiler named them.
 */
#include "cli/ops_sites.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyse/analyse.h"

enum { CALLS_PER_SITE = 8 };

typedef struct {
    nfy_str name; /* the frame's file text */
    nfy_an_pyfile *f;
} file_slot;

typedef NFY_VEC(file_slot) file_slots;

static bool readable(const char *p)
{
    return access(p, R_OK) == 0;
}

/* The file a frame's path names, or NULL. */
static const char *locate(nfy_str file, const char *root, nfy_arena *a)
{
    const char *p = nfy_arena_strndup(a, file.ptr, file.len);
    if (readable(p))
        return p;
    if (!root || p[0] == '\0')
        return NULL;
    for (const char *tail = p; tail; tail = strchr(tail, '/')) {
        while (*tail == '/')
            tail++;
        if (!*tail)
            break;
        const char *q = nfy_path_join(a, root, tail);
        if (readable(q))
            return q;
    }
    return NULL;
}

static nfy_an_pyfile *file_of(file_slots *files, nfy_str name, const char *root,
                              nfy_arena *a)
{
    for (size_t i = 0; i < files->len; i++)
        if (nfy_str_eq(files->items[i].name, name))
            return files->items[i].f;
    const char *path = locate(name, root, a);
    file_slot s = {name, path ? nfy_analyse_pyfile_open(path) : NULL};
    nfy_vec_push(files, s);
    return s.f;
}

static void join_site(nfy_prof_site *s, nfy_str op, file_slots *files,
                      const char *root, nfy_arena *a)
{
    nfy_str file, func;
    uint32_t line;
    nfy_prof_site_parts(s->text, &file, &line, &func);
    if (!line)
        return;
    nfy_an_pyfile *f = file_of(files, file, root, a);
    if (!f)
        return;
    nfy_an_op_call c[CALLS_PER_SITE];
    size_t n =
        nfy_analyse_pyfile_op_calls(f, line, func, op, a, c, CALLS_PER_SITE);
    if (!n)
        return;
    nfy_prof_call *out = nfy_arena_calloc(a, n, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = (nfy_prof_call){c[i].line, c[i].col, c[i].api, c[i].where};
    s->in_source = out;
    s->nin_source = (uint32_t)n;
}

void nfy_cli_ops_sites_in_source(nfy_prof_table *t, const char *root,
                                 nfy_arena *a)
{
    file_slots files = {0};
    for (size_t i = 0; i < t->ops.len; i++) {
        nfy_prof_op *op = &t->ops.items[i];
        for (size_t k = 0; k < op->sites.len; k++)
            join_site(&op->sites.items[k], op->full_name, &files, root, a);
    }
    for (size_t i = 0; i < files.len; i++)
        nfy_analyse_pyfile_close(files.items[i].f);
    nfy_vec_free(&files);
}
