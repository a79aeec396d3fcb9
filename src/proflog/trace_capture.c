/*
 * nfy_prof_ops_capture: run a command with the profiler switched on from
 * outside (see src/proflog/capture.h). The Python side is the embedded
 * sitecustomize.py; this file makes the private directory it lives in,
 * starts the command with PYTHONPATH and the NPUIFY_CAPTURE_* variables set
 * (in the child only, after fork), waits, cleans up and collects what the
 * command wrote.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/spawn.h"
#include "proflog/capture.h"

/* From $(BUILD)/gen/capture_data.c (mk/capture.mk). */
extern const unsigned char nfy__capture_sitecustomize[];
extern const size_t nfy__capture_sitecustomize_len;

#define TEMPLATE_NAME "sitecustomize.py"

nfy_str nfy_prof_capture_template(void)
{
    return (nfy_str){(const char *)nfy__capture_sitecustomize,
                     nfy__capture_sitecustomize_len};
}

static void diag(const nfy_capture_opts *o, nfy_severity sev, const char *code,
                 const char *what, const char *detail)
{
    if (o->diags)
        nfy_diag_add_at(o->diags, sev, code, NULL, 0, 0, "capture: %s%s%s",
                        what, detail ? ": " : "", detail ? detail : "");
}

static nfy_status write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return nfy_status_from_errno(errno);
        p += w;
        n -= (size_t)w;
    }
    return NFY_OK;
}

/* A fresh 0700 directory holding sitecustomize.py; its path in dir. */
static nfy_status make_site_dir(char *dir, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    int n = snprintf(dir, cap, "%s/npuify-capture-XXXXXX", tmp);
    if (n < 0 || (size_t)n >= cap)
        return NFY_ELIMIT;
    if (!mkdtemp(dir))
        return nfy_status_from_errno(errno);
    char file[PATH_MAX];
    n = snprintf(file, sizeof file, "%s/%s", dir, TEMPLATE_NAME);
    if (n < 0 || (size_t)n >= sizeof file)
        return NFY_ELIMIT;
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return nfy_status_from_errno(errno);
    nfy_str t = nfy_prof_capture_template();
    nfy_status st = write_all(fd, t.ptr, t.len);
    if (close(fd) != 0 && !st)
        st = NFY_EIO;
    return st;
}

/* Delete dir's plain files (and its __pycache__), then dir itself. */
static void remove_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (n < 0 || (size_t)n >= sizeof path)
            continue;
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && depth < 2)
            remove_tree(path, depth + 1);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static bool is_output_name(const char *name, bool traces_only)
{
    nfy_str s = nfy_str_from_cstr(name);
    bool trace = nfy_str_starts_with(s, NFY_STR_LIT("npuify_trace")) &&
                 nfy_str_ends_with(s, NFY_STR_LIT(".json"));
    if (traces_only)
        return trace;
    return trace ||
           (nfy_str_starts_with(s, NFY_STR_LIT("npuify_kineto_trace")) &&
            nfy_str_ends_with(s, NFY_STR_LIT(".json"))) ||
           (nfy_str_starts_with(s, NFY_STR_LIT("npuify_key_averages")) &&
            nfy_str_ends_with(s, NFY_STR_LIT(".txt")));
}

/* Our output names from an earlier run would be taken for this run's. */
static void remove_old_outputs(const char *out)
{
    DIR *d = opendir(out);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_output_name(e->d_name, false))
            continue;
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s/%s", out, e->d_name);
        if (n > 0 && (size_t)n < sizeof path)
            unlink(path);
    }
    closedir(d);
}

extern char **environ;

typedef NFY_VEC(char *) cstr_vec;

static void free_cstrs(cstr_vec *v)
{
    for (size_t i = 0; i < v->len; i++)
        free(v->items[i]);
    nfy_vec_free(v);
}

static char *fmt_dup(const char *fmt, const char *a, const char *b)
{
    nfy_buf buf = NFY_BUF_INIT;
    nfy_buf_addf(&buf, fmt, a, b);
    return nfy_buf_take(&buf, NULL);
}

/* The child's environment: ours with PYTHONPATH and NPUIFY_CAPTURE_*
 * replaced. Built before fork, so the child only calls execve. */
static void build_env(const nfy_capture_opts *o, const char *site_dir,
                      const char *out, cstr_vec *env)
{
    static const char *const ours[] = {
        "PYTHONPATH=", "NPUIFY_CAPTURE_DIR=", "NPUIFY_CAPTURE_PID=",
        "NPUIFY_CAPTURE_EVERY=", "NPUIFY_CAPTURE_ALL="};
    for (char **e = environ; e && *e; e++) {
        bool replaced = false;
        for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
            replaced |= strncmp(*e, ours[i], strlen(ours[i])) == 0;
        if (!replaced)
            nfy_vec_push(env, fmt_dup("%s%s", *e, ""));
    }
    const char *old = getenv("PYTHONPATH");
    nfy_vec_push(env,
                 fmt_dup(old && *old ? "PYTHONPATH=%s:%s" : "PYTHONPATH=%s%s",
                         site_dir, old && *old ? old : ""));
    nfy_vec_push(env, fmt_dup("NPUIFY_CAPTURE_DIR=%s%s", out, ""));
    char every[32];
    snprintf(every, sizeof every, "%u", o->every_n_steps);
    nfy_vec_push(env, fmt_dup("NPUIFY_CAPTURE_EVERY=%s%s", every, ""));
    nfy_vec_push(env, fmt_dup("NPUIFY_CAPTURE_ALL=%s%s",
                              o->all_processes ? "1" : "0", ""));
    /* NPUIFY_CAPTURE_PID is added by the child, which knows its pid:
     * the slot is reserved here and filled without allocating. */
    nfy_vec_push(
        env, fmt_dup("NPUIFY_CAPTURE_PID=%s%s", "00000000000000000000", ""));
    nfy_vec_push(env, (char *)NULL);
}

/* argv[0] looked up on PATH as execvp would; NULL if not found. */
static char *resolve_command(const char *cmd)
{
    if (strchr(cmd, '/'))
        return access(cmd, X_OK) == 0 ? fmt_dup("%s%s", cmd, "") : NULL;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        nfy_buf b = NFY_BUF_INIT;
        nfy_buf_add(&b, n ? path : ".", n ? n : 1);
        nfy_buf_addf(&b, "/%s", cmd);
        char *full = nfy_buf_take(&b, NULL);
        struct stat st;
        if (access(full, X_OK) == 0 && stat(full, &st) == 0 &&
            S_ISREG(st.st_mode))
            return full;
        free(full);
        path += n + (colon ? 1 : 0);
    }
    return NULL;
}

/* Write the decimal pid over the reserved digits of the environment slot
 * at ctx (async-signal-safe: it runs in the child). */
static void put_pid(void *ctx)
{
    char *digits = strchr(ctx, '=') + 1;
    char tmp[24];
    size_t n = 0;
    for (unsigned long v = (unsigned long)getpid(); n == 0 || v; v /= 10)
        tmp[n++] = (char)('0' + v % 10);
    for (size_t i = 0; i < n; i++)
        digits[i] = tmp[n - 1 - i];
    digits[n] = '\0';
}

/* Run and wait; SIGINT/SIGQUIT go to the child only meanwhile. Returns
 * the exit code, or -1 (reported) when the command could not start. */
static int run_and_wait(const nfy_capture_opts *o, const char *site_dir,
                        const char *out)
{
    char *exe = resolve_command(o->argv[0]);
    if (!exe) {
        diag(o, NFY_SEV_ERROR, "capture-exec", "command not found", o->argv[0]);
        return -1;
    }
    cstr_vec env = {NULL, 0, 0};
    build_env(o, site_dir, out, &env);
    nfy_spawn_opts so = {.argv = o->argv,
                         .exe = exe,
                         .envp = env.items,
                         .leave_interrupts = true,
                         .exec_error = "npuify: cannot run the capture command",
                         .in_child = put_pid,
                         .ctx = env.items[env.len - 2]};
    nfy_spawn_result r;
    nfy_spawn(&so, NULL, &r);
    int code = r.status;
    if (!r.started) {
        diag(o, NFY_SEV_ERROR, "capture-exec", "fork failed", strerror(r.err));
        code = -1;
    }
    free(exe);
    free_cstrs(&env);
    return code;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name)
{
    nfy_buf b = NFY_BUF_INIT;
    nfy_buf_addf(&b, "%s/%s", dir, name);
    return nfy_buf_take(&b, NULL);
}

static void collect_outputs(const char *out, nfy_capture_result *res)
{
    DIR *d = opendir(out);
    if (!d)
        return;
    NFY_VEC(char *) traces = {NULL, 0, 0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (is_output_name(e->d_name, true))
            nfy_vec_push(&traces, join(out, e->d_name));
    closedir(d);
    if (traces.len)
        qsort(traces.items, traces.len, sizeof *traces.items, cmp_cstr);
    res->trace_paths = traces.items;
    res->n_traces = traces.len;
    res->trace_path = traces.len ? traces.items[0] : NULL;
    char *table = join(out, "npuify_key_averages.txt");
    if (access(table, R_OK) == 0)
        res->table_path = table;
    else
        free(table);
}

nfy_status nfy_prof_ops_capture(const nfy_capture_opts *o,
                                nfy_capture_result *res)
{
    memset(res, 0, sizeof *res);
    res->exit_code = 127;
    if (!o->argv || !o->argv[0] || !o->out_dir || !*o->out_dir) {
        diag(o, NFY_SEV_ERROR, "capture-usage",
             "needs an output directory and a command after --", NULL);
        return NFY_EUSAGE;
    }
    char out[PATH_MAX], site[PATH_MAX];
    if (nfy_mkdirs(o->out_dir, 0777) || !realpath(o->out_dir, out)) {
        diag(o, NFY_SEV_ERROR, "capture-io",
             "cannot create the output directory", o->out_dir);
        return NFY_EIO;
    }
    nfy_status st = make_site_dir(site, sizeof site);
    if (st) {
        diag(o, NFY_SEV_ERROR, "capture-io",
             "cannot create a temporary directory", nfy_status_str(st));
        remove_tree(site, 0);
        return NFY_EIO;
    }
    remove_old_outputs(out);
    int code = run_and_wait(o, site, out);
    remove_tree(site, 0);
    if (code < 0)
        return NFY_ENOENT;
    res->exit_code = code;
    collect_outputs(out, res);
    if (!res->n_traces) {
        char how[64];
        if (code > 128)
            snprintf(how, sizeof how, "was killed by signal %d", code - 128);
        else
            snprintf(how, sizeof how, "exited with status %d", code);
        if (o->diags)
            nfy_diag_add_at(o->diags, NFY_SEV_ERROR, "capture-no-trace", NULL,
                            0, 0,
                            "capture: %s %s and wrote no trace (not a Python "
                            "program, torch not importable, or os._exit)",
                            o->argv[0], how);
        return NFY_ENOENT;
    }
    if (res->exit_code != 0 && o->diags)
        nfy_diag_add_at(o->diags, NFY_SEV_WARNING, "capture-exit", NULL, 0, 0,
                        "capture: %s exited with status %d; analysing what "
                        "it profiled",
                        o->argv[0], res->exit_code);
    return NFY_OK;
}

void nfy_prof_capture_result_release(nfy_capture_result *res)
{
    for (size_t i = 0; i < res->n_traces; i++)
        free(res->trace_paths[i]);
    free(res->trace_paths);
    free(res->table_path);
    memset(res, 0, sizeof *res);
}
