/*
 * Why the NPU run is slow: one finding per cause, each with the device
 * time it costs, its share of kernel time, the kernels and operator types
 * concerned (with dtypes), and the usual fix. Thresholds are in the table
 * below; a finding is made only when its evidence is in the profile.
 */
#include <math.h>

#include "npuprof/npuprof.h"

/* Kernels shorter than this are "small" (launch cost dominates). */
#define SMALL_KERNEL_US 10.0
/* A device gap at least this long is counted as a host stall. */
#define GAP_US 50.0
/* Idle share of the step span above which the run is host-bound. */
#define IDLE_SHARE 0.10
/* Optimizer kernels per step above which the optimizer is unfused. */
#define OPTIMIZER_PER_STEP 8

/* ---- per-(type, core, dtypes) sums ----------------------------------------
 */

typedef struct {
    NFY_VEC(nfy_npu_typesum) v;
    uint32_t *slots;
    size_t cap;
} typeagg;

static size_t slot_hash(const nfy_npu_kernel *k, size_t cap)
{
    uint64_t h = (uintptr_t)k->type.ptr * 0x9E3779B97F4A7C15u;
    h ^= (uintptr_t)k->dtypes.ptr * 0xC2B2AE3D27D4EB4Fu;
    h ^= (uint64_t)k->core * 0x165667B19E3779F9u;
    return (size_t)(h >> 17) & (cap - 1);
}

static bool same_key(const nfy_npu_typesum *t, const nfy_npu_kernel *k)
{
    return t->type.ptr == k->type.ptr && t->dtypes.ptr == k->dtypes.ptr &&
           t->core == k->core;
}

static void agg_add(typeagg *g, const nfy_npu_kernel *k)
{
    if ((g->v.len + 1) * 2 > g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        free(g->slots);
        g->slots = calloc(cap, sizeof *g->slots);
        if (!g->slots)
            abort();
        g->cap = cap;
        for (size_t i = 0; i < g->v.len; i++) {
            nfy_npu_kernel key = {.type = g->v.items[i].type,
                                  .dtypes = g->v.items[i].dtypes,
                                  .core = g->v.items[i].core};
            size_t j = slot_hash(&key, cap);
            while (g->slots[j])
                j = (j + 1) & (cap - 1);
            g->slots[j] = (uint32_t)i + 1;
        }
    }
    size_t j = slot_hash(k, g->cap);
    while (g->slots[j] && !same_key(&g->v.items[g->slots[j] - 1], k))
        j = (j + 1) & (g->cap - 1);
    if (!g->slots[j]) {
        nfy_npu_typesum t = {k->type, k->dtypes, k->shapes, k->core, 0, 0, 0};
        nfy_vec_push(&g->v, t);
        g->slots[j] = (uint32_t)g->v.len;
    }
    nfy_npu_typesum *t = &g->v.items[g->slots[j] - 1];
    t->count++;
    t->total_us += k->dur_us;
    if (k->dur_us > t->max_us)
        t->max_us = k->dur_us;
}

static int cmp_typesum(const void *a, const void *b)
{
    const nfy_npu_typesum *x = a, *y = b;
    if (x->total_us != y->total_us)
        return x->total_us > y->total_us ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    int c = nfy_str_cmp(x->type, y->type);
    return c ? c : nfy_str_cmp(x->dtypes, y->dtypes);
}

static int cmp_typesum_count(const void *a, const void *b)
{
    const nfy_npu_typesum *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return cmp_typesum(a, b);
}

static void agg_done(typeagg *g, bool by_count)
{
    free(g->slots);
    g->slots = NULL;
    if (g->v.len) /* qsort wants a non-NULL base */
        qsort(g->v.items, g->v.len, sizeof *g->v.items,
              by_count ? cmp_typesum_count : cmp_typesum);
}

/* "Cast (AI_CPU, INT64): 12 kernels, 3.40 ms; ..." for the first n. */
static char *list_types(nfy_arena *ar, const typeagg *g, size_t n)
{
    nfy_buf b = NFY_BUF_INIT;
    for (size_t i = 0; i < g->v.len && i < n; i++) {
        const nfy_npu_typesum *t = &g->v.items[i];
        (void)nfy_buf_addf(
            &b, "%s%.*s (%s%s%.*s): %lld %s, %.1f us", i ? "; " : "",
            NFY_STR_FMT(t->type), nfy_npuprof_core_name(t->core),
            t->dtypes.len ? ", " : "", NFY_STR_FMT(t->dtypes),
            (long long)t->count,
            nfy_plural((size_t)t->count, "kernel", "kernels"), t->total_us);
        if (t->shapes.len)
            (void)nfy_buf_addf(&b, ", shapes %.*s", NFY_STR_FMT(t->shapes));
    }
    char *s = nfy_arena_strdup(ar, b.data ? b.data : "");
    nfy_buf_release(&b);
    return s;
}

/* ---- predicates -----------------------------------------------------------
 */

/* One dtype token of a "FLOAT;FLOAT16" list is FP32. */
static bool has_fp32(nfy_str dt)
{
    size_t i = 0;
    while (i < dt.len) {
        size_t j = i;
        while (j < dt.len && dt.ptr[j] != ';' && dt.ptr[j] != ',')
            j++;
        nfy_str t = nfy_str_slice(dt, i, j);
        while (t.len && t.ptr[0] == ' ')
            t.ptr++, t.len--;
        (void)nfy_str_consume(&t, "DT_");
        if (nfy_str_eq_cstr(t, "FLOAT") || nfy_str_eq_cstr(t, "FLOAT32") ||
            nfy_str_eq_cstr(t, "float32") || nfy_str_eq_cstr(t, "float"))
            return true;
        i = j + 1;
    }
    return false;
}

static bool is_matrix_type(nfy_str t)
{
    return nfy_str_contains(t, NFY_STR_LIT("MatMul")) ||
           nfy_str_starts_with(t, NFY_STR_LIT("Conv2D")) ||
           nfy_str_starts_with(t, NFY_STR_LIT("Conv3D")) ||
           nfy_str_eq_cstr(t, "Convolution") || nfy_str_eq_cstr(t, "GEMM") ||
           nfy_str_eq_cstr(t, "Gemm");
}

static bool is_optimizer_type(nfy_str t)
{
    return nfy_str_starts_with(t, NFY_STR_LIT("ApplyAdam")) ||
           nfy_str_starts_with(t, NFY_STR_LIT("ApplyMomentum")) ||
           nfy_str_starts_with(t, NFY_STR_LIT("ApplyRMSProp")) ||
           nfy_str_starts_with(t, NFY_STR_LIT("ApplyAdagrad")) ||
           nfy_str_starts_with(t, NFY_STR_LIT("ApplyLamb"));
}

/* FP32 matrix work, or matrix work off the Cube (vector core, low MAC). */
static bool slow_matrix(const nfy_npu_kernel *k)
{
    if (!is_matrix_type(k->type) && !is_matrix_type(k->name))
        return false;
    return has_fp32(k->dtypes) || k->core == NFY_NCORE_AI_VECTOR ||
           (!isnan(k->mac_ratio) && k->mac_ratio < 0.2);
}

/* ---- findings -------------------------------------------------------------
 */

/* Each cause's code, title and usual fix, by kind. */
static const struct {
    const char *code, *title, *advice;
} causes[NFY_NFIND__COUNT] = {
    [NFY_NFIND_AI_CPU] =
        {"NPU801", "kernels fall back to the AI CPU",
         "AI_CPU tasks run on the NPU's control CPUs, far slower than the "
         "AI Core, and stall the stream around them. The usual causes are "
         "dtypes the AI Core kernel lacks (int64 or float64 inputs: Cast, "
         "ArgMax, Index, NonZero, Unique), dynamic output shapes, or an "
         "operator without an AI Core kernel in this CANN. Keep indices and "
         "masks int32 (or the tensor in float16/bfloat16), move the op out "
         "of the step, use the torch_npu fused API that replaces it, or "
         "upgrade CANN; `npuify db query OP` gives its NPU status."},
    [NFY_NFIND_FP32_MATMUL] =
        {"NPU802", "matrix work in FP32 or off the Cube units (no AMP)",
         "The Cube units do matrix multiplication in FP16/BF16 (and HF32); "
         "FP32 MatMul falls to slower paths or the vector units, and "
         "convolutions are forced to FP16 internally. Turn on mixed "
         "precision: with torch.autocast(device_type=\"npu\", "
         "dtype=torch.bfloat16) (or torch_npu.npu.amp with a GradScaler "
         "for float16), `npuify convert --amp` adds it; or allow HF32 for "
         "FP32 models (torch.npu.matmul.allow_hf32 = True, "
         "torch.npu.conv.allow_hf32 = True)."},
    [NFY_NFIND_HCCL] =
        {"NPU803", "communication (HCCL) share",
         "Collectives that do not overlap with computation add to every "
         "step. Let DDP overlap them with backward (bucket_cap_mb, "
         "gradient_as_bucket_view=True, no find_unused_parameters unless "
         "needed), communicate less often (gradient accumulation with "
         "no_sync()), and check the links (HCCL_BUFFSIZE, HCCL_INTRA_ROCE_"
         "ENABLE, ranks on one server first). A broadcast in the first "
         "step is DDP's one-off parameter sync, not steady-state cost."},
    [NFY_NFIND_HOST_BOUND] =
        {"NPU804", "host-bound: the device idles between kernels",
         "The device waits for the host to launch work. Set "
         "TASK_QUEUE_ENABLE=2 (or 1) so operator dispatch runs in a second "
         "thread, bind the "
         "process to cores (CPU_AFFINITY_CONF=1), remove host syncs from the "
         "step (.item(), .cpu(), .tolist(), printing tensors, "
         "torch.npu.synchronize()), give each step more work (batch size), "
         "and replace chains of small ops by fused torch_npu operators or "
         "graph mode (torchair)."},
    [NFY_NFIND_SMALL_KERNELS] =
        {"NPU805", "small-kernel storm: most kernels are shorter than 10 us",
         "Each kernel costs a launch on the host; thousands of tiny ones "
         "leave the device waiting. Use fused torch_npu operators where "
         "they exist (npu_rms_norm, npu_fusion_attention, "
         "npu_rotary_mul, npu_swiglu, fused optimizers), larger tensors "
         "per op (batch), fewer dtype casts and views, and "
         "TASK_QUEUE_ENABLE=2."},
    [NFY_NFIND_OPTIMIZER] =
        {"NPU806", "optimizer not fused: one update kernel per parameter",
         "The optimizer launches one small kernel per parameter tensor. "
         "Use torch_npu's fused optimizers (torch_npu.optim.NpuFusedAdamW, "
         "NpuFusedAdam, NpuFusedSGD, NpuFusedLamb: one kernel over the "
         "flattened parameters) or torch.optim.AdamW(..., foreach=True) "
         "where torch_npu supports it."},
};

static nfy_npu_finding *add(nfy_npu_analysis *a, nfy_npu_find_kind kind)
{
    nfy_npu_finding f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.code = causes[kind].code;
    f.title = causes[kind].title;
    f.advice = causes[kind].advice;
    f.sev = NFY_SEV_WARNING;
    nfy_vec_push(&a->items, f);
    return nfy_vec_last(&a->items);
}

static double share_of(const nfy_npu_analysis *a, double us)
{
    return a->kernel_us > 0 ? us / a->kernel_us : 0;
}

typedef bool (*kernel_pred)(const nfy_npu_kernel *k);

/* The kernels one finding is about: their types, total time and count. */
typedef struct {
    typeagg g;
    double us;
    int64_t n;
} kgroup;

/* The kernels pred picks, their types sorted by time (or by count). */
static void gather(const nfy_npu_profile *p, kernel_pred pred, bool by_count,
                   kgroup *k)
{
    memset(k, 0, sizeof *k);
    for (size_t i = 0; i < p->kernels.len; i++) {
        const nfy_npu_kernel *e = &p->kernels.items[i];
        if (!pred(e))
            continue;
        agg_add(&k->g, e);
        k->us += e->dur_us;
        k->n++;
    }
    agg_done(&k->g, by_count);
}

/* A finding about group k: its time, count, share and first five types. */
static nfy_npu_finding *add_group(nfy_npu_analysis *a, const kgroup *k,
                                  double share, nfy_npu_find_kind kind)
{
    nfy_npu_finding *f = add(a, kind);
    f->time_us = k->us;
    f->count = k->n;
    f->share = share;
    f->ops = list_types(&a->arena, &k->g, 5);
    return f;
}

static bool on_ai_cpu(const nfy_npu_kernel *k)
{
    return k->core == NFY_NCORE_AI_CPU;
}

static void find_ai_cpu(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    kgroup k;
    gather(p, on_ai_cpu, false, &k);
    if (k.n) {
        nfy_npu_finding *f =
            add_group(a, &k, share_of(a, k.us), NFY_NFIND_AI_CPU);
        f->sev = f->share >= 0.01 ? NFY_SEV_WARNING : NFY_SEV_NOTE;
        f->evidence = nfy_arena_fmt(
            &a->arena,
            "%lld AI_CPU kernels take %.1f us, %.1f%% of kernel time.",
            (long long)k.n, k.us, 100 * f->share);
    }
    nfy_vec_free(&k.g.v);
}

static bool is_matrix_kernel(const nfy_npu_kernel *k)
{
    return is_matrix_type(k->type) || is_matrix_type(k->name);
}

static void find_fp32_matrix(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    kgroup k, all;
    gather(p, slow_matrix, false, &k);
    gather(p, is_matrix_kernel, false, &all);
    if (k.n) {
        nfy_npu_finding *f =
            add_group(a, &k, share_of(a, k.us), NFY_NFIND_FP32_MATMUL);
        f->evidence = nfy_arena_fmt(
            &a->arena,
            "%lld of %lld matrix kernels (MatMul/BatchMatMul/Conv) run in "
            "FP32, "
            "on AI_VECTOR_CORE or with aic_mac_ratio < 0.2: %.1f us, %.1f%% of "
            "matrix time and %.1f%% of kernel time.",
            (long long)k.n, (long long)all.n, k.us,
            all.us > 0 ? 100 * k.us / all.us : 0, 100 * f->share);
    }
    nfy_vec_free(&k.g.v);
    nfy_vec_free(&all.g.v);
}

static bool is_comm(const nfy_npu_kernel *k)
{
    return k->core == NFY_NCORE_HCCL;
}

/* Communication time in the first step seen and per later step. */
static void comm_by_step(const nfy_npu_profile *p, int32_t *first,
                         double *first_us, double *later_us, int64_t *later_n,
                         int64_t *bcast)
{
    *first = NFY_NPU_STEP_NONE;
    *first_us = *later_us = 0;
    *later_n = *bcast = 0;
    for (size_t i = 0; i < p->kernels.len; i++) {
        const nfy_npu_kernel *k = &p->kernels.items[i];
        if (k->core == NFY_NCORE_HCCL && k->step >= 0 &&
            (*first < 0 || k->step < *first))
            *first = k->step;
    }
    int32_t last = *first;
    for (size_t i = 0; i < p->kernels.len; i++) {
        const nfy_npu_kernel *k = &p->kernels.items[i];
        if (k->core != NFY_NCORE_HCCL)
            continue;
        if (nfy_str_contains_ci(k->name, "broadcast") ||
            nfy_str_contains_ci(k->type, "broadcast"))
            (*bcast)++;
        if (k->step == *first)
            *first_us += k->dur_us;
        else if (k->step >= 0) {
            *later_us += k->dur_us;
            if (k->step > last)
                last = k->step;
        }
    }
    *later_n = *first >= 0 ? last - *first : 0;
}

static void find_hccl(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    kgroup k;
    gather(p, is_comm, false, &k);
    if (!k.n && p->tl.communication_us > 0)
        k.us = p->tl.communication_us; /* from Overlap Analysis */
    if (k.us > 0) {
        double base = a->kernel_us > 0 ? a->kernel_us : k.us;
        nfy_npu_finding *f = add_group(a, &k, k.us / base, NFY_NFIND_HCCL);
        f->sev = f->share >= 0.10 ? NFY_SEV_WARNING : NFY_SEV_NOTE;
        int32_t first;
        double first_us, later_us;
        int64_t later_n, bcast;
        comm_by_step(p, &first, &first_us, &later_us, &later_n, &bcast);
        nfy_buf b = NFY_BUF_INIT;
        (void)nfy_buf_addf(&b,
                           "%lld HCCL tasks take %.1f us, %.1f%% of kernel "
                           "time.",
                           (long long)k.n, k.us, 100 * f->share);
        if (first >= 0 && later_n > 0)
            (void)nfy_buf_addf(&b,
                               " Step %d (the first): %.1f us; later steps: "
                               "%.1f us per step.",
                               (int)first, first_us,
                               later_us / (double)later_n);
        if (bcast)
            (void)nfy_buf_addf(&b, " %lld broadcast task%s.", (long long)bcast,
                               bcast == 1 ? "" : "s");
        if (p->tl.overlap && p->tl.comm_not_overlapped_us > 0)
            (void)nfy_buf_addf(&b, " Not overlapped with computation: %.1f us.",
                               p->tl.comm_not_overlapped_us);
        f->evidence = nfy_arena_strdup(&a->arena, nfy_buf_cstr(&b));
        nfy_buf_release(&b);
    }
    nfy_vec_free(&k.g.v);
}

typedef struct {
    double start, end;
    int32_t step;
    uint32_t k; /* kernels index */
} span;

static int cmp_span(const void *x, const void *y)
{
    const span *a = x, *b = y;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Busy union, idle gaps inside each step (between steps the host may
 * legitimately load data), the largest gap and the kernels around it. */
typedef struct {
    double idle_us, span_us, busy_us, max_gap;
    int64_t gaps;
    uint32_t before, after; /* kernels around the largest gap */
} gap_stats;

static void measure_gaps(const nfy_npu_profile *p, gap_stats *g)
{
    memset(g, 0, sizeof *g);
    NFY_VEC(span) v = {0};
    for (size_t i = 0; i < p->kernels.len; i++) {
        const nfy_npu_kernel *k = &p->kernels.items[i];
        if (isfinite(k->start_us) && k->start_us != 0) {
            span s = {k->start_us, k->start_us + k->dur_us, k->step,
                      (uint32_t)i};
            nfy_vec_push(&v, s);
        }
    }
    if (v.len) /* qsort wants a non-NULL base */
        qsort(v.items, v.len, sizeof *v.items, cmp_span);
    size_t i = 0;
    while (i < v.len) {
        size_t j = i;
        double end = v.items[i].end, first = v.items[i].start;
        g->busy_us += v.items[i].end - v.items[i].start;
        for (j = i + 1; j < v.len && v.items[j].step == v.items[i].step; j++) {
            const span *s = &v.items[j];
            if (s->start > end) {
                double gap = s->start - end;
                g->idle_us += gap;
                g->gaps += gap >= GAP_US;
                if (gap > g->max_gap) {
                    g->max_gap = gap;
                    g->before = v.items[j - 1].k;
                    g->after = s->k;
                }
                g->busy_us += s->end - s->start;
                end = s->end;
            } else if (s->end > end) {
                g->busy_us += s->end - end;
                end = s->end;
            }
        }
        g->span_us += end - first;
        i = j;
    }
    nfy_vec_free(&v);
}

static void find_host_bound(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    gap_stats g;
    measure_gaps(p, &g);
    a->span_us = g.span_us;
    a->busy_us = g.busy_us;
    double idle_share = g.span_us > 0 ? g.idle_us / g.span_us : 0;
    double free_share = 0;
    if (p->tl.overlap) {
        double all =
            p->tl.computing_us + p->tl.comm_not_overlapped_us + p->tl.free_us;
        free_share = all > 0 ? p->tl.free_us / all : 0;
    }
    if (idle_share < IDLE_SHARE && free_share < IDLE_SHARE)
        return;
    nfy_npu_finding *f = add(a, NFY_NFIND_HOST_BOUND);
    f->time_us = g.idle_us > 0 ? g.idle_us : p->tl.free_us;
    f->share = idle_share > free_share ? idle_share : free_share;
    f->count = g.gaps;
    nfy_buf b = NFY_BUF_INIT;
    if (g.span_us > 0)
        (void)nfy_buf_addf(&b,
                           "Device idle %.1f us of %.1f us inside steps "
                           "(%.1f%%); %lld gaps of %.0f us or more.",
                           g.idle_us, g.span_us, 100 * idle_share,
                           (long long)g.gaps, GAP_US);
    if (g.max_gap > 0) {
        const nfy_npu_kernel *x = &p->kernels.items[g.before];
        const nfy_npu_kernel *y = &p->kernels.items[g.after];
        (void)nfy_buf_addf(&b, " Largest gap %.1f us, between %.*s and %.*s",
                           g.max_gap, NFY_STR_FMT(x->name),
                           NFY_STR_FMT(y->name));
        if (x->line && y->line)
            (void)nfy_buf_addf(&b, " (kernel_details.csv lines %u and %u)",
                               (unsigned)x->line, (unsigned)y->line);
        (void)nfy_buf_addch(&b, '.');
    }
    if (p->tl.overlap)
        (void)nfy_buf_addf(&b,
                           " Overlap Analysis: Free %.1f us, Computing "
                           "%.1f us.",
                           p->tl.free_us, p->tl.computing_us);
    if (p->tl.enqueue_n || p->tl.dequeue_n)
        (void)nfy_buf_addf(&b,
                           " Task queue: %lld Enqueue (%.1f us), %lld Dequeue "
                           "(%.1f us).",
                           (long long)p->tl.enqueue_n, p->tl.enqueue_us,
                           (long long)p->tl.dequeue_n, p->tl.dequeue_us);
    else if (p->src.trace_view)
        (void)nfy_buf_addstr(&b, " No Enqueue/Dequeue events: the task queue "
                                 "looks off (TASK_QUEUE_ENABLE=0).");
    f->evidence = nfy_arena_strdup(&a->arena, nfy_buf_cstr(&b));
    nfy_buf_release(&b);
}

static bool is_small(const nfy_npu_kernel *k)
{
    return k->dur_us < SMALL_KERNEL_US && k->core != NFY_NCORE_HCCL;
}

static void find_small_kernels(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    kgroup k;
    gather(p, is_small, true, &k);
    if (a->kernels >= 20 && k.n * 2 >= a->kernels) {
        nfy_npu_finding *f = add_group(a, &k, (double)k.n / (double)a->kernels,
                                       NFY_NFIND_SMALL_KERNELS);
        f->evidence = nfy_arena_fmt(
            &a->arena,
            "%lld of %lld kernels (%.1f%%) are shorter than %.0f us; they "
            "take %.1f us in all (%.1f%% of kernel time).",
            (long long)k.n, (long long)a->kernels, 100 * f->share,
            SMALL_KERNEL_US, k.us, 100 * share_of(a, k.us));
    }
    nfy_vec_free(&k.g.v);
}

static bool is_optimizer(const nfy_npu_kernel *k)
{
    return is_optimizer_type(k->type) || is_optimizer_type(k->name);
}

static void find_optimizer(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    kgroup k;
    gather(p, is_optimizer, false, &k);
    int64_t steps = a->steps > 0 ? a->steps : 1;
    if (k.n / steps >= OPTIMIZER_PER_STEP) {
        nfy_npu_finding *f =
            add_group(a, &k, share_of(a, k.us), NFY_NFIND_OPTIMIZER);
        f->evidence = nfy_arena_fmt(
            &a->arena,
            "%lld optimizer kernels (%.1f per step over %lld step%s), %.1f us, "
            "%.1f%% of kernel time; mean %.1f us each.",
            (long long)k.n, (double)k.n / (double)steps, (long long)steps,
            steps == 1 ? "" : "s", k.us, 100 * f->share, k.us / (double)k.n);
    }
    nfy_vec_free(&k.g.v);
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return a < b ? -1 : a > b;
}

static void totals(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    typeagg g = {0};
    NFY_VEC(int32_t) steps = {0};
    for (size_t i = 0; i < p->kernels.len; i++) {
        const nfy_npu_kernel *k = &p->kernels.items[i];
        a->kernel_us += k->dur_us;
        a->core_us[k->core] += k->dur_us;
        agg_add(&g, k);
        if (k->step >= 0 && (!steps.len || *nfy_vec_last(&steps) != k->step))
            nfy_vec_push(&steps, k->step);
    }
    a->kernels = (int64_t)p->kernels.len;
    if (steps.len) /* qsort wants a non-NULL base */
        qsort(steps.items, steps.len, sizeof *steps.items, cmp_i32);
    for (size_t i = 0; i < steps.len; i++)
        a->steps += i == 0 || steps.items[i] != steps.items[i - 1];
    a->step_us = a->steps ? a->kernel_us / (double)a->steps : 0;
    agg_done(&g, false);
    a->types.items = g.v.items;
    a->types.len = g.v.len;
    a->types.cap = g.v.cap;
    nfy_vec_free(&steps);
}

void nfy_npuprof_analyse(const nfy_npu_profile *p, nfy_npu_analysis *a)
{
    memset(a, 0, sizeof *a);
    nfy_arena_init(&a->arena);
    totals(p, a);
    find_ai_cpu(p, a);
    find_fp32_matrix(p, a);
    find_hccl(p, a);
    find_host_bound(p, a);
    find_small_kernels(p, a);
    find_optimizer(p, a);
}

void nfy_npuprof_analysis_release(nfy_npu_analysis *a)
{
    nfy_vec_free(&a->items);
    nfy_vec_free(&a->types);
    nfy_arena_release(&a->arena);
}
