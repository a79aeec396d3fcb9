/*
 * analyse --deps: the installed third-party packages the project imports,
 * found by asking the target Python (importlib.util.find_spec: the
 * module's __file__ without running its code), each analysed for its torch
 * API use like the project itself, its rows named "deps:NAME/FILE". Huawei's
 * guide notes that torch APIs called through third-party libraries escape
 * its own analysis; this is that case.
 */
#include "cli/analyse_deps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert/convert.h"
#include "core/spawn.h"

/* Prints NAME<TAB>DIR-OR-FILE for each top-level module imported by a .py
 * under argv[1] that is neither the project's own, the standard library,
 * nor torch or torch_npu themselves. */
static const char finder[] =
    "import ast, importlib.util, os, sys, sysconfig\n"
    "root = sys.argv[1]\n"
    "names = set()\n"
    "for d, ds, fs in os.walk(root):\n"
    "    ds[:] = [x for x in ds if x not in ('.git', '__pycache__')]\n"
    "    for f in fs:\n"
    "        if not f.endswith('.py'): continue\n"
    "        try:\n"
    "            t = ast.parse(open(os.path.join(d, f), 'rb').read())\n"
    "        except Exception:\n"
    "            continue\n"
    "        for n in ast.walk(t):\n"
    "            if isinstance(n, ast.Import):\n"
    "                names.update(a.name.split('.')[0] for a in n.names)\n"
    "            elif isinstance(n, ast.ImportFrom) and not n.level and "
    "n.module:\n"
    "                names.add(n.module.split('.')[0])\n"
    "local = set()\n"
    "for d, ds, fs in os.walk(root):\n"
    "    ds[:] = [x for x in ds if x not in ('.git', '__pycache__')]\n"
    "    local.update(ds)\n"
    "    local.update(f[:-3] for f in fs if f.endswith('.py'))\n"
    "std = set(getattr(sys, 'stdlib_module_names', ())) | "
    "set(sys.builtin_module_names)\n"
    "stdlib = sysconfig.get_paths()['stdlib']\n"
    "skip = {'torch', 'torch_npu', '__future__'}\n"
    "for name in sorted(names - local - std - skip):\n"
    "    try:\n"
    "        spec = importlib.util.find_spec(name)\n"
    "    except Exception:\n"
    "        continue\n"
    "    if spec is None or not spec.origin or spec.origin in ('built-in', "
    "'frozen'):\n"
    "        continue\n"
    "    path = spec.origin\n"
    "    if spec.submodule_search_locations:\n"
    "        path = os.path.dirname(path)\n"
    "    if path.startswith(stdlib + os.sep) and 'packages' not in path:\n"
    "        continue\n"
    "    if not (path.endswith('.py') or os.path.isdir(path)):\n"
    "        continue\n"
    "    print(name + '\\t' + path)\n";

/* Run python -c finder SRC; its stdout into out. */
static bool ask_python(const char *python, const char *src, nfy_buf *out)
{
    char *const argv[] = {(char *)python, (char *)"-c", (char *)finder,
                          (char *)src, NULL};
    nfy_spawn_opts o = {.argv = argv, .output = NFY_SPAWN_CAPTURE};
    nfy_spawn_result r;
    nfy_spawn(&o, out, &r);
    return r.started && r.status == 0;
}

/* Copy the torch-API rows of dep into rep, named deps:NAME/FILE. */
static void take_rows(nfy_report *rep, const nfy_report *dep, const char *name)
{
    nfy_arena a = NFY_ARENA_INIT;
    for (size_t i = 0; i < nfy_report_finding_count(dep); i++) {
        nfy_finding f;
        nfy_report_finding_read(dep, i, &f);
        if (f.rule == NULL ||
            (strcmp(f.rule, "NPU701") != 0 && strcmp(f.rule, "NPU702") != 0))
            continue;
        f.file = nfy_arena_fmt(&a, "deps:%s/%s", name, f.file ? f.file : "");
        nfy_report_add_finding(rep, &f);
    }
    nfy_arena_release(&a);
}

size_t nfy_cli_analyse_deps(const char *python, const char *src,
                            const nfy_analyse_opts *ao, nfy_report *rep,
                            nfy_diags *diags)
{
    nfy_buf out = NFY_BUF_INIT;
    if (!ask_python(python, src, &out)) {
        nfy_diag_add_at(diags, NFY_SEV_WARNING, "analyse-deps", NULL, 0, 0,
                        "--deps: %s could not list the installed packages",
                        python);
        nfy_buf_release(&out);
        return 0;
    }
    nfy_analyse_opts dep_opts = *ao;
    dep_opts.modes = NFY_ANALYSE_TORCH_APIS;
    dep_opts.exts = NULL;
    size_t ndeps = 0;
    char *line = (char *)nfy_buf_cstr(&out);
    for (char *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        nfy_report dep;
        nfy_report_init(&dep);
        nfy_diags ddiags;
        nfy_diags_init(&ddiags);
        nfy_convert_opts co = {0};
        co.src = tab + 1;
        co.action = NFY_CONVERT_CHECK;
        co.torch_version = ao->torch_version;
        co.rules = ao->rules;
        nfy_migrate_observer observer = nfy_analyse_observer(&dep_opts);
        nfy_convert_hooks hooks = {&observer, NULL};
        nfy_convert_stats stats;
        if (nfy_convert_run_with(&co, &hooks, &dep, NULL, &stats, &ddiags) ==
            NFY_OK) {
            take_rows(rep, &dep, line);
            nfy_report_logf(rep, NULL, "--deps: %s (%s): %zu files", line,
                            tab + 1, stats.files_scanned);
            ndeps++;
        }
        nfy_diags_release(&ddiags);
        nfy_report_release(&dep);
    }
    nfy_buf_release(&out);
    return ndeps;
}
