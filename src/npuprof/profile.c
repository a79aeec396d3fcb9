/*
 * The NPU profile's storage: an arena, one interned copy per distinct
 * string (kernel names and types repeat thousands of times), the host
 * operators by name, and the core-type names.
 */
#include "core/fatal.h"
#include "npuprof/npuprof.h"

static const char *const core_names[NFY_NCORE__COUNT] = {
    "OTHER", "AI_CORE", "AI_VECTOR_CORE", "AI_CPU", "MIX", "HCCL"};

const char *nfy_npuprof_core_name(nfy_npu_core c)
{
    return (unsigned)c < NFY_NCORE__COUNT ? core_names[c] : "OTHER";
}

nfy_npu_core nfy_npuprof_core_parse(nfy_str s)
{
    if (nfy_str_eq_cstr(s, "AI_CORE") || nfy_str_eq_cstr(s, "AI Core"))
        return NFY_NCORE_AI_CORE;
    if (nfy_str_eq_cstr(s, "AI_VECTOR_CORE") || nfy_str_eq_cstr(s, "AIV"))
        return NFY_NCORE_AI_VECTOR;
    if (nfy_str_eq_cstr(s, "AI_CPU") || nfy_str_eq_cstr(s, "AI CPU"))
        return NFY_NCORE_AI_CPU;
    if (nfy_str_starts_with(s, NFY_STR_LIT("MIX_")))
        return NFY_NCORE_MIX;
    if (nfy_str_contains_ci(s, "hccl") || nfy_str_eq_cstr(s, "COMMUNICATION"))
        return NFY_NCORE_HCCL;
    return NFY_NCORE_OTHER;
}

void nfy_npuprof_profile_init(nfy_npu_profile *p)
{
    memset(p, 0, sizeof *p);
    nfy_arena_init(&p->arena);
}

void nfy_npuprof_profile_release(nfy_npu_profile *p)
{
    free(p->intern);
    free(p->hostop_index);
    nfy_vec_free(&p->kernels);
    nfy_vec_free(&p->opstats);
    nfy_vec_free(&p->hostops);
    nfy_arena_release(&p->arena);
    memset(p, 0, sizeof *p);
}

static void intern_grow(nfy_npu_profile *p)
{
    size_t cap = p->intern_cap ? p->intern_cap * 2 : 256;
    nfy_str *n = calloc(cap, sizeof *n);
    if (!n)
        nfy__fatal("out of memory");
    for (size_t i = 0; i < p->intern_cap; i++) {
        if (!p->intern[i].ptr)
            continue;
        size_t j = nfy_str_hash(p->intern[i]) & (cap - 1);
        while (n[j].ptr)
            j = (j + 1) & (cap - 1);
        n[j] = p->intern[i];
    }
    free(p->intern);
    p->intern = n;
    p->intern_cap = cap;
}

nfy_str nfy_npuprof_intern(nfy_npu_profile *p, nfy_str s)
{
    if (!s.len)
        return NFY_STR_LIT("");
    if ((p->intern_len + 1) * 2 > p->intern_cap)
        intern_grow(p);
    size_t j = nfy_str_hash(s) & (p->intern_cap - 1);
    while (p->intern[j].ptr) {
        if (nfy_str_eq(p->intern[j], s))
            return p->intern[j];
        j = (j + 1) & (p->intern_cap - 1);
    }
    p->intern[j] = nfy_arena_str(&p->arena, s);
    p->intern_len++;
    return p->intern[j];
}

static void hostop_reindex(nfy_npu_profile *p)
{
    size_t cap = p->hostop_cap ? p->hostop_cap * 2 : 256;
    uint32_t *n = calloc(cap, sizeof *n);
    if (!n)
        nfy__fatal("out of memory");
    for (size_t i = 0; i < p->hostops.len; i++) {
        size_t j = nfy_str_hash(p->hostops.items[i].name) & (cap - 1);
        while (n[j])
            j = (j + 1) & (cap - 1);
        n[j] = (uint32_t)i + 1;
    }
    free(p->hostop_index);
    p->hostop_index = n;
    p->hostop_cap = cap;
}

nfy_npu_hostop *nfy_npuprof_hostop_get(nfy_npu_profile *p, nfy_str name)
{
    if ((p->hostops.len + 1) * 2 > p->hostop_cap)
        hostop_reindex(p);
    size_t j = nfy_str_hash(name) & (p->hostop_cap - 1);
    while (p->hostop_index[j]) {
        nfy_npu_hostop *h = &p->hostops.items[p->hostop_index[j] - 1];
        if (nfy_str_eq(h->name, name))
            return h;
        j = (j + 1) & (p->hostop_cap - 1);
    }
    nfy_npu_hostop h = {nfy_npuprof_intern(p, name), 0, 0, 0};
    nfy_vec_push(&p->hostops, h);
    p->hostop_index[j] = (uint32_t)p->hostops.len;
    return nfy_vec_last(&p->hostops);
}

const nfy_npu_hostop *nfy_npuprof_hostop_find(const nfy_npu_profile *p,
                                              nfy_str name)
{
    if (!p->hostop_cap)
        return NULL;
    size_t j = nfy_str_hash(name) & (p->hostop_cap - 1);
    while (p->hostop_index[j]) {
        const nfy_npu_hostop *h = &p->hostops.items[p->hostop_index[j] - 1];
        if (nfy_str_eq(h->name, name))
            return h;
        j = (j + 1) & (p->hostop_cap - 1);
    }
    return NULL;
}
