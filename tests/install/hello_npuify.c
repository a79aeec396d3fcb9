/*
 * A tiny program against the installed libnpuify (tests/check_install.sh
 * builds it with `pkg-config --cflags --libs npuify`): converts SRC in
 * check mode through the public handles only and prints the number of
 * edits, the first change and the diagnostics.
 */
#include <stdio.h>

#include <npuify/npuify.h>

static void print_first_change(const nfy_report *rep)
{
    nfy_finding_info f;
    for (size_t i = 0; nfy_report_finding_get(rep, i, &f); i++) {
        if (f.cat == NFY_CAT_CHANGE) {
            printf("%s:%u: %s %s -> %s\n", f.file, f.start_line, f.rule,
                   f.before, f.after);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hello_npuify SRC\n");
        return 2;
    }
    nfy_diags *diags = nfy_diags_new();
    nfy_rule_set *rules = nfy_rule_set_new(diags);
    if (!rules)
        return 4;
    nfy_rule_info r;
    if (!nfy_rule_set_get(rules, 0, &r))
        return 4;
    nfy_convert_opts o = {0};
    o.src = argv[1];
    o.action = NFY_CONVERT_CHECK;
    o.rules = rules;
    nfy_report *rep = nfy_report_new();
    nfy_convert_stats stats;
    nfy_status st = nfy_convert_run(&o, rep, NULL, &stats, diags);
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    printf("npuify %s: status %s, %zu rules (first %s, %s), %zu files "
           "scanned, %zu edits, %zu findings\n",
           nfy_version(), nfy_status_name(st), nfy_rule_set_count(rules), r.id,
           r.safety, t.files_scanned, t.edits,
           nfy_report_finding_count(rep));
    print_first_change(rep);
    nfy_diag_info d;
    for (size_t i = 0; nfy_diags_get(diags, i, &d); i++)
        printf("%s:%u:%u: %s[%s]: %s\n", d.file ? d.file : "-", d.line,
               d.col + 1, nfy_severity_name(d.severity), d.code, d.message);
    nfy_report_free(rep);
    nfy_rule_set_free(rules);
    nfy_diags_free(diags);
    return st == NFY_OK ? 0 : 3;
}
