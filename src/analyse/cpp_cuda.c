/*
 * NPU708: CUDA code in the C++/CUDA sources of an extension, one finding
 * per construct and line: kernel launches (<<<...>>>), __global__ kernels,
 * CUDA checks (.is_cuda(), CUDAGuard), CUDA headers, and at::cuda:: /
 * c10::cuda:: APIs (with torch_npu's C++ counterpart when apidb names one).
 * Comments are skipped; the text is otherwise read as is. A file lists at
 * most CUDA_FINDINGS_MAX of them and then one line that counts the rest,
 * so a generated 100 MB .cu gives a readable report, not gigabytes.
 */
#include <string.h>

#include "analyse/an_internal.h"

static const struct {
    const char *text;
    const char *what;
} constructs[] = {
    {"<<<", "CUDA kernel launch"},
    {"__global__", "CUDA kernel"},
    {".is_cuda()", "CUDA device check"},
    {"CUDAGuard", "CUDA device guard"},
    {"#include <cuda", "CUDA header"},
    {"#include \"cuda", "CUDA header"},
    {"#include <ATen/cuda/", "ATen CUDA header"},
    {"#include <c10/cuda/", "c10 CUDA header"},
};

enum { CUDA_FINDINGS_MAX = 1000 };

/* What a file has listed, and what it found past the cap. */
typedef struct {
    size_t listed, more;
    nfy_span first_more;
} cuda_tally;

/* One construct: listed while under the cap, else counted. */
static void emit(an_ctx *c, cuda_tally *t, nfy_span sp, const char *api,
                 const char *detail, const char *npu)
{
    if (t->listed < CUDA_FINDINGS_MAX) {
        t->listed++;
        nfy__analyse_emit(c, "NPU708", sp, api, detail, npu);
    } else if (t->more++ == 0) {
        t->first_more = sp;
    }
}

static void emit_summary(an_ctx *c, const cuda_tally *t)
{
    if (t->more == 0)
        return;
    nfy__analyse_emit(
        c, "NPU708", t->first_more, "(not listed)",
        nfy_arena_fmt(c->arena,
                      "%zu more CUDA constructs from this line on, not "
                      "listed (at most %d a file)",
                      t->more, CUDA_FINDINGS_MAX),
        NULL);
}

static bool ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_' || ch == ':';
}

/* at::cuda::X / c10::cuda::X at line offset i: its full name, with the
 * torch_npu counterpart. */
static void cuda_api(an_ctx *c, cuda_tally *t, size_t i, size_t line_end)
{
    const char *s = c->src->data;
    size_t e = i;
    while (e < line_end && ident_char(s[e]))
        e++;
    nfy_span sp = {(uint32_t)i, (uint32_t)e};
    if (t->listed >= CUDA_FINDINGS_MAX) {
        emit(c, t, sp, NULL, NULL, NULL);
        return;
    }
    char *name = nfy_arena_strndup(c->arena, s + i, e - i);
    const char *npu = nfy_apidb_cpp_npu_equivalent(nfy_str_from_cstr(name));
    emit(c, t, sp, name,
         npu ? nfy_arena_fmt(c->arena, "CUDA API; torch_npu has %s", npu)
             : "CUDA API",
         npu);
}

static void scan_line(an_ctx *c, cuda_tally *t, size_t b, size_t e)
{
    const char *s = c->src->data;
    for (size_t k = 0; k < sizeof constructs / sizeof constructs[0]; k++) {
        size_t n = strlen(constructs[k].text);
        for (size_t i = b; i + n <= e; i++)
            if (memcmp(s + i, constructs[k].text, n) == 0) {
                emit(c, t, (nfy_span){(uint32_t)i, (uint32_t)(i + n)},
                     constructs[k].text, constructs[k].what, NULL);
                break;
            }
    }
    for (size_t i = b; i + 10 <= e; i++)
        if ((i == b || !ident_char(s[i - 1])) &&
            (memcmp(s + i, "at::cuda::", 10) == 0 ||
             (i + 11 <= e && memcmp(s + i, "c10::cuda::", 11) == 0))) {
            cuda_api(c, t, i, e);
            break;
        }
}

/* The first needle in [p, p + n), or NULL. */
static const char *find_in(const char *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(p + i, needle, k) == 0)
            return p + i;
    return NULL;
}

void nfy__analyse_cpp_cuda(an_ctx *c)
{
    const char *s = c->src->data;
    size_t n = c->src->len;
    bool in_block = false;
    cuda_tally t = {0, 0, {0, 0}};
    for (size_t b = 0; b < n;) {
        size_t e = b;
        while (e < n && s[e] != '\n')
            e++;
        size_t code_b = b, code_e = e;
        if (in_block) {
            const char *close = find_in(s + b, e - b, "*/");
            if (close == NULL)
                code_e = code_b; /* the whole line is comment */
            else {
                in_block = false;
                code_b = (size_t)(close - s) + 2;
            }
        }
        const char *line_comment = find_in(s + code_b, code_e - code_b, "//");
        if (line_comment)
            code_e = (size_t)(line_comment - s);
        const char *open = find_in(s + code_b, code_e - code_b, "/*");
        if (open) {
            in_block = find_in(open, (size_t)(s + code_e - open), "*/") == NULL;
            code_e = (size_t)(open - s);
        }
        scan_line(c, &t, code_b, code_e);
        b = e + 1;
    }
    emit_summary(c, &t);
}
