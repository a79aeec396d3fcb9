/*
 * libFuzzer target for the whole per-file conversion: pylex, pysyn, resolve
 * and every migration pass over any bytes, with the built-in rules. Checks,
 * for any input: no crash or sanitizer report, the edit set applies, and
 * converting the output again changes nothing (idempotence, the property
 * the corpus suite checks on real files). The flags cycle through the
 * modes (default, --amp, --mode auto, --unsafe) by the input's length so
 * that every pass is reached.
 * Seeds: the scripts of examples/ and the golden cases' in/ trees (fuzz/run.sh
 * copies them into the working corpus).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"
#include "migrate/migrate.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_migrate: property failed: %s\n", what);
        abort();
    }
}

/* One conversion of text; returns the converted text in out. */
static size_t convert_once(const nfy_migrate_opts *mo, const char *text,
                           size_t len, nfy_buf *out)
{
    nfy_source src;
    if (nfy_source_from_mem(&src, "fuzz.py", text, len))
        return 0;
    nfy_edit_set es;
    nfy_edit_set_init(&es, &src);
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_migrate_info info;
    nfy_status st = nfy_mig_file(mo, &src, "fuzz.py", &es, &rep, &info, &diags);
    check(st == NFY_OK || st == NFY_ELIMIT, "migrate status");
    check(nfy_edit_set_apply(&es, &diags, out) == NFY_OK, "apply");
    size_t n = es.edits.len;
    nfy_diags_release(&diags);
    nfy_report_release(&rep);
    nfy_edit_set_release(&es);
    nfy_source_release(&src);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned modes[] = {0, NFY_MIGRATE_AMP, NFY_MIGRATE_AUTO,
                                     NFY_MIGRATE_UNSAFE | NFY_MIGRATE_AMP};
    /* Built once: the catalogue is read-only during migration. */
    static nfy_rule_set *rules;
    if (!rules)
        rules = nfy_rule_set_new(NULL);
    check(rules != NULL, "built-in rules");
    nfy_migrate_opts mo = {rules, NULL, modes[size % 4]};
    nfy_buf first = NFY_BUF_INIT, second = NFY_BUF_INIT;
    size_t edits = convert_once(&mo, (const char *)data, size, &first);
    if (edits) {
        size_t again =
            convert_once(&mo, nfy_buf_cstr(&first), first.len, &second);
        if (again) {
            fprintf(stderr, "--- first output:\n%.*s\n", (int)first.len,
                    nfy_buf_cstr(&first));
            check(false, "second conversion changed the output");
        }
    }
    nfy_buf_release(&second);
    nfy_buf_release(&first);
    return 0;
}
