/*
 * The pass registry: every pass of a Python file, in run order. A
 * dedicated pass is the one rules name by match "pass" (rules.h,
 * NFY_PASS_MAP: name, rule kind, state); it finds its rule by that id,
 * never by a string. Passes without an id interpret the generic rule
 * kinds. Some dedicated passes run inside another: int-device-runtime in
 * int-device, left-unchanged in strings and comments, cuda-api-missing in
 * names, amp-missing and global-advice at project level (migrate.c).
 */
#include "migrate/migrate.h"
#include "migrate/pass.h"

typedef enum {
    MIG_RUN_ALL,      /* tool and --mode auto */
    MIG_RUN_TOOL,     /* not under --mode auto */
    MIG_RUN_AUTO_ONLY /* only under --mode auto */
} mig_pass_modes;

typedef struct {
    const char *name; /* a generic pass's name; NULL: the registry's */
    nfy_pass_id pass; /* NFY_PASS_NONE for a generic pass */
    void (*run)(mig_ctx *c);
    mig_pass_modes modes; /* the modes it runs in */
} mig_pass_row;

static const mig_pass_row rows[] = {
    {"imports", NFY_PASS_NONE, mig_pass_imports, MIG_RUN_ALL},
    {"names", NFY_PASS_NONE, mig_pass_names, MIG_RUN_ALL},
    {"fstrings", NFY_PASS_NONE, mig_pass_fstrings, MIG_RUN_ALL},
    {"members", NFY_PASS_NONE, mig_pass_members, MIG_RUN_ALL},
    {NULL, NFY_PASS_MEMBER_ALIAS, mig_pass_member_alias, MIG_RUN_ALL},
    {NULL, NFY_PASS_INT_DEVICE, mig_pass_int_device, MIG_RUN_ALL},
    {"args", NFY_PASS_NONE, mig_pass_args, MIG_RUN_ALL},
    /* before strings: their findings explain the literals left alone */
    {NULL, NFY_PASS_AMP_USED, mig_pass_amp_used, MIG_RUN_ALL},
    {NULL, NFY_PASS_NCCL_COMPARE, mig_pass_nccl_compare, MIG_RUN_ALL},
    {NULL, NFY_PASS_DEVICE_CAPABILITY, mig_pass_capability, MIG_RUN_ALL},
    {NULL, NFY_PASS_AMP_MANUAL_FP16, mig_pass_fp16, MIG_RUN_ALL},
    {NULL, NFY_PASS_CPP_EXTENSION_CU, mig_pass_jit_ext, MIG_RUN_ALL},
    {NULL, NFY_PASS_KERNEL_LANGUAGE, mig_pass_kernels, MIG_RUN_ALL},
    {"shell-commands", NFY_PASS_NONE, mig_pass_shell_commands, MIG_RUN_ALL},
    {NULL, NFY_PASS_PIN_MEMORY, mig_pass_pin_memory, MIG_RUN_ALL},
    {NULL, NFY_PASS_AFFINITY_USER, mig_pass_affinity_user, MIG_RUN_ALL},
    {"env", NFY_PASS_NONE, mig_pass_env, MIG_RUN_TOOL},
    {"strings", NFY_PASS_NONE, mig_pass_strings, MIG_RUN_TOOL},
    {"comments", NFY_PASS_NONE, mig_pass_comments, MIG_RUN_TOOL},
    {NULL, NFY_PASS_AUTO_UNHANDLED, mig_pass_auto_unhandled, MIG_RUN_AUTO_ONLY},
    {"insert-import", NFY_PASS_NONE, mig_pass_insert_import, MIG_RUN_ALL},
    /* after torch_npu's import: it uses torch.npu */
    {NULL, NFY_PASS_AMP_INSERT, mig_pass_amp_insert, MIG_RUN_ALL},
    /* after amp-insert: its scaler wraps the same loop */
    {NULL, NFY_PASS_DDP_REWRITE, mig_pass_ddp, MIG_RUN_TOOL},
};

/* Dedicated passes run inside another pass or at project level. */
static const nfy_pass_id hosted[] = {
    NFY_PASS_INT_DEVICE_RUNTIME, /* in int-device */
    NFY_PASS_LEFT_UNCHANGED,     /* in strings and comments */
    NFY_PASS_VALUE_SET,          /* in strings */
    NFY_PASS_CUDA_GUARD,         /* in strings and members */
    NFY_PASS_CPU_TEST_CUDA_PATH, /* in strings */
    NFY_PASS_CUDA_API_MISSING,   /* in names (NPU201's fallback) */
    NFY_PASS_AMP_MISSING,        /* amp-used, then project level */
    NFY_PASS_AMP_STEP,           /* in amp-insert */
    NFY_PASS_GLOBAL_ADVICE,      /* project level */
    NFY_PASS_LAUNCHER,           /* convert, after the walk (launcher.c) */
    NFY_PASS_NOT_SCANNED,        /* convert, notebooks (notebook.c) */
    /* src/analyse, run by the migrate observer (analyse, and convert's
     * torch-API rows) and on C++/dependency files */
    NFY_PASS_CUDA_OPS,
    NFY_PASS_TORCH_API_UNSUPPORTED,
    NFY_PASS_TORCH_API_UNKNOWN,
    NFY_PASS_TRITON_KERNEL,
    NFY_PASS_DEPENDENCY,
    NFY_PASS_CPP_CUDA,
    NFY_PASS_DYNAMIC_SHAPE,
    NFY_PASS_CPP_OP_CALL,
};

bool nfy_migrate_runs_pass(nfy_pass_id pass)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].pass == pass && pass != NFY_PASS_NONE)
            return true;
    for (size_t i = 0; i < sizeof hosted / sizeof hosted[0]; i++)
        if (hosted[i] == pass)
            return true;
    return false;
}

void mig_run_passes(mig_ctx *c)
{
    bool autom = (c->p->flags & MIG_F_AUTO) != 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].modes == MIG_RUN_ALL ||
            (rows[i].modes == MIG_RUN_AUTO_ONLY) == autom)
            rows[i].run(c);
}
