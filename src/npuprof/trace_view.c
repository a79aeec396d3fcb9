/*
 * trace_view.json of the Ascend PyTorch Profiler: a chrome trace (an event
 * array, or an object with "traceEvents") with processes named by "M"
 * events: the framework ops (cat "cpu_op") on the Python threads, "Ascend
 * Hardware" (device tasks), "HCCL", "Overlap Analysis" (events named
 * Computing, Communication, Communication(Not Overlapped), Free), and
 * Enqueue/Dequeue events of the task queue. An "async_npu" flow ("s" at
 * the op that launched, "f" at the device task) gives each framework op
 * its device time. ts and dur may be numbers or strings (torch_npu writes
 * strings to keep the digits). Loaded whole with jansson.
 */
#include <jansson.h>
#include <math.h>

#include "npuprof/npuprof.h"

typedef struct {
    double ts, end;
    int64_t tid;
    uint32_t op; /* hostops index */
} cpu_ev;

typedef struct {
    int64_t pid, tid;
    double ts, dur;
    int kind; /* overlap event kind, or OV_NONE */
} dev_ev;

typedef struct {
    uint64_t id;
    bool start;
    int64_t pid, tid;
    double ts;
} flow_ev;

typedef struct {
    int64_t pid;
    int role;
} proc_role;

enum { OV_NONE, OV_COMPUTING, OV_COMM, OV_COMM_NO, OV_FREE };
enum { ROLE_OTHER, ROLE_HARDWARE, ROLE_OVERLAP };

typedef struct {
    nfy_npu_profile *p;
    NFY_VEC(cpu_ev) cpu;
    NFY_VEC(dev_ev) dev;
    NFY_VEC(flow_ev) flows;
    NFY_VEC(proc_role) procs;
} tv_ctx;

/* A number or a numeric string; NaN otherwise. */
static double num_of(json_t *v)
{
    if (json_is_number(v))
        return json_number_value(v);
    if (json_is_string(v)) {
        char *end;
        double d = strtod(json_string_value(v), &end);
        return *end || !isfinite(d) ? NAN : d;
    }
    return NAN;
}

/* pid/tid: integers, or strings hashed to one. */
static int64_t id_of(json_t *v)
{
    if (json_is_integer(v))
        return (int64_t)json_integer_value(v);
    if (json_is_string(v))
        return (
            int64_t)(nfy_str_hash(nfy_str_from_cstr(json_string_value(v))) >>
                     1);
    return -1;
}

static uint64_t flow_id(json_t *v)
{
    if (json_is_integer(v))
        return (uint64_t)json_integer_value(v) * 0x9E3779B97F4A7C15u;
    if (json_is_string(v))
        return nfy_str_hash(nfy_str_from_cstr(json_string_value(v)));
    return 0;
}

static nfy_str str_of(json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? nfy_str_from_cstr(s) : NFY_STR_LIT("");
}

static void take_meta(tv_ctx *c, json_t *ev)
{
    if (!nfy_str_eq_cstr(str_of(ev, "name"), "process_name"))
        return;
    nfy_str n = str_of(json_object_get(ev, "args"), "name");
    proc_role r = {id_of(json_object_get(ev, "pid")), ROLE_OTHER};
    if (nfy_str_eq_cstr(n, "Ascend Hardware"))
        r.role = ROLE_HARDWARE;
    else if (nfy_str_eq_cstr(n, "Overlap Analysis"))
        r.role = ROLE_OVERLAP;
    if (r.role != ROLE_OTHER)
        nfy_vec_push(&c->procs, r);
}

static int overlap_kind(nfy_str name)
{
    if (nfy_str_eq_cstr(name, "Computing"))
        return OV_COMPUTING;
    if (nfy_str_eq_cstr(name, "Communication"))
        return OV_COMM;
    if (nfy_str_eq_cstr(name, "Communication(Not Overlapped)"))
        return OV_COMM_NO;
    if (nfy_str_eq_cstr(name, "Free"))
        return OV_FREE;
    return OV_NONE;
}

static void take_complete(tv_ctx *c, json_t *ev)
{
    nfy_str name = str_of(ev, "name");
    nfy_str cat = str_of(ev, "cat");
    double ts = num_of(json_object_get(ev, "ts"));
    double dur = num_of(json_object_get(ev, "dur"));
    if (isnan(ts) || isnan(dur) || dur < 0)
        return;
    nfy_npu_timeline *tl = &c->p->tl;
    if (nfy_str_starts_with(name, NFY_STR_LIT("Enqueue"))) {
        tl->enqueue_n++;
        tl->enqueue_us += dur;
        return;
    }
    if (nfy_str_starts_with(name, NFY_STR_LIT("Dequeue"))) {
        tl->dequeue_n++;
        tl->dequeue_us += dur;
        return;
    }
    int64_t pid = id_of(json_object_get(ev, "pid"));
    int64_t tid = id_of(json_object_get(ev, "tid"));
    if (nfy_str_eq_cstr(cat, "cpu_op")) {
        nfy_npu_hostop *h = nfy_npuprof_hostop_get(c->p, name);
        h->calls++;
        h->host_us += dur;
        cpu_ev e = {ts, ts + dur, tid, (uint32_t)(h - c->p->hostops.items)};
        nfy_vec_push(&c->cpu, e);
        return;
    }
    dev_ev d = {pid, tid, ts, dur, overlap_kind(name)};
    nfy_vec_push(&c->dev, d);
}

static void take_flow(tv_ctx *c, json_t *ev, bool start)
{
    if (!nfy_str_eq_cstr(str_of(ev, "cat"), "async_npu"))
        return;
    flow_ev f = {flow_id(json_object_get(ev, "id")), start,
                 id_of(json_object_get(ev, "pid")),
                 id_of(json_object_get(ev, "tid")),
                 num_of(json_object_get(ev, "ts"))};
    if (!isnan(f.ts))
        nfy_vec_push(&c->flows, f);
}

static void take_event(tv_ctx *c, json_t *ev)
{
    nfy_str ph = str_of(ev, "ph");
    if (nfy_str_eq_cstr(ph, "M"))
        take_meta(c, ev);
    else if (nfy_str_eq_cstr(ph, "X"))
        take_complete(c, ev);
    else if (nfy_str_eq_cstr(ph, "s"))
        take_flow(c, ev, true);
    else if (nfy_str_eq_cstr(ph, "f"))
        take_flow(c, ev, false);
}

static int role_of(const tv_ctx *c, int64_t pid)
{
    for (size_t i = 0; i < c->procs.len; i++)
        if (c->procs.items[i].pid == pid)
            return c->procs.items[i].role;
    return ROLE_OTHER;
}

static int cmp_cpu(const void *a, const void *b)
{
    const cpu_ev *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_dev(const void *a, const void *b)
{
    const dev_ev *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_flow(const void *a, const void *b)
{
    const flow_ev *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (int)y->start - (int)x->start; /* start before finish */
}

/* The innermost framework op on tid containing ts, or NULL. */
static const cpu_ev *op_at(const tv_ctx *c, int64_t tid, double ts)
{
    size_t lo = 0, hi = c->cpu.len;
    while (lo < hi) { /* first event after (tid, ts) */
        size_t mid = lo + (hi - lo) / 2;
        const cpu_ev *e = &c->cpu.items[mid];
        if (e->tid < tid || (e->tid == tid && e->ts <= ts + 1e-3))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo, n = 0; i-- > 0 && n < 256; n++) {
        const cpu_ev *e = &c->cpu.items[i];
        if (e->tid != tid)
            break;
        if (e->end + 1e-3 >= ts)
            return e;
    }
    return NULL;
}

/* The device task at (pid, tid, ts), or NULL. */
static const dev_ev *task_at(const tv_ctx *c, int64_t pid, int64_t tid,
                             double ts)
{
    dev_ev key = {pid, tid, ts - 1e-3, 0, 0};
    size_t lo = 0, hi = c->dev.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_dev(&c->dev.items[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->dev.len) {
        const dev_ev *d = &c->dev.items[lo];
        if (d->pid == pid && d->tid == tid && fabs(d->ts - ts) <= 1e-3)
            return d;
    }
    return NULL;
}

static void link_flows(tv_ctx *c)
{
    if (c->cpu.len) /* qsort wants a non-NULL base */
        qsort(c->cpu.items, c->cpu.len, sizeof *c->cpu.items, cmp_cpu);
    if (c->dev.len) /* qsort wants a non-NULL base */
        qsort(c->dev.items, c->dev.len, sizeof *c->dev.items, cmp_dev);
    if (c->flows.len) /* qsort wants a non-NULL base */
        qsort(c->flows.items, c->flows.len, sizeof *c->flows.items, cmp_flow);
    for (size_t i = 0; i + 1 < c->flows.len; i++) {
        const flow_ev *s = &c->flows.items[i];
        if (!s->start)
            continue;
        /* every finish with the same id after this start */
        for (size_t j = i + 1;
             j < c->flows.len && c->flows.items[j].id == s->id; j++) {
            const flow_ev *f = &c->flows.items[j];
            if (f->start)
                break;
            const dev_ev *task = task_at(c, f->pid, f->tid, f->ts);
            const cpu_ev *op = op_at(c, s->tid, s->ts);
            if (!task || !op)
                continue;
            c->p->hostops.items[op->op].device_us += task->dur;
            c->p->tl.flows++;
        }
    }
}

static void sum_overlap(tv_ctx *c)
{
    nfy_npu_timeline *tl = &c->p->tl;
    for (size_t i = 0; i < c->dev.len; i++) {
        const dev_ev *d = &c->dev.items[i];
        if (d->kind == OV_NONE || role_of(c, d->pid) != ROLE_OVERLAP)
            continue;
        tl->overlap = true;
        double *slot[] = {NULL, &tl->computing_us, &tl->communication_us,
                          &tl->comm_not_overlapped_us, &tl->free_us};
        *slot[d->kind] += d->dur;
    }
}

nfy_status nfy_npuprof_read_trace_view(nfy_npu_profile *p, const char *path,
                                       nfy_diags *d)
{
    p->src.trace_view = nfy_arena_strdup(&p->arena, path);
    json_error_t err;
    json_t *root = json_load_file(path, JSON_ALLOW_NUL, &err);
    if (!root) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "npu-json", path,
                        err.line > 0 ? (uint32_t)err.line : 0,
                        err.column > 0 ? (uint32_t)err.column - 1 : 0,
                        "invalid JSON: %s", err.text);
        return NFY_ESYNTAX;
    }
    json_t *events =
        json_is_array(root) ? root : json_object_get(root, "traceEvents");
    if (!json_is_array(events)) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "npu-json", path, 1, 0,
                        "not a chrome trace: no event array");
        json_decref(root);
        return NFY_ESYNTAX;
    }
    tv_ctx c;
    memset(&c, 0, sizeof c);
    c.p = p;
    size_t i;
    json_t *ev;
    json_array_foreach(events, i, ev)
    {
        if (json_is_object(ev))
            take_event(&c, ev);
    }
    json_decref(root);
    sum_overlap(&c);
    link_flows(&c);
    nfy_vec_free(&c.cpu);
    nfy_vec_free(&c.dev);
    nfy_vec_free(&c.flows);
    nfy_vec_free(&c.procs);
    return NFY_OK;
}
