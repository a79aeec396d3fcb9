/*
 * Huawei's lists in English: the restriction notes through the shipped
 * translation table (data/npu/restriction_notes_en.tsv, the original kept
 * beside it) and the product codes of the native-API lists in words.
 */
#include <stdio.h>
#include <string.h>

#include "apidb/apidb_data.h"

const char *nfy_apidb_note_english(nfy_str note, bool *partial)
{
    const nfy__apidb_row *r =
        nfy__apidb_find_in(nfy__apidb_fam(NFY__FAM_NOTES_EN), note, 0);
    const char *how = r ? nfy__apidb_field(r, 1) : NULL;
    if (partial)
        *partial = how != NULL && strcmp(how, "partial") == 0;
    return r ? nfy__apidb_field_opt(r, 0) : NULL;
}

/* The product a code of the native-API lists names (their header: A2/A3 =
 * Atlas A2/A3 training series, 950DT = Ascend 950DT). */
static const char *product_name(const char *code, size_t n)
{
    static const struct {
        const char *code, *name;
    } products[] = {{"A2", "Atlas A2 training series"},
                    {"A3", "Atlas A3 training series"},
                    {"950DT", "Ascend 950DT"}};
    for (size_t i = 0; i < sizeof products / sizeof products[0]; i++)
        if (strlen(products[i].code) == n &&
            memcmp(products[i].code, code, n) == 0)
            return products[i].name;
    return NULL;
}

const char *nfy_apidb_products_english(const char *products, char *out,
                                       size_t n)
{
    size_t used = 0;
    if (n == 0)
        return out;
    out[0] = '\0';
    for (const char *p = products; p != NULL && *p != '\0';) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        const char *name = eq ? product_name(p, (size_t)(eq - p)) : NULL;
        const char *verdict = NULL;
        if (eq && (size_t)(eq - p) + 2 == len)
            verdict = eq[1] == 'Y' ? "yes" : eq[1] == 'N' ? "no" : NULL;
        int w = name && verdict ? snprintf(out + used, n - used, "%s%s: %s",
                                           used ? ", " : "", name, verdict)
                                : snprintf(out + used, n - used, "%s%.*s",
                                           used ? ", " : "", (int)len, p);
        if (w < 0 || (size_t)w >= n - used)
            break; /* cut: what fits stays */
        used += (size_t)w;
        p = comma ? comma + 1 : NULL;
    }
    return out;
}
