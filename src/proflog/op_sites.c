/*
 * Source sites of operators (with_stack profiles): which frame of the
 * user's code each op's calls came from. The profiler prints frames as
 * "model.py(9): forward"; torch's own frames and markers are skipped so
 * the first frame left is the user's. Site texts are interned once per
 * table, and each op keeps at most NFY_PROF_SITES_MAX of them, so memory
 * stays bounded by the distinct frames, not by the rows.
 */
#include <stdlib.h>
#include <string.h>

#include "proflog/op_internal.h"

static nfy_str trim(nfy_str s)
{
    while (s.len && (s.ptr[0] == ' ' || s.ptr[0] == '\t'))
        s.ptr++, s.len--;
    while (s.len && (s.ptr[s.len - 1] == ' ' || s.ptr[s.len - 1] == '\t' ||
                     s.ptr[s.len - 1] == '\r'))
        s.len--;
    return s;
}

static bool path_is_torch(nfy_str path)
{
    return nfy_str_starts_with(path, NFY_STR_LIT("torch/")) ||
           nfy_str_contains(path, NFY_STR_LIT("/torch/"));
}

bool nfy_prof_frame_is_user(nfy_str f)
{
    f = trim(f);
    if (!f.len || f.ptr[0] == '<' ||
        nfy_str_starts_with(f, NFY_STR_LIT("nn.Module:")))
        return false;
    /* "path(line): function": the path is what precedes the last "(" */
    size_t open = f.len;
    for (size_t i = 0; i < f.len; i++)
        if (f.ptr[i] == '(')
            open = i;
    if (open == f.len || open == 0)
        return false;
    return !path_is_torch((nfy_str){f.ptr, open});
}

nfy_str nfy_prof_first_user_frame(nfy_str frames, char sep)
{
    size_t i = 0;
    while (i < frames.len) {
        size_t j = i;
        while (j < frames.len && frames.ptr[j] != sep)
            j++;
        nfy_str f = trim((nfy_str){frames.ptr + i, j - i});
        if (nfy_prof_frame_is_user(f))
            return f;
        i = j + 1;
    }
    return NFY_STR_LIT("");
}

static uint64_t site_hash(nfy_str s)
{
    return nfy_str_hash(s);
}

static void site_rehash(nfy_prof_table *t)
{
    size_t cap = t->site_cap ? t->site_cap * 2 : 64;
    nfy_str *idx = calloc(cap, sizeof *idx);
    if (!idx) {
        fputs("npuify: out of memory\n", stderr);
        abort();
    }
    for (size_t i = 0; i < t->site_cap; i++) {
        if (!t->site_index[i].ptr)
            continue;
        size_t k = site_hash(t->site_index[i]) & (cap - 1);
        while (idx[k].ptr)
            k = (k + 1) & (cap - 1);
        idx[k] = t->site_index[i];
    }
    free(t->site_index);
    t->site_index = idx;
    t->site_cap = cap;
}

/* The table's one copy of text (pointer-comparable). */
static nfy_str intern_site(nfy_prof_table *t, nfy_str text)
{
    if ((t->nsites + 1) * 2 > t->site_cap)
        site_rehash(t);
    size_t k = site_hash(text) & (t->site_cap - 1);
    while (t->site_index[k].ptr) {
        if (nfy_str_eq(t->site_index[k], text))
            return t->site_index[k];
        k = (k + 1) & (t->site_cap - 1);
    }
    t->site_index[k] = nfy_arena_str(&t->arena, text);
    t->nsites++;
    return t->site_index[k];
}

void nfy__prof_add_site(nfy_prof_table *t, nfy_prof_op *op, nfy_str frame,
                        int64_t calls, double self_us)
{
    if (!frame.len || !nfy_prof_frame_is_user(frame))
        return;
    frame = trim(frame);
    for (size_t i = 0; i < op->sites.len; i++) {
        nfy_prof_site *s = &op->sites.items[i];
        if (nfy_str_eq(s->text, frame)) {
            s->calls += calls;
            s->self_us += self_us;
            return;
        }
    }
    if (op->sites.len == NFY_PROF_SITES_MAX) { /* nothing kept past it */
        op->other_site_calls += calls;
        return;
    }
    nfy_prof_site s = {intern_site(t, frame), calls, self_us, NULL, 0};
    nfy_vec_push(&op->sites, s);
}

void nfy_prof_site_parts(nfy_str frame, nfy_str *file, uint32_t *line,
                         nfy_str *func)
{
    *file = frame;
    *line = 0;
    *func = NFY_STR_LIT("");
    size_t open = frame.len;
    for (size_t i = 0; i < frame.len; i++)
        if (frame.ptr[i] == '(')
            open = i;
    if (open == frame.len)
        return;
    size_t i = open + 1;
    uint32_t n = 0;
    while (i < frame.len && frame.ptr[i] >= '0' && frame.ptr[i] <= '9' &&
           n < 100000000u)
        n = n * 10 + (uint32_t)(frame.ptr[i++] - '0');
    if (i >= frame.len || frame.ptr[i] != ')')
        return;
    *file = (nfy_str){frame.ptr, open};
    *line = n;
    i++;
    if (i < frame.len && frame.ptr[i] == ':')
        i++;
    *func = trim((nfy_str){frame.ptr + i, frame.len - i});
}

void nfy_prof_op_sites_by_calls(const nfy_prof_op *op, size_t *order)
{
    for (size_t i = 0; i < op->sites.len; i++)
        order[i] = i;
    for (size_t i = 1; i < op->sites.len; i++) { /* insertion: <= 32 */
        size_t v = order[i], j = i;
        while (j > 0 &&
               op->sites.items[order[j - 1]].calls < op->sites.items[v].calls) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
}
