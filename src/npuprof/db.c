/*
 * The .db export of the Ascend PyTorch Profiler (export_type="db":
 * ascend_pytorch_profiler_{rank}.db, and msprof's analysis.db layout).
 * SQLite, opened read-only. Tables read: STRING_IDS (id -> value: every
 * name is an id), TASK (globalTaskId, startNs, endNs), COMPUTE_TASK_INFO
 * (globalTaskId, name, opType, taskType, inputShapes, inputDataTypes),
 * COMMUNICATION_OP (opName, startNs, endNs), PYTORCH_API (name, startNs,
 * endNs) and STEP_TIME (id, startNs, endNs). Absent tables are skipped.
 */
#include <math.h>
#include <sqlite3.h>

#include "npuprof/npuprof.h"

typedef struct {
    nfy_npu_profile *p;
    nfy_diags *d;
    const char *path;
    sqlite3 *db;
} db_ctx;

static bool has_table(db_ctx *c, const char *name)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db,
                           "SELECT 1 FROM sqlite_master WHERE type='table' "
                           "AND name=?",
                           -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    bool yes = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return yes;
}

static nfy_str col_str(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (nfy_str){(const char *)t, (size_t)sqlite3_column_bytes(st, i)}
             : NFY_STR_LIT("");
}

static void db_error(db_ctx *c, const char *what)
{
    nfy_diag_add_at(c->d, NFY_SEV_ERROR, "npu-db", c->path, 0, 0, "%s: %s",
                    what, sqlite3_errmsg(c->db));
}

typedef void (*row_fn)(db_ctx *c, sqlite3_stmt *st);

static bool query(db_ctx *c, const char *sql, row_fn fn)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
        db_error(c, "query failed");
        return false;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        fn(c, st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        db_error(c, "reading rows failed");
        return false;
    }
    return true;
}

static void kernel_of(db_ctx *c, sqlite3_stmt *st, nfy_npu_core core)
{
    nfy_npu_kernel k;
    memset(&k, 0, sizeof k);
    k.name = nfy_npuprof_intern(c->p, col_str(st, 0));
    k.type = nfy_npuprof_intern(c->p, col_str(st, 1));
    k.core =
        core != NFY_NCORE_OTHER ? core : nfy_npuprof_core_parse(col_str(st, 2));
    k.shapes = nfy_npuprof_intern(c->p, col_str(st, 3));
    k.dtypes = nfy_npuprof_intern(c->p, col_str(st, 4));
    double s = (double)sqlite3_column_int64(st, 5);
    double e = (double)sqlite3_column_int64(st, 6);
    k.start_us = s / 1000.0;
    k.dur_us = e >= s ? (e - s) / 1000.0 : 0;
    k.wait_us = k.mac_ratio = NAN;
    k.step = NFY_NPU_STEP_NONE;
    nfy_vec_push(&c->p->kernels, k);
}

static void compute_row(db_ctx *c, sqlite3_stmt *st)
{
    kernel_of(c, st, NFY_NCORE_OTHER);
}

static void comm_row(db_ctx *c, sqlite3_stmt *st)
{
    kernel_of(c, st, NFY_NCORE_HCCL);
}

static void api_row(db_ctx *c, sqlite3_stmt *st)
{
    nfy_npu_hostop *h = nfy_npuprof_hostop_get(c->p, col_str(st, 0));
    int64_t s = sqlite3_column_int64(st, 1), e = sqlite3_column_int64(st, 2);
    h->calls++;
    h->host_us += e >= s ? (double)(e - s) / 1000.0 : 0;
}

/* Step Id of each kernel from STEP_TIME windows (kernels lack it here);
 * the first STEPS_MAX windows only, so a hostile table stays cheap. */
#define STEPS_MAX 4096
static void assign_steps(db_ctx *c, size_t from)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db,
                           "SELECT id, startNs, endNs FROM STEP_TIME ORDER BY "
                           "startNs",
                           -1, &st, NULL) != SQLITE_OK)
        return;
    for (int n = 0; n < STEPS_MAX && sqlite3_step(st) == SQLITE_ROW; n++) {
        int64_t id = sqlite3_column_int64(st, 0);
        double s = (double)sqlite3_column_int64(st, 1) / 1000.0;
        double e = (double)sqlite3_column_int64(st, 2) / 1000.0;
        for (size_t i = from; i < c->p->kernels.len; i++) {
            nfy_npu_kernel *k = &c->p->kernels.items[i];
            if (k->start_us >= s && k->start_us <= e && id >= 0 && id < 1 << 30)
                k->step = (int32_t)id;
        }
    }
    sqlite3_finalize(st);
}

static const char compute_sql[] =
    "SELECT n.value, o.value, t.value, s.value, d.value, TASK.startNs, "
    "TASK.endNs FROM COMPUTE_TASK_INFO c JOIN TASK ON TASK.globalTaskId = "
    "c.globalTaskId LEFT JOIN STRING_IDS n ON n.id = c.name LEFT JOIN "
    "STRING_IDS o ON o.id = c.opType LEFT JOIN STRING_IDS t ON t.id = "
    "c.taskType LEFT JOIN STRING_IDS s ON s.id = c.inputShapes LEFT JOIN "
    "STRING_IDS d ON d.id = c.inputDataTypes ORDER BY TASK.startNs";

static const char comm_sql[] =
    "SELECT n.value, t.value, '', '', '', c.startNs, c.endNs FROM "
    "COMMUNICATION_OP c LEFT JOIN STRING_IDS n ON n.id = c.opName LEFT JOIN "
    "STRING_IDS t ON t.id = c.opType ORDER BY c.startNs";

static const char api_sql[] =
    "SELECT n.value, a.startNs, a.endNs FROM PYTORCH_API a LEFT JOIN "
    "STRING_IDS n ON n.id = a.name";

nfy_status nfy_npuprof_read_db(nfy_npu_profile *p, const char *path,
                               nfy_diags *d)
{
    p->src.db = nfy_arena_strdup(&p->arena, path);
    db_ctx c = {p, d, path, NULL};
    if (sqlite3_open_v2(path, &c.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        db_error(&c, "cannot open the database");
        sqlite3_close(c.db);
        return NFY_EIO;
    }
    bool ok = true;
    size_t from = p->kernels.len;
    bool tasks = !p->src.kernel_details && has_table(&c, "COMPUTE_TASK_INFO") &&
                 has_table(&c, "TASK") && has_table(&c, "STRING_IDS");
    if (!tasks && !p->src.kernel_details && !has_table(&c, "PYTORCH_API")) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "npu-db", path, 0, 0,
                        "no COMPUTE_TASK_INFO/TASK/STRING_IDS or PYTORCH_API "
                        "table: not an Ascend profiler database");
        ok = false;
    }
    if (tasks)
        ok &= query(&c, compute_sql, compute_row);
    if (tasks && has_table(&c, "COMMUNICATION_OP"))
        ok &= query(&c, comm_sql, comm_row);
    if (tasks && has_table(&c, "STEP_TIME"))
        assign_steps(&c, from);
    if (!p->src.trace_view && has_table(&c, "PYTORCH_API") &&
        has_table(&c, "STRING_IDS"))
        ok &= query(&c, api_sql, api_row);
    sqlite3_close(c.db);
    return ok ? NFY_OK : NFY_ESYNTAX;
}
