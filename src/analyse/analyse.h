/*
 * analyse: what will not work on the NPU, before anything is converted
 * (`npuify analyse`, DESIGN.md sections 1 and 4).
 *
 * The assessment reads the structure the migration passes already built:
 * nfy_analyse_observer plugs into nfy_migrate_opts (the observer sees each
 * resolved Python file once), so `convert` and `analyse` report the same
 * rows from one parse. What it adds to convert's findings:
 *  - torch APIs (NPU701 unsupported, NPU702 unknown): every name use that
 *    resolves to a torch.* name, the call sites of a local built by a torch
 *    class constructor (`m = nn.MaxPool2d(2)`; `m(x)` is torch.nn.MaxPool2d)
 *    and the methods of a local that is surely a tensor (the result of a
 *    torch factory, a parameter annotated torch.Tensor), judged against the
 *    torch API lists serving the target version (apidb);
 *  - custom operators: Python call sites of names a C++/CUDA file of the
 *    project defines (PYBIND11_MODULE m.def, TORCH_LIBRARY m.def),
 *    `torch.ops.NS.NAME` with NS defined in the project: NPU504 when the
 *    registering file has CUDA code, NPU711 when it is plain C++;
 *  - Triton kernels (NPU705): @triton.jit definitions and their launches;
 *  - dynamic shapes (NPU710, advice): data-sized ops, boolean-mask
 *    indexing, DataLoader without drop_last=True;
 * and for non-Python files (nfy_analyse_text): the C++ CUDA code of
 * extensions (NPU708) and CUDA-bound dependencies in requirement files and
 * Dockerfiles (NPU706).
 *
 * Messages and hints come from the rule set (data/rules/rules.json); a rule
 * that is disabled there emits nothing. Everything is read-only during the
 * run, so one nfy_analyse_opts serves any number of threads.
 */
#ifndef NPUIFY_ANALYSE_H
#define NPUIFY_ANALYSE_H

#include "core/core.h"
#include "migrate/migrate.h"
#include "report/report.h"
#include "rules/rules.h"

enum nfy_analyse_modes {
    NFY_ANALYSE_TORCH_APIS = 1u
                             << 0, /* NPU701/702, NPU703 on tensors, NPU710 */
    NFY_ANALYSE_EXTENSIONS = 1u << 1,   /* NPU504/NPU711/NPU705/NPU708 */
    NFY_ANALYSE_DEPENDENCIES = 1u << 2, /* NPU706 */
    NFY_ANALYSE_ALL = 0x7
};

/** Parse a --mode list ("torch_apis,extensions,dependencies", "all"). */
NFY_NODISCARD nfy_status nfy_analyse_modes_parse(const char *list,
                                                 unsigned *modes);

/* Names a project's C++/CUDA sources define for Python. */
typedef struct {
    nfy_arena arena;
    nfy_str *names;     /* "fused_gelu", "myops::gelu" (TORCH_LIBRARY ns::op) */
    const char **where; /* "csrc/ext.cpp:12" for each name */
    bool *cuda;         /* registered in a file with CUDA code (a .cu/.cuh
                           file, or one naming CUDA) */
    size_t len, cap;
    const char **cu_files; /* every .cu/.cuh scanned, in scan order */
    size_t ncu, cu_cap;
} nfy_analyse_exts;

void nfy_analyse_exts_init(nfy_analyse_exts *x);
void nfy_analyse_exts_release(nfy_analyse_exts *x);
/**
 * Collect the names src (a C/C++/CUDA file, relpath for the location)
 * defines: m.def("NAME", ...) inside PYBIND11_MODULE, and "NS::NAME" for
 * m.def("NAME(...) -> ...") / m.impl("NAME", ...) inside TORCH_LIBRARY(NS, m)
 * or TORCH_LIBRARY_IMPL(NS, k, m). Sorts and deduplicates.
 */
void nfy_analyse_exts_scan(nfy_analyse_exts *x, const nfy_source *src,
                           const char *relpath);
/**
 * Location of name in x ("file:line"), or NULL when x does not define it;
 * *cuda (may be NULL) says whether it is a CUDA operator: its registering
 * file has CUDA code, or a .cu/.cuh file lies in a subdirectory of that
 * file's directory (the kernels it dispatches to).
 */
const char *nfy_analyse_exts_find(const nfy_analyse_exts *x, nfy_str name,
                                  bool *cuda);

typedef struct nfy_analyse_opts {
    const nfy_rule_set *rules;    /* required: messages and hints */
    const char *torch_version;    /* NULL: the default shipped version */
    unsigned modes;               /* enum nfy_analyse_modes */
    const nfy_analyse_exts *exts; /* may be NULL: no project extensions */
} nfy_analyse_opts;

/* The verdict on one torch API (nfy_analyse_judge). */
typedef struct {
    bool judged;        /* false: not a torch API, or a module/class name */
    int status;         /* nfy_api_status (apidb.h) */
    const char *api;    /* the name a list decided on (a prefix of qual) */
    const char *note;   /* the list's restriction note, or NULL */
    const char *source; /* "msFmkTransplt list 2.1", "Huawei native-API
                           list 2.7.1": the list that decided, or for an
                           unknown one the list consulted */
} nfy_analyse_verdict;

/**
 * Judge qualified name qual ("torch.cdist") for torch_version (NULL: the
 * default): supported, unsupported or unknown, from the shipped lists only
 * (src/analyse/judge.c says in which order). Strings in arena. Returns
 * out->status (NFY_API_UNKNOWN also when !out->judged).
 */
int nfy_analyse_judge(const char *torch_version, nfy_str qual, nfy_arena *arena,
                      nfy_analyse_verdict *out);

/**
 * The migrate observer (ctx: a const nfy_analyse_opts *). Records the
 * Python findings of one resolved file into report; keeps its API
 * verdicts in keep (may be NULL) for the next files of the run.
 */
void nfy_analyse_python(void *ctx, const nfy_source *src, const char *relpath,
                        const nfy_pysyn *syn, const nfy_resolution *res,
                        nfy_report *report, nfy_migrate_keep *keep);

/** The migrate observer that runs nfy_analyse_python with o (which must
 *  outlive the run): what a command passes to convert for analyse's rows. */
nfy_migrate_observer nfy_analyse_observer(const nfy_analyse_opts *o);

/** Whether relpath is a file nfy_analyse_text reads (by its name). */
bool nfy_analyse_text_wanted(const char *relpath);
/** Findings of one C/C++/CUDA source, requirement file or Dockerfile. */
void nfy_analyse_text(const nfy_analyse_opts *opts, const nfy_source *src,
                      const char *relpath, nfy_report *report);

/* ---- The exact call behind a profiler frame (src/analyse/op_calls.c) ---- */

/** One call that can dispatch an operator, in the function a frame names. */
typedef struct {
    uint32_t line, col; /* of the callee's first token, both 1-based */
    uint8_t rank;       /* 0 a torch API, 1 a Tensor method, 2 another
                           same-named call; +3 for a name derived from the
                           operator's (in-place, private, namespaced) */
    nfy_str api;        /* "torch.heaviside", "Tensor.heaviside" */
    nfy_str where;      /* the function: "Net.forward", "<module>" */
} nfy_an_op_call;

/* Names tried per operator (its own and the derived ones). */
#define NFY_AN_OP_NAMES_MAX 6

/**
 * The calls in the function a with_stack frame names (func, at
 * frame_line: its def line on torch 1.x, the calling line on torch 2.x)
 * that can dispatch the aten operator op ("aten::heaviside"), best first:
 * at most cap into out. Strings live in a (or in the file). 0 when the
 * function is not in the file or nothing in it matches.
 */
size_t nfy_analyse_op_calls(const nfy_pysyn *m, const nfy_resolution *r,
                            uint32_t frame_line, nfy_str func, nfy_str op,
                            nfy_arena *a, nfy_an_op_call *out, size_t cap);
/** A Python file parsed and resolved once for many frames. */
typedef struct nfy_an_pyfile nfy_an_pyfile;
/** NULL when path cannot be read (or is too large to parse). */
nfy_an_pyfile *nfy_analyse_pyfile_open(const char *path);
/** nfy_analyse_op_calls on f; the strings are copied into a. */
size_t nfy_analyse_pyfile_op_calls(nfy_an_pyfile *f, uint32_t frame_line,
                                   nfy_str func, nfy_str op, nfy_arena *a,
                                   nfy_an_op_call *out, size_t cap);
void nfy_analyse_pyfile_close(nfy_an_pyfile *f);

#endif
