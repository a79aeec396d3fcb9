/* Which files convert scans: Python sources, notebooks, shell launchers,
 * Dockerfiles. */
#include <string.h>

#include "convert/convert_internal.h"

static bool has_suffix(const char *name, const char *suffix)
{
    return nfy_str_ends_with(nfy_str_from_cstr(name),
                             nfy_str_from_cstr(suffix));
}

/* The interpreter named on a "#!" line, e.g. "python3" or "bash". */
static nfy_str shebang_program(const char *head, size_t n)
{
    if (n < 2 || head[0] != '#' || head[1] != '!')
        return (nfy_str){"", 0};
    size_t end = 2;
    while (end < n && head[end] != '\n' && head[end] != '\r')
        end++;
    nfy_str line = {head + 2, end - 2};
    /* "/usr/bin/env python3 -u" -> "python3"; "/bin/bash" -> "bash". */
    size_t i = 0, start = 0;
    nfy_str word = {"", 0};
    while (i < line.len) {
        while (i < line.len && (line.ptr[i] == ' ' || line.ptr[i] == '\t'))
            i++;
        start = i;
        while (i < line.len && line.ptr[i] != ' ' && line.ptr[i] != '\t')
            i++;
        word = nfy_str_slice(line, start, i);
        ptrdiff_t slash;
        while ((slash = nfy_str_find_char(word, '/')) >= 0)
            word = nfy_str_slice(word, (size_t)slash + 1, word.len);
        if (!nfy_str_eq_cstr(word, "env"))
            break;
    }
    return word;
}

/* Dockerfile, Containerfile, x.Dockerfile, Dockerfile.dev, ... */
static bool is_dockerfile(const char *name)
{
    static const char *const bases[] = {"Dockerfile", "Containerfile",
                                        "dockerfile", "containerfile"};
    nfy_str n = nfy_str_from_cstr(name);
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        nfy_str b = nfy_str_from_cstr(bases[i]);
        if (nfy_str_eq(n, b) ||
            (nfy_str_starts_with(n, b) && n.ptr[b.len] == '.') ||
            (nfy_str_ends_with(n, b) && n.len > b.len &&
             n.ptr[n.len - b.len - 1] == '.'))
            return true;
    }
    return false;
}

bool nfy__convert_kind_needs_head(const char *name)
{
    return !is_dockerfile(name) && !strchr(name, '.');
}

nfy_file_kind nfy__convert_classify(const char *name, const char *head,
                                    size_t head_len)
{
    if (is_dockerfile(name))
        return NFY_FILE_KIND_DOCKERFILE;
    if (has_suffix(name, ".py") || has_suffix(name, ".pyw"))
        return NFY_FILE_KIND_PYTHON;
    if (has_suffix(name, ".ipynb"))
        return NFY_FILE_KIND_NOTEBOOK;
    if (has_suffix(name, ".sh") || has_suffix(name, ".bash"))
        return NFY_FILE_KIND_SHELL;
    if (strchr(name, '.'))
        return NFY_FILE_KIND_OTHER;
    nfy_str prog = shebang_program(head, head_len);
    if (nfy_str_starts_with(prog, NFY_STR_LIT("python")))
        return NFY_FILE_KIND_PYTHON;
    if (nfy_str_eq_cstr(prog, "sh") || nfy_str_eq_cstr(prog, "bash") ||
        nfy_str_eq_cstr(prog, "zsh") || nfy_str_eq_cstr(prog, "dash"))
        return NFY_FILE_KIND_SHELL;
    return NFY_FILE_KIND_OTHER;
}
