/*
 * The pass table: every pass of a migration, one row each, read by rules
 * (which passes a rule of match "pass" may name, and the kind it takes) and
 * by migrate (the passes of a Python file, their run order and modes, and
 * their prototypes). Adding a pass is one row here plus its file.
 *
 * X(ID, name, kind, state, run, modes, host):
 *   ID     NFY_PASS_<ID>, the id a dedicated pass finds its rule by.
 *   name   what a rule's pattern names (match "pass"); a generic pass's
 *          name only shows in `npuify rules --passes`.
 *   kind   the rule kind its rules take (nfy_rule_kind without NFY_RULE_);
 *          GENERIC: no rule names it, it interprets the generic kinds.
 *   state  BUILT, or PREVIEW: named but not built, its rules never fire.
 *   run    its function, nfy__mig_pass_<run> (host REGISTRY); NONE otherwise.
 *   modes  ALL, TOOL (not under --mode auto), AUTO (only under --mode auto).
 *   host   who runs it: REGISTRY, the pass loop of migrate, in the order of
 *          this table; PASS, inside another pass of migrate (named below);
 *          PROJECT, migrate at project level; CONVERT, the convert driver;
 *          ANALYSE, src/analyse (its observer, C++ and dependency files);
 *          NONE, nothing yet (state PREVIEW).
 * Order matters: amp-used runs before strings (its findings explain the
 * literals left alone), amp-insert after insert-import (it uses torch.npu),
 * ddp-rewrite after amp-insert (its scaler wraps the same loop). Host PASS:
 * cuda-api-missing runs in names, int-device-runtime in int-device,
 * left-unchanged in strings and comments, value-set and cpu-test-cuda-path
 * in strings, cuda-guard in strings and members, amp-step in amp-insert.
 * Host PROJECT: amp-missing from amp-used's facts, global-advice. Host
 * CONVERT: launcher (convert/launcher.c), not-scanned (notebooks).
 */
#ifndef NPUIFY_RULES_PASS_TABLE_H
#define NPUIFY_RULES_PASS_TABLE_H

/* clang-format off */
#define NFY_PASS_TABLE(X)                                                                                 \
    X(IMPORTS,               "imports",               GENERIC,     BUILT, imports,        ALL,  REGISTRY) \
    X(NAMES,                 "names",                 GENERIC,     BUILT, names,          ALL,  REGISTRY) \
    X(CUDA_API_MISSING,      "cuda-api-missing",      FLAG,        BUILT, NONE,           ALL,  PASS)     \
    X(FSTRINGS,              "fstrings",              GENERIC,     BUILT, fstrings,       ALL,  REGISTRY) \
    X(MEMBERS,               "members",               GENERIC,     BUILT, members,        ALL,  REGISTRY) \
    X(MEMBER_ALIAS,          "member-alias",          REWRITE_ARG, BUILT, member_alias,   ALL,  REGISTRY) \
    X(INT_DEVICE,            "int-device",            REWRITE_ARG, BUILT, int_device,     ALL,  REGISTRY) \
    X(INT_DEVICE_RUNTIME,    "int-device-runtime",    FLAG,        BUILT, NONE,           ALL,  PASS)     \
    X(ARGS,                  "args",                  GENERIC,     BUILT, args,           ALL,  REGISTRY) \
    X(AMP_USED,              "amp-used",              FLAG,        BUILT, amp_used,       ALL,  REGISTRY) \
    X(AMP_MISSING,           "amp-missing",           FLAG,        BUILT, NONE,           ALL,  PROJECT)  \
    X(NCCL_COMPARE,          "nccl-compare",          FLAG,        BUILT, nccl_compare,   ALL,  REGISTRY) \
    X(DEVICE_CAPABILITY,     "device-capability",     FLAG,        BUILT, capability,     ALL,  REGISTRY) \
    X(AMP_MANUAL_FP16,       "amp-manual-fp16",       FLAG,        BUILT, fp16,           ALL,  REGISTRY) \
    X(CPP_EXTENSION_CU,      "cpp-extension-cu",      FLAG,        BUILT, jit_ext,        ALL,  REGISTRY) \
    X(KERNEL_LANGUAGE,       "kernel-language",       FLAG,        BUILT, kernels,        ALL,  REGISTRY) \
    X(SHELL_COMMANDS,        "shell-commands",        GENERIC,     BUILT, shell_commands, ALL,  REGISTRY) \
    X(PIN_MEMORY,            "dataloader-pin-memory", FLAG,        BUILT, pin_memory,     ALL,  REGISTRY) \
    X(AFFINITY_USER,         "affinity-user",         FLAG,        BUILT, affinity_user,  ALL,  REGISTRY) \
    X(ENV,                   "env",                   GENERIC,     BUILT, env,            TOOL, REGISTRY) \
    X(STRINGS,               "strings",               GENERIC,     BUILT, strings,        TOOL, REGISTRY) \
    X(LEFT_UNCHANGED,        "left-unchanged",        FLAG,        BUILT, NONE,           ALL,  PASS)     \
    X(VALUE_SET,             "value-set",             FLAG,        BUILT, NONE,           ALL,  PASS)     \
    X(CUDA_GUARD,            "cuda-guard",            FLAG,        BUILT, NONE,           ALL,  PASS)     \
    X(CPU_TEST_CUDA_PATH,    "cpu-test-cuda-path",    FLAG,        BUILT, NONE,           ALL,  PASS)     \
    X(COMMENTS,              "comments",              GENERIC,     BUILT, comments,       TOOL, REGISTRY) \
    X(AUTO_UNHANDLED,        "auto-unhandled",        FLAG,        BUILT, auto_unhandled, AUTO, REGISTRY) \
    X(INSERT_IMPORT,         "insert-import",         GENERIC,     BUILT, insert_import,  ALL,  REGISTRY) \
    X(AMP_INSERT,            "amp-insert",            REWRITE_ARG, BUILT, amp_insert,     ALL,  REGISTRY) \
    X(AMP_STEP,              "amp-step",              FLAG,        BUILT, NONE,           ALL,  PASS)     \
    X(DDP_REWRITE,           "ddp-rewrite",           REWRITE_ARG, BUILT, ddp,            TOOL, REGISTRY) \
    X(GLOBAL_ADVICE,         "global-advice",         FLAG,        BUILT, NONE,           ALL,  PROJECT)  \
    X(LAUNCHER,              "launcher",              FLAG,        BUILT, NONE,           ALL,  CONVERT)  \
    X(NOT_SCANNED,           "not-scanned",           FLAG,        BUILT, NONE,           ALL,  CONVERT)  \
    X(CUDA_OPS,              "cuda-ops",              FLAG,        BUILT, NONE,           ALL,  ANALYSE)  \
    X(TORCH_API_UNSUPPORTED, "torch-api-unsupported", FLAG,        BUILT, NONE,           ALL,  ANALYSE)  \
    X(TORCH_API_UNKNOWN,     "torch-api-unknown",     FLAG,        BUILT, NONE,           ALL,  ANALYSE)  \
    X(TRITON_KERNEL,         "triton-kernel",         FLAG,        BUILT, NONE,           ALL,  ANALYSE)  \
    X(DEPENDENCY,            "dependency",            FLAG,        BUILT, NONE,           ALL,  ANALYSE)  \
    X(CPP_CUDA,              "cpp-cuda",              FLAG,        BUILT, NONE,           ALL,  ANALYSE)  \
    X(DYNAMIC_SHAPE,         "dynamic-shape",         FLAG,        BUILT, NONE,           ALL,  ANALYSE)  \
    X(CPP_OP_CALL,           "cpp-op-call",           FLAG,        BUILT, NONE,           ALL,  ANALYSE)
/* clang-format on */

#endif
