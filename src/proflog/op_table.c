/*
 * The operator model: rows from either reader aggregated by printed name.
 * Calls and times add up over rows (shape groups, tables, ranks); each
 * distinct Input Shapes text is kept with the first step it appeared in;
 * the steps an op appears in are kept sorted. A small open-addressing hash
 * finds an op by name; ops stay in first-seen order until sorted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proflog/op_internal.h"

/* Word-at-a-time (hot: once or twice per row; FNV-1a byte by byte showed
 * in profiles). Only used in memory. */
static uint64_t fast_hash(nfy_str s)
{
    return nfy_str_hash_words(s);
}

void nfy_prof_table_init(nfy_prof_table *t)
{
    memset(t, 0, sizeof *t);
    nfy_arena_init(&t->arena);
}

void nfy_prof_table_release(nfy_prof_table *t)
{
    for (size_t i = 0; i < t->ops.len; i++) {
        nfy_vec_free(&t->ops.items[i].shapes);
        free(t->ops.items[i].shape_index);
        nfy_vec_free(&t->ops.items[i].sites);
        nfy_vec_free(&t->ops.items[i].steps);
        nfy_vec_free(&t->ops.items[i].shape_steps);
    }
    nfy_vec_free(&t->ops);
    nfy_vec_free(&t->steps);
    free(t->index);
    free(t->site_index);
    nfy_arena_release(&t->arena);
    memset(t, 0, sizeof *t);
}

static void rehash(nfy_prof_table *t)
{
    size_t cap = t->index_cap ? t->index_cap * 2 : 256;
    while (cap < t->ops.len * 2)
        cap *= 2;
    uint32_t *idx = calloc(cap, sizeof *idx);
    if (!idx) {
        fputs("npuify: out of memory\n", stderr);
        abort();
    }
    for (size_t i = 0; i < t->ops.len; i++) {
        size_t h = fast_hash(t->ops.items[i].name) & (cap - 1);
        while (idx[h])
            h = (h + 1) & (cap - 1);
        idx[h] = (uint32_t)(i + 1);
    }
    free(t->index);
    t->index = idx;
    t->index_cap = cap;
}

nfy_prof_op *nfy_prof_table_find(nfy_prof_table *t, nfy_str name)
{
    if (!t->index_cap)
        return NULL;
    size_t h = fast_hash(name) & (t->index_cap - 1);
    while (t->index[h]) {
        nfy_prof_op *op = &t->ops.items[t->index[h] - 1];
        if (nfy_str_eq(op->name, name))
            return op;
        h = (h + 1) & (t->index_cap - 1);
    }
    return NULL;
}

static nfy_prof_op *intern(nfy_prof_table *t, const nfy_prof_row *row)
{
    nfy_prof_op *op = nfy_prof_table_find(t, row->name);
    if (op)
        return op;
    nfy_prof_op fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.name = nfy_arena_str(&t->arena, row->name);
    fresh.full_name = fresh.name;
    fresh.overload = nfy_arena_str(&t->arena, row->overload);
    fresh.kind = nfy_prof_classify(row->name);
    fresh.first_step = NFY_PROF_STEP_NONE;
    fresh.first_line = row->line;
    nfy_vec_push(&t->ops, fresh);
    if (t->ops.len * 2 > t->index_cap)
        rehash(t);
    else {
        size_t h = fast_hash(fresh.name) & (t->index_cap - 1);
        while (t->index[h])
            h = (h + 1) & (t->index_cap - 1);
        t->index[h] = (uint32_t)t->ops.len;
    }
    return nfy_vec_last(&t->ops);
}

/* Insert step into a sorted unique vector: usually an append; ranks number
 * their steps independently, so a binary search finds the other places. */
static void add_step(nfy_prof_step_vec *v, int32_t step)
{
    if (step < 0 || (v->len && v->items[v->len - 1] == step))
        return;
    size_t lo = 0, hi = v->len;
    if (v->len && v->items[v->len - 1] < step)
        lo = v->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->items[mid] < step)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < v->len && v->items[lo] == step)
        return;
    nfy_vec_reserve(v, 1);
    memmove(v->items + lo + 1, v->items + lo, (v->len - lo) * sizeof *v->items);
    v->items[lo] = step;
    v->len++;
}

/* Few shapes: a scan from the end (newest repeat likeliest) is fastest.
 * Past SHAPE_SCAN_MAX an op gets a hash index over its shapes, so N
 * distinct shapes cost O(N), not O(N^2) (aten::empty in a long trace). */
enum { SHAPE_SCAN_MAX = 16 };

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fputs("npuify: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void shape_slot_put(uint32_t *idx, size_t cap, uint64_t h, size_t i)
{
    size_t k = h & (cap - 1);
    while (idx[k])
        k = (k + 1) & (cap - 1);
    idx[k] = (uint32_t)(i + 1);
}

static void shape_rehash(nfy_prof_op *op)
{
    size_t cap = op->shape_index_cap ? op->shape_index_cap * 2 : 64;
    while (cap < op->shapes.len * 2)
        cap *= 2;
    uint32_t *idx = zalloc(cap, sizeof *idx);
    for (size_t i = 0; i < op->shapes.len; i++)
        shape_slot_put(idx, cap, op->shapes.items[i].hash, i);
    free(op->shape_index);
    op->shape_index = idx;
    op->shape_index_cap = cap;
}

static nfy_prof_shape *find_shape(nfy_prof_op *op, nfy_str text, uint64_t h)
{
    if (op->shape_index) {
        size_t cap = op->shape_index_cap;
        for (size_t k = h & (cap - 1); op->shape_index[k];
             k = (k + 1) & (cap - 1)) {
            nfy_prof_shape *s = &op->shapes.items[op->shape_index[k] - 1];
            if (s->hash == h && nfy_str_eq(s->text, text))
                return s;
        }
        return NULL;
    }
    for (size_t i = op->shapes.len; i > 0; i--) {
        nfy_prof_shape *s = &op->shapes.items[i - 1];
        if (s->hash == h && nfy_str_eq(s->text, text))
            return s;
    }
    return NULL;
}

static void add_shape(nfy_prof_table *t, nfy_prof_op *op,
                      const nfy_prof_row *row, int64_t calls)
{
    uint64_t h = fast_hash(row->shapes);
    nfy_prof_shape *s = find_shape(op, row->shapes, h);
    if (s) {
        s->calls += calls;
        if (row->step >= 0 && (s->first_step < 0 || row->step < s->first_step))
            s->first_step = row->step;
        return;
    }
    nfy_prof_shape fresh = {nfy_arena_str(&t->arena, row->shapes), h, calls,
                            row->step >= 0 ? row->step : NFY_PROF_STEP_NONE,
                            (row->flags & NFY_PROW_SHAPES_TRUNCATED) != 0};
    nfy_vec_push(&op->shapes, fresh);
    if (op->shape_index && op->shapes.len * 2 <= op->shape_index_cap)
        shape_slot_put(op->shape_index, op->shape_index_cap, h,
                       op->shapes.len - 1);
    else if (op->shapes.len > SHAPE_SCAN_MAX)
        shape_rehash(op);
}

void nfy_prof_table_add(nfy_prof_table *t, const nfy_prof_row *row)
{
    if (!row->name.len)
        return;
    nfy_prof_op *op = intern(t, row);
    int64_t calls = row->calls >= 0 ? row->calls : 1;
    op->calls += calls;
    for (int d = 0; d < NFY_PDEV__COUNT; d++) {
        if (!isnan(row->self_us[d]))
            op->self_us[d] += row->self_us[d];
        if (!isnan(row->total_us[d]))
            op->total_us[d] += row->total_us[d];
    }
    if (!op->overload.len && row->overload.len)
        op->overload = nfy_arena_str(&t->arena, row->overload);
    op->flags |= row->flags;
    if (row->source_loc.len) {
        double self = 0;
        for (int d = 0; d < NFY_PDEV__COUNT; d++)
            if (!isnan(row->self_us[d]))
                self += row->self_us[d];
        nfy__prof_add_site(t, op, row->source_loc, calls, self);
    }
    if (row->rank >= 0 && row->rank < 32)
        op->ranks |= 1u << row->rank;
    if (row->step >= 0 && (op->first_step < 0 || row->step < op->first_step))
        op->first_step = row->step;
    add_step(&op->steps, row->step);
    add_step(&t->steps, row->step);
    if (row->flags & NFY_PROW_HAS_SHAPES) {
        t->any_shapes = true;
        add_step(&op->shape_steps, row->step);
        add_shape(t, op, row, calls);
    }
    if (!t->accel_name[0] && row->accel_name.len &&
        row->accel_name.len < sizeof t->accel_name) {
        memcpy(t->accel_name, row->accel_name.ptr, row->accel_name.len);
        t->accel_name[row->accel_name.len] = '\0';
    }
    t->rows++;
}

int nfy_prof_table_sink(void *ctx, const nfy_prof_row *row)
{
    nfy_prof_table_add(ctx, row);
    return 0;
}

static bool has_step(const nfy_prof_step_vec *v, int32_t s)
{
    for (size_t i = 0; i < v->len; i++)
        if (v->items[i] == s)
            return true;
    return false;
}

/* Whether the rows compared hold a step other than ref: with one step (a
 * single table) or none (a trace without markers) steps cannot be told
 * apart. */
static bool steps_to_compare(const nfy_prof_table *t, bool shaped, int32_t ref)
{
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_step_vec *v =
            shaped ? &t->ops.items[i].shape_steps : &t->ops.items[i].steps;
        if (v->len > 1 || (v->len == 1 && v->items[0] != ref))
            return true;
    }
    return false;
}

void nfy_prof_table_dynamic(nfy_prof_table *t, int32_t ref)
{
    bool shaped = t->any_shapes;
    if (ref < 0) { /* first step with data of the kind compared */
        for (size_t i = 0; i < t->ops.len; i++) {
            const nfy_prof_step_vec *v =
                shaped ? &t->ops.items[i].shape_steps : &t->ops.items[i].steps;
            if (v->len && (ref < 0 || v->items[0] < ref))
                ref = v->items[0];
        }
    }
    bool comparable = steps_to_compare(t, shaped, ref);
    t->steps_apart = comparable;
    for (size_t i = 0; i < t->ops.len; i++) {
        nfy_prof_op *op = &t->ops.items[i];
        const nfy_prof_step_vec *v = shaped ? &op->shape_steps : &op->steps;
        op->dyn = NFY_PDYN_STATIC;
        if (!comparable) {
            if (op->kind != NFY_PKIND_STEP && op->shapes.len > 1)
                op->dyn = NFY_PDYN_POSSIBLE;
            continue;
        }
        if (ref < 0 || op->kind == NFY_PKIND_STEP || !v->len ||
            v->items[v->len - 1] <= ref)
            continue;
        if (!has_step(v, ref)) {
            op->dyn = NFY_PDYN_NEW_LATER;
            continue;
        }
        for (size_t k = 0; k < op->shapes.len; k++)
            if (op->shapes.items[k].first_step > ref)
                op->dyn = NFY_PDYN_SHAPE_CHANGED;
    }
}

static double weight(const nfy_prof_op *op)
{
    return op->self_us[NFY_PDEV_CPU] + op->self_us[NFY_PDEV_ACCEL];
}

static int cmp_ops(const void *pa, const void *pb)
{
    const nfy_prof_op *a = pa, *b = pb;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    double wa = weight(a), wb = weight(b);
    if (wa != wb)
        return wa > wb ? -1 : 1;
    if (a->calls != b->calls)
        return a->calls > b->calls ? -1 : 1;
    return nfy_str_cmp(a->name, b->name);
}

void nfy_prof_table_sort(nfy_prof_table *t)
{
    if (t->ops.len > 1)
        qsort(t->ops.items, t->ops.len, sizeof *t->ops.items, cmp_ops);
    free(t->index);
    t->index = NULL;
    t->index_cap = 0;
    rehash(t);
}
