/*
 * Which edits need an inserted import: an edit of an insert-import rule
 * ("import M" or "from M import N") is needed by every other edit of the
 * same file whose new text uses the name it binds (M's first part, or N),
 * and for torch_npu by every edit whose new text names the NPU device or
 * HCCL backend that importing torch_npu registers (torch.npu, .npu(),
 * "npu:0", "hccl").
 */
#include <string.h>

#include "review/review.h"

/* What importing a module makes available beyond its own name. */
static const struct {
    const char *module;
    const char *names[3];
} REGISTERS[] = {
    {"torch_npu", {"npu", "hccl", NULL}},
};

static bool is_ident(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* Does text use name as a whole identifier? */
static bool uses_name(const char *text, size_t n, const char *name, size_t k)
{
    for (size_t i = 0; k && i + k <= n; i++) {
        if (memcmp(text + i, name, k))
            continue;
        if ((i == 0 || !is_ident(text[i - 1])) &&
            (i + k == n || !is_ident(text[i + k])))
            return true;
    }
    return false;
}

/* Does text hold sub anywhere (inside identifiers and strings too)? */
static bool holds(const char *text, size_t n, const char *sub)
{
    size_t k = strlen(sub);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(text + i, sub, k))
            return true;
    return false;
}

/* The name "import M" / "from M import N" binds, and its module. */
static bool import_binds(const char *stmt, nfy_str *name, nfy_str *module)
{
    while (*stmt == ' ' || *stmt == '\t' || *stmt == ';' || *stmt == '\n' ||
           *stmt == '\r')
        stmt++;
    const char *p;
    if (!strncmp(stmt, "import ", 7)) {
        p = stmt + 7;
        size_t m = strcspn(p, " \t\r\n;,");
        *module = (nfy_str){p, m};
        *name = (nfy_str){p, strcspn(p, ". \t\r\n;,")};
        return name->len > 0;
    }
    if (strncmp(stmt, "from ", 5))
        return false;
    p = stmt + 5;
    *module = (nfy_str){p, strcspn(p, " \t\r\n;")};
    const char *imp = strstr(p, " import ");
    if (!imp)
        return false;
    imp += 8;
    *name = (nfy_str){imp, strcspn(imp, " \t\r\n;,")};
    return name->len > 0;
}

bool nfy_review_edit_is_import(const nfy_rule_set *rules, const char *rule)
{
    const nfy_rule *r = rules && rule ? nfy_rules_set_find(rules, rule) : NULL;
    return r && r->kind == NFY_RULE_INSERT_IMPORT;
}

bool nfy_review_edit_needs_import(const char *import_text, const char *text,
                                  size_t n)
{
    nfy_str name, module;
    if (!import_text || !text || !import_binds(import_text, &name, &module))
        return false;
    char buf[256];
    if (name.len >= sizeof buf)
        return false;
    memcpy(buf, name.ptr, name.len);
    buf[name.len] = '\0';
    if (uses_name(text, n, buf, name.len))
        return true;
    for (size_t i = 0; i < sizeof REGISTERS / sizeof *REGISTERS; i++) {
        if (!nfy_str_eq(module, nfy_str_from_cstr(REGISTERS[i].module)))
            continue;
        for (const char *const *s = REGISTERS[i].names; *s; s++)
            if (holds(text, n, *s))
                return true;
    }
    return false;
}
