/*
 * A tiny program against the installed libnpuify (tests/check_install.sh
 * builds it with `pkg-config --cflags --libs npuify`): converts SRC in
 * check mode and prints the number of edits and the first change.
 */
#include <stdio.h>

#include <npuify/convert.h>
#include <npuify/report.h>
#include <npuify/rules.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hello_npuify SRC\n");
        return 2;
    }
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_rule_set *rules = nfy_rule_set_new(&diags);
    if (!rules)
        return 4;
    nfy_convert_opts o = {0};
    o.src = argv[1];
    o.action = NFY_CONVERT_CHECK;
    o.rules = rules;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_convert_stats stats;
    nfy_status st = nfy_convert_run(&o, &rep, NULL, &stats, &diags);
    nfy_report_totals t;
    nfy_report_totals_get(&rep, &t);
    printf("status %s, %zu rules, %zu files scanned, %zu edits\n",
           nfy_status_name(st), nfy_rule_set_count(rules), t.files_scanned,
           t.edits);
    for (size_t i = 0; i < rep.findings.len; i++) {
        const nfy_finding *f = &rep.findings.items[i];
        if (f->cat == NFY_CAT_CHANGE) {
            printf("%s:%u: %s %s -> %s\n", f->file, f->start_line, f->rule,
                   f->before, f->after);
            break;
        }
    }
    nfy_report_release(&rep);
    nfy_rule_set_free(rules);
    nfy_diags_release(&diags);
    return st == NFY_OK ? 0 : 3;
}
