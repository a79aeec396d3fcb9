/*
 * What a profiler row name is (profiler_formats.md section 4): a dispatcher
 * operator, a collective, an autograd node, a user range, a step marker,
 * compiler machinery, a device-runtime call or a device kernel. Only
 * operators (and collectives) are checked against torch_npu.
 */
#include <string.h>

#include "apidb/apidb.h"
#include "proflog/proflog.h"

const char *nfy_prof_kind_name(nfy_prof_kind k)
{
    static const char *const names[NFY_PKIND__COUNT] = {
        "operator", "communication", "autograd", "annotation",
        "step",     "compile",       "runtime",  "kernel"};
    return (unsigned)k < NFY_PKIND__COUNT ? names[k] : "?";
}

static bool starts(nfy_str s, const char *p)
{
    return nfy_str_starts_with(s, nfy_str_from_cstr(p));
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* "ns::name" with identifier parts (a trailing "..." of a cut name or an
 * ".overload" is allowed); returns the length of ns, 0 if not. */
static size_t op_namespace(nfy_str s)
{
    size_t i = 0;
    while (i < s.len && is_ident_char(s.ptr[i]))
        i++;
    if (i == 0 || i + 2 >= s.len || s.ptr[i] != ':' || s.ptr[i + 1] != ':')
        return 0;
    for (size_t j = i + 2; j < s.len; j++)
        if (!is_ident_char(s.ptr[j]) && s.ptr[j] != '.' && s.ptr[j] != ':')
            return 0;
    return i;
}

/* "AddmmBackward0", "CudnnConvolutionBackward": a capitalised identifier
 * ending in Backward + digits. */
static bool is_backward_node(nfy_str s)
{
    size_t e = s.len;
    while (e > 0 && s.ptr[e - 1] >= '0' && s.ptr[e - 1] <= '9')
        e--;
    nfy_str head = nfy_str_slice(s, 0, e);
    if (!nfy_str_ends_with(head, NFY_STR_LIT("Backward")))
        return false;
    for (size_t i = 0; i < s.len; i++)
        if (!is_ident_char(s.ptr[i]))
            return false;
    return s.len && s.ptr[0] >= 'A' && s.ptr[0] <= 'Z';
}

/* cudaLaunchKernel, cuLaunchKernel, hipMemcpy, aclrtMalloc, aclopCompile. */
static bool is_runtime(nfy_str s)
{
    static const char *const pre[] = {"cuda", "cu",  "hip", "aclrt",
                                      "acl",  "xpu", "ze",  "nvtx"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
        size_t n = strlen(pre[i]);
        if (s.len > n && !memcmp(s.ptr, pre[i], n) && s.ptr[n] >= 'A' &&
            s.ptr[n] <= 'Z')
            return true;
    }
    return false;
}

static bool is_kernel(nfy_str s)
{
    static const char *const pre[] = {
        "void ",   "Memcpy ",  "Memset ",  "ampere_",       "volta_",
        "turing_", "hopper_",  "sm80_",    "sm90_",         "sm86_",
        "cutlass", "memset32", "memcpy32", "at::native::",  "cudnn::",
        "gemm",    "gemv",     "nchw",     "std::enable_if"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (starts(s, pre[i]))
            return true;
    return false;
}

static bool is_bare_lower(nfy_str s)
{
    if (!s.len || !(s.ptr[0] == '_' || (s.ptr[0] >= 'a' && s.ptr[0] <= 'z')))
        return false;
    for (size_t i = 0; i < s.len; i++)
        if (!is_ident_char(s.ptr[i]))
            return false;
    return true;
}

static nfy_prof_kind classify_namespaced(nfy_str name, size_t nslen)
{
    nfy_str ns = nfy_str_slice(name, 0, nslen);
    if (nfy_str_eq_cstr(ns, "c10d") || nfy_str_eq_cstr(ns, "pg") ||
        nfy_str_eq_cstr(ns, "hccl") || nfy_str_eq_cstr(ns, "nccl"))
        return NFY_PKIND_COMM;
    if (nfy_str_eq_cstr(ns, "inductor") || nfy_str_eq_cstr(ns, "triton"))
        return NFY_PKIND_COMPILE;
    if (nfy_str_eq_cstr(ns, "autograd") || nfy_str_eq_cstr(ns, "torch"))
        return NFY_PKIND_AUTOGRAD;
    if (nfy_str_eq_cstr(ns, "profiler"))
        return NFY_PKIND_ANNOTATION;
    return NFY_PKIND_OP;
}

nfy_prof_kind nfy_prof_classify(nfy_str name)
{
    if (starts(name, "ProfilerStep"))
        return NFY_PKIND_STEP;
    if (starts(name, "autograd::") || starts(name, "torch::autograd::") ||
        is_backward_node(name))
        return NFY_PKIND_AUTOGRAD;
    if (starts(name, "pg::") || starts(name, "nccl:") ||
        starts(name, "gloo:") || starts(name, "hccl:") ||
        starts(name, "record_param_comms"))
        return NFY_PKIND_COMM;
    size_t ns = op_namespace(name);
    if (ns)
        return classify_namespaced(name, ns);
    if (starts(name, "Torch-Compiled Region") ||
        starts(name, "CompiledFunction") || starts(name, "TorchDynamo") ||
        starts(name, "triton_") || starts(name, "Compiled"))
        return NFY_PKIND_COMPILE;
    if (is_runtime(name))
        return NFY_PKIND_RUNTIME;
    if (is_kernel(name))
        return NFY_PKIND_KERNEL;
    if (is_bare_lower(name) &&
        nfy_apidb_op_status(NULL, name, NULL) != NFY_OP_UNKNOWN)
        return NFY_PKIND_OP;
    return NFY_PKIND_ANNOTATION;
}

nfy_str nfy_prof_qualified(nfy_arena *a, nfy_str name)
{
    if (op_namespace(name) || !is_bare_lower(name))
        return name;
    char *q = nfy_arena_fmt(a, "aten::%.*s", NFY_STR_FMT(name));
    return nfy_str_from_cstr(q);
}
