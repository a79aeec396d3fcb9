/* Unit tests for the chrome-trace reader (src/proflog/trace_*.c, json_*.c):
 * the torch 1.13 legacy samples, the published kineto excerpt, gzip (one
 * and several members), self time, steps across threads and passes,
 * malformed JSON with resynchronisation, nesting and size limits. Expected
 * counts are computed from the input bytes independently of the reader. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "proflog/capture.h"
#include "proflog/proflog.h"
#include "proflog/trace_internal.h"

#define DATA         "tests/data/profiler/"
#define LEGACY_MLP   DATA "torch-1.13-cpu/trace_torchprofiler_mlp.json"
#define AUTOGRAD_MLP DATA "torch-1.13-cpu/trace_autograd_mlp.json"
#define UNESCAPED    DATA "torch-1.13-cpu/trace_legacy_unescaped_quote.json"
#define KINETO                                                                 \
    DATA "published/kineto_trace_h100_excerpt_pytorch_test_analysis.json.txt"

typedef struct {
    char name[128];
    char shapes[256];
    int32_t step, rank;
    double self, total;
    double dev_self, dev_total; /* NaN when the trace has no device work */
    char accel[16];
    uint32_t flags;
    uint64_t offset;
} row_copy;

typedef struct {
    NFY_VEC(row_copy) rows;
    size_t stop_after; /* 0: never stop */
    nfy_diags diags;
} collected;

static void copy_view(char *dst, size_t cap, nfy_str s)
{
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    if (n)
        memcpy(dst, s.ptr, n);
    dst[n] = '\0';
}

static int collect_sink(void *ctx, const nfy_prof_row *r)
{
    collected *c = ctx;
    row_copy rc;
    memset(&rc, 0, sizeof rc);
    copy_view(rc.name, sizeof rc.name, r->name);
    copy_view(rc.shapes, sizeof rc.shapes, r->shapes);
    rc.step = r->step;
    rc.rank = r->rank;
    rc.self = r->self_us[NFY_PDEV_CPU];
    rc.total = r->total_us[NFY_PDEV_CPU];
    rc.dev_self = r->self_us[NFY_PDEV_ACCEL];
    rc.dev_total = r->total_us[NFY_PDEV_ACCEL];
    copy_view(rc.accel, sizeof rc.accel, r->accel_name);
    rc.flags = r->flags;
    rc.offset = r->offset;
    assert_int_equal(r->calls, 1);
    assert_true(r->flags & NFY_PROW_FROM_TRACE);
    nfy_vec_push(&c->rows, rc);
    return c->stop_after && c->rows.len >= c->stop_after;
}

static nfy_proflog_opts opts_for(collected *c)
{
    memset(c, 0, sizeof *c);
    nfy_diags_init(&c->diags);
    nfy_proflog_opts o;
    memset(&o, 0, sizeof o);
    o.diags = &c->diags;
    o.sink = collect_sink;
    o.ctx = c;
    return o;
}

static void collected_free(collected *c)
{
    nfy_vec_free(&c->rows);
    nfy_diags_release(&c->diags);
}

static nfy_status read_mem(collected *c, const char *text, size_t len,
                           size_t max_line)
{
    nfy_proflog_opts o = opts_for(c);
    o.max_line = max_line;
    return nfy__prof_read_trace_mem(text, len, &o, 0);
}

static const row_copy *find_row(const collected *c, const char *name,
                                size_t nth)
{
    for (size_t i = 0; i < c->rows.len; i++)
        if (strcmp(c->rows.items[i].name, name) == 0 && nth-- == 0)
            return &c->rows.items[i];
    return NULL;
}

static size_t count_diags(const collected *c, const char *code)
{
    size_t n = 0;
    for (size_t i = 0; i < c->diags.items.len; i++)
        if (strcmp(c->diags.items.items[i].code, code) == 0)
            n++;
    return n;
}

static char *slurp(const char *path, size_t *len)
{
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(nfy_file_read(path, (size_t)1 << 26, &b), NFY_OK);
    return nfy_buf_take(&b, len);
}

static size_t count_substr(const char *hay, size_t len, const char *needle)
{
    size_t n = 0, k = strlen(needle);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(hay + i, needle, k) == 0)
            n++;
    return n;
}

/* gzip of data in members of at most member bytes each. */
static unsigned char *gzip_mem(const char *data, size_t len, size_t member,
                               size_t *out_len)
{
    size_t cap = len + len / 2 + 1024 * (len / member + 2), n = 0;
    unsigned char *out = malloc(cap);
    assert_non_null(out);
    for (size_t off = 0; off < len || off == 0; off += member) {
        size_t part = len - off < member ? len - off : member;
        z_stream z;
        memset(&z, 0, sizeof z);
        assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
                                      Z_DEFAULT_STRATEGY),
                         Z_OK);
        z.next_in = (unsigned char *)(uintptr_t)(data + off);
        z.avail_in = (uInt)part;
        z.next_out = out + n;
        z.avail_out = (uInt)(cap - n);
        assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
        n = cap - z.avail_out;
        deflateEnd(&z);
        if (len == 0)
            break;
    }
    *out_len = n;
    return out;
}

static char *temp_file(const void *data, size_t len)
{
    char *path = strdup("/tmp/npuify-test-trace-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

static nfy_status read_file(collected *c, const char *path)
{
    nfy_proflog_opts o = opts_for(c);
    return nfy_prof_read_trace(path, &o);
}

/* ---- Samples ------------------------------------------------------------ */

static void test_legacy_sample(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(LEGACY_MLP, &len);
    size_t events = count_substr(text, len, "\"ph\": \"X\"");
    collected c;
    assert_int_equal(read_file(&c, LEGACY_MLP), NFY_OK);
    assert_int_equal(c.rows.len, events);
    assert_int_equal(nfy_diags_count(&c.diags, NFY_SEV_NOTE), 0);

    const row_copy *s1 = find_row(&c, "ProfilerStep#1", 0);
    const row_copy *s2 = find_row(&c, "ProfilerStep#2", 0);
    assert_non_null(s1);
    assert_non_null(s2);
    assert_true(s1->flags & NFY_PROW_STEP_MARKER);
    assert_int_equal(s1->step, 1);
    assert_int_equal(s2->step, 2);
    /* Every addmm lies inside one of the two steps, as many in each. */
    size_t per_step[3] = {0, 0, 0};
    for (size_t i = 0; i < c.rows.len; i++) {
        const row_copy *r = &c.rows.items[i];
        assert_true(r->self <= r->total + 1e-9);
        assert_true(r->self >= 0);
        assert_true(r->flags & NFY_PROW_RAW_EVENT);
        assert_false(r->flags & NFY_PROW_HAS_SHAPES); /* legacy: no shapes */
        if (strcmp(r->name, "aten::addmm") == 0) {
            assert_true(r->step == 1 || r->step == 2);
            per_step[r->step]++;
        }
    }
    assert_int_equal(per_step[1], per_step[2]);
    assert_true(per_step[1] > 0);
    /* aten::linear contains its addmm: its self time is smaller. */
    const row_copy *lin = find_row(&c, "aten::linear", 0);
    assert_non_null(lin);
    assert_true(lin->self < lin->total);
    collected_free(&c);
    free(text);
}

static void test_autograd_sample_no_steps(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(AUTOGRAD_MLP, &len);
    collected c;
    assert_int_equal(read_file(&c, AUTOGRAD_MLP), NFY_OK);
    assert_int_equal(c.rows.len, count_substr(text, len, "\"ph\": \"X\""));
    for (size_t i = 0; i < c.rows.len; i++)
        assert_int_equal(c.rows.items[i].step, NFY_PROF_STEP_NONE);
    collected_free(&c);
    free(text);
}

/* Same rows from a gzip file (one member, then many small members). */
static void test_gzip_variants(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(LEGACY_MLP, &len);
    collected plain;
    assert_int_equal(read_file(&plain, LEGACY_MLP), NFY_OK);
    size_t members[] = {len + 1, 1000};
    for (size_t m = 0; m < 2; m++) {
        size_t gz_len;
        unsigned char *gz = gzip_mem(text, len, members[m], &gz_len);
        char *path = temp_file(gz, gz_len);
        collected c;
        assert_int_equal(read_file(&c, path), NFY_OK);
        assert_int_equal(c.rows.len, plain.rows.len);
        for (size_t i = 0; i < c.rows.len; i++) {
            assert_string_equal(c.rows.items[i].name, plain.rows.items[i].name);
            assert_int_equal(c.rows.items[i].step, plain.rows.items[i].step);
            assert_true(c.rows.items[i].self == plain.rows.items[i].self);
        }
        /* And from memory. */
        collected cm;
        assert_int_equal(read_mem(&cm, (char *)gz, gz_len, 0), NFY_OK);
        assert_int_equal(cm.rows.len, plain.rows.len);
        collected_free(&cm);
        collected_free(&c);
        unlink(path);
        free(path);
        free(gz);
    }
    /* A gzip stream cut in the middle: an I/O diagnostic, no crash. */
    size_t gz_len;
    unsigned char *gz = gzip_mem(text, len, len + 1, &gz_len);
    collected cut;
    assert_int_not_equal(read_mem(&cut, (char *)gz, gz_len / 2, 0), NFY_OK);
    assert_true(
        count_diags(&cut, "trace-io") + count_diags(&cut, "trace-json") >= 1);
    assert_true(cut.rows.len < plain.rows.len);
    collected_free(&cut);
    free(gz);
    collected_free(&plain);
    free(text);
}

/* From a pipe (no rewind: one pass), gzipped: rows as from the file;
 * steps are known for ops after their ProfilerStep event, as the legacy
 * writer orders them. */
static void test_pipe_single_pass(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(LEGACY_MLP, &len);
    size_t gz_len;
    unsigned char *gz = gzip_mem(text, len, len + 1, &gz_len);
    free(text);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the writer; frees what it inherited (valgrind) */
        close(fds[0]);
        size_t off = 0;
        while (off < gz_len) {
            ssize_t w = write(fds[1], gz + off, gz_len - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        free(gz);
        _exit(off == gz_len ? 0 : 1);
    }
    close(fds[1]);
    free(gz);
    collected plain;
    assert_int_equal(read_file(&plain, LEGACY_MLP), NFY_OK);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    collected c;
    assert_int_equal(read_file(&c, path), NFY_OK);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_int_equal(c.rows.len, plain.rows.len);
    for (size_t i = 0; i < c.rows.len; i++) {
        assert_string_equal(c.rows.items[i].name, plain.rows.items[i].name);
        assert_int_equal(c.rows.items[i].step, plain.rows.items[i].step);
    }
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    collected_free(&c);
    collected_free(&plain);
}

static void test_unescaped_quote(void **state)
{
    (void)state;
    size_t len;
    char *text = slurp(UNESCAPED, &len);
    collected c;
    assert_int_equal(read_mem(&c, text, len, 0), NFY_OK);
    assert_int_equal(c.rows.len, count_substr(text, len, "\"ph\": \"X\""));
    assert_non_null(find_row(&c, "say \"hi\", \\path", 0));
    assert_int_equal(count_diags(&c, "trace-json-recovered"), 1);
    /* The warning points at the event's "{". */
    const nfy_diag *d = &c.diags.items.items[0];
    const char *ev = strstr(text, "{\"name\": \"say");
    assert_non_null(ev);
    assert_int_equal(d->col, (uint32_t)(ev - text));
    assert_int_equal(d->line, 1);
    collected_free(&c);
    free(text);
}

/* The published excerpt after its "# " header: three good events, a missing
 * comma, a "#" comment inside the fourth (error, resync) and a trailing
 * comma. */
static void test_kineto_excerpt(void **state)
{
    (void)state;
    size_t len;
    char *raw = slurp(KINETO, &len);
    const char *marker = "# ---- verbatim content below this line ----\n";
    const char *body = strstr(raw, marker);
    assert_non_null(body);
    body += strlen(marker);
    size_t blen = len - (size_t)(body - raw);
    collected c;
    assert_int_equal(read_mem(&c, body, blen, 0), NFY_OK);
    assert_int_equal(c.rows.len, 3);
    const row_copy *conv = find_row(&c, "aten::convolution", 0);
    assert_non_null(conv);
    assert_string_equal(conv->shapes, "[[1, 3, 224, 224], [64, 3, 7, 7], "
                                      "[], [], [], [], [], [], []]");
    assert_true(conv->flags & NFY_PROW_HAS_SHAPES);
    assert_true(fabs(conv->total - 425.453) < 1e-6);
    /* _convolution (341.867) is its child on the same thread. */
    assert_true(fabs(conv->self - (425.453 - 341.867)) < 1e-6);
    const row_copy *mm = find_row(&c, "aten::addmm", 0);
    assert_non_null(mm);
    assert_string_equal(mm->shapes,
                        "[[1000], [1, 2048], [2048, 1000], [], [], [1, 1000]]");
    assert_null(find_row(&c, "aten::foo", 0)); /* lost to the comment */
    /* The error is located at the '#', by line and column. */
    assert_int_equal(count_diags(&c, "trace-json"), 1);
    const char *hash = strchr(body, '#');
    uint32_t line = 1, col = 0;
    for (const char *p = body; p < hash; p++, col++)
        if (*p == '\n') {
            line++;
            col = (uint32_t)-1;
        }
    for (size_t i = 0; i < c.diags.items.len; i++) {
        const nfy_diag *d = &c.diags.items.items[i];
        if (strcmp(d->code, "trace-json") == 0) {
            assert_int_equal(d->line, line);
            assert_int_equal(d->col, col);
        }
    }
    assert_true(count_diags(&c, "trace-json-recovered") >=
                1); /* missing comma */
    collected_free(&c);
    free(raw);
}

/* ---- Synthetic traces --------------------------------------------------- */

static void test_self_time_and_nesting(void **state)
{
    (void)state;
    const char *t =
        "{\"traceEvents\": ["
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"P\",\"pid\":1,\"tid\":1,"
        "\"ts\":0,\"dur\":100},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,"
        "\"ts\":10,\"dur\":30},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,"
        "\"ts\":50,\"dur\":20},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"C\",\"pid\":1,\"tid\":1,"
        "\"ts\":55,\"dur\":5},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"Q\",\"pid\":1,\"tid\":2,"
        "\"ts\":20,\"dur\":7},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
        "\"ts\":20,\"dur\":7},"
        "{\"ph\":\"i\",\"cat\":\"cpu_op\",\"name\":\"inst\",\"pid\":1,"
        "\"tid\":1,\"ts\":20},"
        "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{}}"
        "], \"traceName\": \"x\"}";
    collected c;
    assert_int_equal(read_mem(&c, t, strlen(t), 0), NFY_OK);
    assert_int_equal(c.rows.len, 5); /* kernel, instant, metadata skipped */
    assert_true(find_row(&c, "P", 0)->self == 50);
    assert_true(find_row(&c, "A", 0)->self == 30);
    assert_true(find_row(&c, "B", 0)->self == 15);
    assert_true(find_row(&c, "C", 0)->self == 5);
    assert_true(find_row(&c, "Q", 0)->self == 7); /* other thread */
    assert_int_equal(find_row(&c, "P", 0)->rank, NFY_PROF_RANK_NONE);
    collected_free(&c);
}

/* Step windows given after the ops (two passes), ops on a second thread of
 * the process, an op of another process, and the rank written last. */
/* Events that go back in time on a thread: rows keep coming, self time
 * falls back to the total, and a note says so. */
static void test_unsorted_thread(void **state)
{
    (void)state;
    const char *t =
        "[{\"ph\":\"X\",\"name\":\"late\",\"tid\":1,\"ts\":50,\"dur\":10},"
        "{\"ph\":\"X\",\"name\":\"early\",\"tid\":1,\"ts\":10,\"dur\":30},"
        "{\"ph\":\"X\",\"name\":\"inner\",\"tid\":1,\"ts\":12,\"dur\":5}]";
    collected c;
    assert_int_equal(read_mem(&c, t, strlen(t), 0), NFY_OK);
    assert_int_equal(c.rows.len, 3);
    assert_true(find_row(&c, "early", 0)->self == 30);
    assert_true(find_row(&c, "inner", 0)->self == 5);
    assert_int_equal(count_diags(&c, "trace-unsorted"), 1);
    collected_free(&c);
}

/* Kernels, copies and sets give their op device time through "External
 * id": self = its own launches, total = with its children's. */
static void test_device_time(void **state)
{
    (void)state;
    const char *t =
        "{\"traceEvents\": ["
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\","
        "\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100,\"args\":{\"External "
        "id\":4}},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\","
        "\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":50,"
        "\"args\":{\"External id\":5,\"Input Dims\":[[2],[3,2]]}},"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
        "\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":5,"
        "\"args\":{\"External id\":5,\"correlation\":9}},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::copy_\","
        "\"pid\":1,\"tid\":1,\"ts\":70,\"dur\":20,\"args\":{\"External "
        "id\":7}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_sgemm\","
        "\"pid\":0,\"tid\":7,\"ts\":30,\"dur\":12.5,"
        "\"args\":{\"External id\":5,\"correlation\":9}},"
        "{\"ph\":\"X\",\"cat\":\"Kernel\",\"name\":\"splitK\",\"pid\":0,"
        "\"tid\":7,\"ts\":45,\"dur\":2.5,\"args\":{\"External id\":5}},"
        "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD\","
        "\"pid\":0,\"tid\":8,\"ts\":75,\"dur\":4,\"args\":{\"External id\":7}}"
        "]}";
    collected c;
    assert_int_equal(read_mem(&c, t, strlen(t), 0), NFY_OK);
    assert_int_equal(c.rows.len, 3); /* runtime and device events: no rows */
    const row_copy *mm = find_row(&c, "aten::addmm", 0);
    const row_copy *lin = find_row(&c, "aten::linear", 0);
    const row_copy *cp = find_row(&c, "aten::copy_", 0);
    assert_true(mm->dev_self == 15 && mm->dev_total == 15);
    assert_true(cp->dev_self == 4 && cp->dev_total == 4);
    assert_true(lin->dev_self == 0 && lin->dev_total == 19);
    assert_string_equal(mm->accel, "CUDA");
    assert_string_equal(mm->shapes, "[[2], [3, 2]]");
    collected_free(&c);
    /* Without device events the device columns stay absent. */
    assert_int_equal(read_file(&c, LEGACY_MLP), NFY_OK);
    assert_true(isnan(c.rows.items[0].dev_self));
    assert_string_equal(c.rows.items[0].accel, "");
    collected_free(&c);
}

/* The External id map: growth, negative and zero ids, repeated adds. */
static void test_device_map(void **state)
{
    (void)state;
    nfy_trace_devmap m;
    memset(&m, 0, sizeof m);
    double v;
    assert_false(nfy__prof_trace_devmap_get(&m, 0, &v));
    for (int64_t i = 0; i < 5000; i++) {
        nfy__prof_trace_devmap_add(&m, i * 7 - 100, (double)i);
        nfy__prof_trace_devmap_add(&m, i * 7 - 100, 0.5);
    }
    nfy__prof_trace_devmap_add(&m, 3, NAN); /* ignored */
    assert_int_equal(m.keys.len, 5000);
    for (int64_t i = 0; i < 5000; i++) {
        assert_true(nfy__prof_trace_devmap_get(&m, i * 7 - 100, &v));
        assert_true(v == (double)i + 0.5);
    }
    assert_false(nfy__prof_trace_devmap_get(&m, -99, &v));
    assert_false(nfy__prof_trace_devmap_get(&m, INT64_MAX, &v));
    nfy__prof_trace_devmap_release(&m);
}

static void test_steps_two_pass(void **state)
{
    (void)state;
    const char *t =
        "{\"traceEvents\": ["
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,"
        "\"tid\":1,\"ts\":15,\"dur\":2},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,"
        "\"tid\":1,\"ts\":25,\"dur\":2},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::bw\",\"pid\":1,"
        "\"tid\":9,\"ts\":26,\"dur\":1},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::other\",\"pid\":2,"
        "\"tid\":1,\"ts\":16,\"dur\":1},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::late\",\"pid\":1,"
        "\"tid\":1,\"ts\":95,\"dur\":1},"
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#4\","
        "\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":10},"
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#5\","
        "\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":10}"
        "], \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3}}";
    collected c;
    assert_int_equal(read_mem(&c, t, strlen(t), 0), NFY_OK);
    assert_int_equal(c.rows.len, 7);
    assert_int_equal(find_row(&c, "aten::mm", 0)->step, 4);
    assert_int_equal(find_row(&c, "aten::mm", 1)->step, 5);
    assert_int_equal(find_row(&c, "aten::bw", 0)->step, 5);
    assert_int_equal(find_row(&c, "aten::other", 0)->step, NFY_PROF_STEP_NONE);
    assert_int_equal(find_row(&c, "aten::late", 0)->step, NFY_PROF_STEP_NONE);
    assert_int_equal(find_row(&c, "ProfilerStep#5", 0)->step, 5);
    for (size_t i = 0; i < c.rows.len; i++)
        assert_int_equal(c.rows.items[i].rank, 3);
    collected_free(&c);
}

static void test_nested_input_dims(void **state)
{
    (void)state;
    const char *t =
        "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::cat\",\"pid\":1,"
        "\"tid\":1,\"ts\":1.5,\"dur\":2.25,\"args\":{\"External id\":7,"
        "\"Input type\":[\"TensorList\",\"Scalar\"],"
        "\"Input Dims\":[[[704],[3,4]],[]],\"Concrete Inputs\":[\"\",\"0\"]}},"
        "{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"aten::add\",\"pid\":1,"
        "\"tid\":1,\"ts\":5,\"dur\":1,\"args\":{\"Input dims\":[[2, 3], []]}}"
        "]";
    collected c;
    assert_int_equal(read_mem(&c, t, strlen(t), 0), NFY_OK);
    assert_int_equal(c.rows.len, 2);
    assert_string_equal(find_row(&c, "aten::cat", 0)->shapes,
                        "[[[704], [3, 4]], []]");
    assert_true(find_row(&c, "aten::cat", 0)->total == 2.25);
    assert_string_equal(find_row(&c, "aten::add", 0)->shapes, "[[2, 3], []]");
    collected_free(&c);
}

/* A broken event in the middle costs that event only, reported at its
 * byte; escapes and a BOM are handled. */
static void test_malformed_resync(void **state)
{
    (void)state;
    const char *t =
        "\xEF\xBB\xBF[{\"name\": \"a\\u00e9\\ud83d\\ude00\\n\", \"ph\": \"X\", "
        "\"ts\": 1, \"dur\": 1, \"tid\": 1, \"pid\": \"CPU functions\", "
        "\"args\": {}},\n"
        "{\"name\": \"b\", \"ph\": \"X\", \"ts\": 3, \"dur\": 1, \"tid\": 1},\n"
        "{\"name\": \"bad\", \"ph\": \"X\", \"ts\": 1x2, \"dur\": 1},\n"
        "{\"name\": \"c\", \"ph\": \"X\", \"ts\": 5, \"dur\": 1, \"tid\": 1},\n"
        "17,\n"
        "{\"name\": \"d\", \"ph\": \"X\", \"ts\": 7, \"dur\": 1e0, \"tid\": 1}"
        "]";
    collected c;
    assert_int_equal(read_mem(&c, t, strlen(t), 0), NFY_OK);
    assert_int_equal(c.rows.len, 4);
    assert_non_null(find_row(&c, "a\xC3\xA9\xF0\x9F\x98\x80\n", 0));
    assert_non_null(find_row(&c, "b", 0));
    assert_non_null(find_row(&c, "c", 0));
    assert_non_null(find_row(&c, "d", 0));
    assert_null(find_row(&c, "bad", 0));
    assert_int_equal(count_diags(&c, "trace-json"), 2);
    const nfy_diag *d = &c.diags.items.items[0];
    const char *x = strstr(t, "1x2") + 1; /* the lexer stops at 'x' */
    const char *line3 = strstr(t, "{\"name\": \"bad\"");
    assert_int_equal(d->line, 3);
    assert_int_equal(d->col, (uint32_t)(x - line3));
    char want[64];
    snprintf(want, sizeof want, "(byte %u)", (unsigned)(x - t));
    assert_non_null(strstr(d->msg, want));
    collected_free(&c);
}

/* Regression (fuzzer): a high surrogate escape followed by a cut "\u" at
 * the end of the input once left the lexer's position past its window. */
static void test_cut_surrogate_at_end(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "[{\"name\": \"ok\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1}, "
        "{\"name\": \"\\ud83d\\u12",
        "[{\"name\": \"\\ud83d\\u",
        "[{\"name\": \"\\ud83d\\",
        "[{\"name\": \"\\ud83d\\udc",
        "[{\"name\": \"x\\ud83d\\u0041\", \"ph\": \"X\", \"ts\": 1, "
        "\"dur\": 1}]",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        collected c;
        (void)read_mem(&c, inputs[i], strlen(inputs[i]), 0);
        assert_true(c.rows.len <= 1);
        collected_free(&c);
    }
    collected c;
    assert_int_equal(read_mem(&c, inputs[4], strlen(inputs[4]), 0), NFY_OK);
    assert_int_equal(c.rows.len, 1); /* lone surrogate -> U+FFFD, then A */
    assert_string_equal(c.rows.items[0].name, "x\xEF\xBF\xBD"
                                              "A");
    collected_free(&c);
}

/* Tiny reads (1..64 bytes) put every token, escape, lookahead and resync
 * across refills: rows and diagnostics must not change. */
static void same_with_tiny_reads(const char *text, size_t len)
{
    collected ref;
    nfy_status want = read_mem(&ref, text, len, 0);
    static const size_t sizes[] = {1, 2, 3, 5, 7, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        collected c;
        nfy_proflog_opts o = opts_for(&c);
        assert_int_equal(nfy__prof_read_trace_mem(text, len, &o, sizes[k]),
                         want);
        assert_int_equal(c.rows.len, ref.rows.len);
        for (size_t i = 0; i < c.rows.len; i++) {
            const row_copy *a = &c.rows.items[i], *b = &ref.rows.items[i];
            assert_string_equal(a->name, b->name);
            assert_string_equal(a->shapes, b->shapes);
            assert_int_equal(a->step, b->step);
            assert_true(a->self == b->self);
            assert_int_equal(a->offset, b->offset);
        }
        assert_int_equal(c.diags.items.len, ref.diags.items.len);
        for (size_t i = 0; i < c.diags.items.len; i++) {
            const nfy_diag *a = &c.diags.items.items[i];
            const nfy_diag *b = &ref.diags.items.items[i];
            assert_string_equal(a->code, b->code);
            assert_int_equal(a->line, b->line);
            assert_int_equal(a->col, b->col);
            assert_string_equal(a->msg, b->msg);
        }
        collected_free(&c);
    }
    collected_free(&ref);
}

static void test_tiny_reads(void **state)
{
    (void)state;
    static const char *const files[] = {LEGACY_MLP, UNESCAPED, KINETO};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len;
        char *text = slurp(files[i], &len);
        const char *body = strstr(text, "verbatim content below this line");
        body = body ? strchr(body, '\n') + 1 : text;
        same_with_tiny_reads(body, len - (size_t)(body - text));
        free(text);
    }
    static const char *const snippets[] = {
        "\xEF\xBB\xBF[{\"name\": \"a\\u00e9\\ud83d\\ude00\\n\", \"ph\": "
        "\"X\", \"ts\": 1, \"dur\": 1, \"args\": {\"Input Dims\": [[1, 2], "
        "[]], \"x\": [{\"y\": \"}, {\"}]}}, 17, {\"name\": \"bad\", \"ts\": "
        "1x2}, {\"name\": \"c\", \"ph\": \"X\", \"ts\": 5e0, \"dur\": 1}, ]",
        "{\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":"
        "\"ProfilerStep#3\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":9},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,"
        "\"tid\":1,\"ts\":1,\"dur\":2,\"args\":{\"External id\":1}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,"
        "\"tid\":7,\"ts\":1,\"dur\":0.5,\"args\":{\"External id\":1}}],"
        "\"distributedInfo\": {\"rank\": 2}}",
    };
    for (size_t i = 0; i < sizeof snippets / sizeof snippets[0]; i++)
        same_with_tiny_reads(snippets[i], strlen(snippets[i]));
}

static void test_not_a_trace_and_truncated(void **state)
{
    (void)state;
    collected c;
    const char *text = "Name  Self CPU %\n-----\n";
    assert_int_equal(read_mem(&c, text, strlen(text), 0), NFY_ESYNTAX);
    assert_int_equal(count_diags(&c, "trace-format"), 1);
    collected_free(&c);

    assert_int_equal(read_mem(&c, "", 0, 0), NFY_ESYNTAX);
    collected_free(&c);

    const char *cut =
        "[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1},"
        " {\"name\": \"b\", \"ph\": \"X\", \"ts\": 2, \"du";
    assert_int_equal(read_mem(&c, cut, strlen(cut), 0), NFY_OK);
    assert_int_equal(c.rows.len, 1);
    assert_true(nfy_diags_count(&c.diags, NFY_SEV_WARNING) >= 1);
    collected_free(&c);

    assert_int_equal(read_file(&c, "/nonexistent/trace.json"), NFY_ENOENT);
    assert_int_equal(count_diags(&c, "trace-io"), 1);
    collected_free(&c);
}

/* Everything after the first document is read: a second document adds its
 * events, anything else is an error, and so is a cut gzip member after a
 * whole one (each used to be ignored with success). */
static void test_after_first_document(void **state)
{
    (void)state;
    const char *doc =
        "[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1}]";
    nfy_buf b = NFY_BUF_INIT;
    nfy_buf_addf(&b, "%s\n%s\n", doc, doc);
    collected c;
    assert_int_equal(read_mem(&c, b.data, b.len, 0), NFY_OK);
    assert_int_equal(c.rows.len, 2);
    assert_int_equal(nfy_diags_count(&c.diags, NFY_SEV_ERROR), 0);
    collected_free(&c);

    nfy_buf_reset(&b);
    nfy_buf_addf(&b, "%s\ngarbage", doc);
    read_mem(&c, b.data, b.len, 0);
    assert_int_equal(c.rows.len, 1);
    assert_int_equal(count_diags(&c, "trace-trailing"), 1);
    collected_free(&c);

    /* One whole gzip member, then the first half of another. */
    size_t len = strlen(doc), gz_len;
    unsigned char *gz = gzip_mem(doc, len, len + 1, &gz_len);
    nfy_buf_reset(&b);
    nfy_buf_add(&b, gz, gz_len);
    nfy_buf_add(&b, gz, gz_len / 2);
    read_mem(&c, b.data, b.len, 0);
    assert_true(nfy_diags_count(&c.diags, NFY_SEV_ERROR) >= 1);
    collected_free(&c);
    free(gz);

    /* An event array cut between two events is an error, not a warning. */
    const char *cut =
        "[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1},";
    read_mem(&c, cut, strlen(cut), 0);
    assert_int_equal(count_diags(&c, "trace-truncated"), 1);
    collected_free(&c);
    nfy_buf_release(&b);
}

/* 100000 nested arrays: in "Input Dims" (parsed) a diagnostic and the next
 * event is still read; in an args value that is only skipped, no limit is
 * needed (the skip keeps a counter, not a stack) and the event is kept. */
static void add_deep_event(nfy_buf *b, const char *name, const char *key,
                           size_t depth)
{
    nfy_buf_addf(b,
                 "{\"name\": \"%s\", \"ph\": \"X\", \"ts\": 1, "
                 "\"dur\": 1, \"args\": {\"%s\": ",
                 name, key);
    for (size_t i = 0; i < depth; i++)
        nfy_buf_addch(b, '[');
    for (size_t i = 0; i < depth; i++)
        nfy_buf_addch(b, ']');
    nfy_buf_addstr(b, "}}");
}

static bool diag_says(const collected *c, const char *text)
{
    for (size_t i = 0; i < c->diags.items.len; i++)
        if (strstr(c->diags.items.items[i].msg, text))
            return true;
    return false;
}

static void test_depth_limit(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT;
    nfy_buf_addch(&b, '[');
    add_deep_event(&b, "deep_dims", "Input Dims", 100000);
    nfy_buf_addstr(&b, ", ");
    add_deep_event(&b, "deep_other", "Input Strides", 100000);
    nfy_buf_addstr(&b, ", {\"name\": \"after\", \"ph\": \"X\", \"ts\": 2, "
                       "\"dur\": 1}]");
    collected c;
    assert_int_equal(read_mem(&c, b.data, b.len, 0), NFY_OK);
    assert_int_equal(c.rows.len, 2);
    assert_null(find_row(&c, "deep_dims", 0));
    assert_non_null(find_row(&c, "deep_other", 0));
    assert_non_null(find_row(&c, "after", 0));
    assert_int_equal(count_diags(&c, "trace-json"), 1);
    assert_true(diag_says(&c, "too deep"));
    collected_free(&c);
    /* Within the limit (200 levels) shapes are rendered. */
    nfy_buf_reset(&b);
    nfy_buf_addch(&b, '[');
    add_deep_event(&b, "ok", "Input Dims", 200);
    nfy_buf_addch(&b, ']');
    assert_int_equal(read_mem(&c, b.data, b.len, 0), NFY_OK);
    assert_int_equal(c.rows.len, 1);
    assert_int_equal(strlen(find_row(&c, "ok", 0)->shapes),
                     sizeof(find_row(&c, "ok", 0)->shapes) - 1);
    assert_int_equal(nfy_diags_count(&c.diags, NFY_SEV_NOTE), 0);
    collected_free(&c);
    nfy_buf_release(&b);
}

/* Shape lists in every form render as Python prints them, whether they
 * take the raw fast path or the token path (strings, literals, a list cut
 * by the 64 KiB window, errors). */
static void test_dims_forms(void **state)
{
    (void)state;
    static const struct {
        const char *json, *text;
    } cases[] = {
        {"[[1,2],[ 3 ],[]]", "[[1, 2], [3], []]"},
        {"[ [ -1 , 2.5e3 ] ,\n [ ] ]", "[[-1, 2.5e3], []]"},
        {"[[1], \"ab\", null, true]", "[[1], 'ab', None, True]"},
        {"[]", "[]"},
        {"[[0]]", "[[0]]"},
    };
    /* The first window is 2 chunks; shift the list across its end. */
    const size_t boundary = 2 * NFY_JSON_CHUNK;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t jl = strlen(cases[i].json);
        for (size_t shift = 0; shift <= jl + 1; shift++) {
            nfy_buf b = NFY_BUF_INIT;
            nfy_buf_addstr(&b, "[{\"name\": \"x\", \"ph\": \"X\", \"ts\": 1, "
                               "\"dur\": 1, \"args\": {\"pad\": \"");
            const char *key = "\", \"Input Dims\": ";
            size_t fill = boundary - shift - b.len - strlen(key);
            for (size_t k = 0; k < fill; k++)
                nfy_buf_addch(&b, 'p');
            nfy_buf_addf(&b, "%s%s}}]", key, cases[i].json);
            assert_int_equal(strstr(b.data, cases[i].json) - b.data,
                             (ptrdiff_t)(boundary - shift));
            collected c;
            assert_int_equal(read_mem(&c, b.data, b.len, 0), NFY_OK);
            assert_int_equal(c.rows.len, 1);
            assert_string_equal(c.rows.items[0].shapes, cases[i].text);
            collected_free(&c);
            nfy_buf_release(&b);
        }
    }
    static const char *const bad[] = {"[[1,,2]]", "[[1,2],]", "[[01]]",
                                      "[[1 2]]", "[[1]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nfy_buf b = NFY_BUF_INIT;
        nfy_buf_addf(&b,
                     "[{\"name\": \"x\", \"ph\": \"X\", \"ts\": 1, "
                     "\"dur\": 1, \"args\": {\"Input Dims\": %s}}, "
                     "{\"name\": \"y\", \"ph\": \"X\", \"ts\": 2, "
                     "\"dur\": 1}]",
                     bad[i]);
        collected c;
        assert_int_equal(read_mem(&c, b.data, b.len, 0), NFY_OK);
        assert_null(find_row(&c, "x", 0));
        assert_non_null(find_row(&c, "y", 0));
        assert_int_equal(count_diags(&c, "trace-json"), 1);
        collected_free(&c);
        nfy_buf_release(&b);
    }
}

/* A 20 MB name is cut at max_line with a warning; a 20 MB skipped value
 * costs nothing; the rows around are intact. */
static void test_huge_strings(void **state)
{
    (void)state;
    size_t big = (size_t)20 << 20;
    nfy_buf b;
    nfy_buf_init(&b, 0);
    nfy_buf_addstr(&b, "{\"traceEvents\": [{\"name\": \"");
    nfy_buf_reserve(&b, big * 2 + 512);
    memset(b.data + b.len, 'n', big);
    b.len += big;
    nfy_buf_addstr(&b, "\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"args\": "
                       "{\"Concrete Inputs\": [\"");
    memset(b.data + b.len, 'v', big);
    b.len += big;
    nfy_buf_addstr(&b, "\"]}}, {\"name\": \"next\", \"ph\": \"X\", \"ts\": 3,"
                       " \"dur\": 1}]}");
    collected c;
    assert_int_equal(read_mem(&c, b.data, b.len, 4096), NFY_OK);
    assert_int_equal(c.rows.len, 2);
    assert_int_equal(count_diags(&c, "trace-cut"), 1);
    assert_non_null(find_row(&c, "next", 0));
    assert_int_equal(c.rows.items[0].name[0], 'n');
    collected_free(&c);
    nfy_buf_release(&b);
}

static void test_sink_stop(void **state)
{
    (void)state;
    collected c;
    nfy_proflog_opts o = opts_for(&c);
    c.stop_after = 1;
    assert_int_equal(nfy_prof_read_trace(LEGACY_MLP, &o), NFY_OK);
    assert_int_equal(c.rows.len, 1);
    collected_free(&c);
}

/* ---- Capture (C side; tests/check_capture.sh runs real Python) -------- */

static char *make_temp_dir(void)
{
    char *dir = strdup("/tmp/npuify-test-capture-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void test_capture_c_side(void **state)
{
    (void)state;
    nfy_str tpl = nfy_prof_capture_template();
    assert_true(tpl.len > 1000);
    assert_non_null(strstr(tpl.ptr, "NPUIFY_CAPTURE_DIR"));

    nfy_diags d;
    nfy_diags_init(&d);
    nfy_capture_opts o;
    memset(&o, 0, sizeof o);
    o.diags = &d;
    nfy_capture_result res;
    assert_int_equal(nfy_prof_ops_capture(&o, &res), NFY_EUSAGE);
    nfy_prof_capture_result_release(&res);

    /* A stand-in for Python: checks what the child sees and writes a
     * trace where the sitecustomize would. */
    char *dir = make_temp_dir();
    char out[256];
    snprintf(out, sizeof out, "%s/out/sub", dir);
    char *const fake[] = {
        "sh", "-c",
        "test \"$NPUIFY_CAPTURE_PID\" = \"$$\" || exit 5; "
        "test -f \"${PYTHONPATH%%:*}/sitecustomize.py\" || exit 6; "
        "test \"$NPUIFY_CAPTURE_EVERY\" = 3 || exit 7; "
        "echo '[]' > \"$NPUIFY_CAPTURE_DIR/npuify_trace.json\"; "
        "echo t > \"$NPUIFY_CAPTURE_DIR/npuify_key_averages.txt\"; "
        "echo \"${PYTHONPATH%%:*}\" > \"$NPUIFY_CAPTURE_DIR/site\"; exit 4",
        NULL};
    o.out_dir = out;
    o.argv = fake;
    o.every_n_steps = 3;
    assert_int_equal(nfy_prof_ops_capture(&o, &res), NFY_OK);
    assert_int_equal(res.exit_code, 4);
    assert_int_equal(res.n_traces, 1);
    assert_non_null(strstr(res.trace_path, "/out/sub/npuify_trace.json"));
    assert_non_null(res.table_path);
    nfy_prof_capture_result_release(&res);
    /* The private sitecustomize directory is gone. */
    char site_file[300];
    snprintf(site_file, sizeof site_file, "%s/site", out);
    size_t n;
    char *site = slurp(site_file, &n);
    site[strcspn(site, "\n")] = '\0';
    assert_int_not_equal(access(site, F_OK), 0);
    free(site);

    /* A command that writes nothing: old outputs are not taken for new. */
    char *const quiet[] = {"sh", "-c", "exit 0", NULL};
    o.argv = quiet;
    assert_int_equal(nfy_prof_ops_capture(&o, &res), NFY_ENOENT);
    assert_int_equal(res.exit_code, 0);
    assert_null(res.trace_path);
    nfy_prof_capture_result_release(&res);

    char *const missing[] = {"/nonexistent/python3", NULL};
    o.argv = missing;
    assert_int_equal(nfy_prof_ops_capture(&o, &res), NFY_ENOENT);
    nfy_prof_capture_result_release(&res);
    assert_true(nfy_diags_count(&d, NFY_SEV_ERROR) >= 3);
    nfy_diags_release(&d);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legacy_sample),
        cmocka_unit_test(test_autograd_sample_no_steps),
        cmocka_unit_test(test_gzip_variants),
        cmocka_unit_test(test_pipe_single_pass),
        cmocka_unit_test(test_unescaped_quote),
        cmocka_unit_test(test_kineto_excerpt),
        cmocka_unit_test(test_self_time_and_nesting),
        cmocka_unit_test(test_unsorted_thread),
        cmocka_unit_test(test_device_time),
        cmocka_unit_test(test_device_map),
        cmocka_unit_test(test_steps_two_pass),
        cmocka_unit_test(test_nested_input_dims),
        cmocka_unit_test(test_dims_forms),
        cmocka_unit_test(test_malformed_resync),
        cmocka_unit_test(test_not_a_trace_and_truncated),
        cmocka_unit_test(test_after_first_document),
        cmocka_unit_test(test_cut_surrogate_at_end),
        cmocka_unit_test(test_tiny_reads),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_huge_strings),
        cmocka_unit_test(test_sink_stop),
        cmocka_unit_test(test_capture_c_side),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
