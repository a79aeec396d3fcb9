/*
 * `npuify ops NPU_DIR [--compare GPU_PROFILE]`: read an Ascend PyTorch
 * Profiler directory, say why the run is slow, and with --compare join its
 * operators with a CUDA profile's (a chrome trace or a text log, read by
 * proflog as `npuify ops` reads it). Exit 0 ok, 3 input errors (what was
 * read is still reported), 4 when the reports cannot be written.
 */
#include "cli/ops_npu.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "npuprof/npuprof.h"
#include "proflog/proflog.h"

static bool looks_like_trace(const char *path)
{
    nfy_str p = nfy_str_from_cstr(path);
    if (nfy_str_ends_with(p, NFY_STR_LIT(".json")) ||
        nfy_str_ends_with(p, NFY_STR_LIT(".json.gz")))
        return true;
    unsigned char head[64];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return nfy_prof_sniff_trace(head, n);
}

/* The GPU side into t; false on an input error. */
static bool read_gpu(const char *path, nfy_prof_table *t, nfy_diags *d)
{
    size_t before = nfy_diags_count(d, NFY_SEV_ERROR);
    nfy_proflog_opts o = {path, d, nfy_prof_table_sink, t, 0};
    if (looks_like_trace(path)) {
        (void)nfy_prof_read_trace(path, &o);
    } else {
        FILE *f = fopen(path, "rb");
        if (!f) {
            nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-io", path, 0, 0,
                            "cannot open the GPU profile");
            return false;
        }
        (void)nfy_prof_read_text(f, &o);
        fclose(f);
    }
    if (!t->rows && nfy_diags_count(d, NFY_SEV_ERROR) == before)
        nfy_diag_add_at(d, NFY_SEV_ERROR, "ops-empty", path, 0, 0,
                        "no profiler table or trace event in the GPU profile");
    return nfy_diags_count(d, NFY_SEV_ERROR) == before;
}

static void print_diags(const nfy_diags *d, bool json)
{
    nfy_buf out = NFY_BUF_INIT;
    for (size_t i = 0; i < d->items.len; i++) {
        if (d->items.items[i].sev < NFY_SEV_WARNING)
            continue;
        if (json) {
            nfy_diag_render_json(&d->items.items[i], &out);
            (void)nfy_buf_addch(&out, '\n');
        } else {
            nfy_diag_render_text(&d->items.items[i], false, &out);
        }
    }
    fputs(nfy_buf_cstr(&out), stderr);
    nfy_buf_release(&out);
}

static void print_summary(const nfy_npu_analysis *an, const nfy_npu_compare *c,
                          const char *dir)
{
    printf("npuify ops: NPU profile: %lld kernels, %.1f us of device time, "
           "%zu finding%s",
           (long long)an->kernels, an->kernel_us, an->items.len,
           an->items.len == 1 ? "" : "s");
    for (size_t i = 0; i < an->items.len; i++)
        printf("%s%s", i ? " " : ": ", an->items.items[i].code);
    printf("\n");
    if (c)
        printf("npuify ops: compared: %zu operators on both sides, %zu only "
               "on the GPU, %zu only on the NPU\n",
               c->both, c->only_gpu, c->only_npu);
    printf("npuify ops: reports in %s/\n", dir);
}

int nfy_cli_ops_npu(const nfy_cli_ops_npu_args *a)
{
    nfy_diags d;
    nfy_diags_init(&d);
    d.max = 10000;
    nfy_npu_profile p;
    nfy_npuprof_profile_init(&p);
    nfy_status st = nfy_npuprof_read_dir(&p, a->npu_dir, &d);
    bool ok = st == NFY_OK;
    bool readable = st != NFY_ENOENT;
    nfy_prof_table gpu;
    nfy_prof_table_init(&gpu);
    bool have_gpu = false;
    if (a->gpu_profile) {
        have_gpu = read_gpu(a->gpu_profile, &gpu, &d);
        ok &= have_gpu;
        nfy_prof_table_resolve_truncated(&gpu);
    }
    int rc = ok ? NFY_EXIT_OK : NFY_EXIT_INPUT;
    if (readable) {
        nfy_npu_analysis an;
        nfy_npuprof_analyse(&p, &an);
        nfy_npu_compare c;
        if (have_gpu)
            nfy_npuprof_compare_build(&gpu, &p, &c);
        st = nfy_npuprof_write_reports(&p, &an, have_gpu ? &c : NULL,
                                       a->out_dir);
        print_diags(&d, a->json_diags);
        if (st != NFY_OK) {
            fprintf(stderr,
                    "npuify ops: error[ops-io]: cannot write the "
                    "reports in %s: %s\n",
                    a->out_dir, nfy_status_str(st));
            rc = NFY_EXIT_INTERNAL;
        } else if (!a->quiet) {
            print_summary(&an, have_gpu ? &c : NULL, a->out_dir);
        }
        if (have_gpu)
            nfy_npuprof_compare_release(&c);
        nfy_npuprof_analysis_release(&an);
    } else {
        print_diags(&d, a->json_diags);
    }
    nfy_prof_table_release(&gpu);
    nfy_npuprof_profile_release(&p);
    nfy_diags_release(&d);
    return rc;
}
