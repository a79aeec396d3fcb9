/*
 * Dockerfiles and Containerfiles: CUDA base images, CUDA build settings and
 * NVIDIA packages, reported with the Ascend base-image advice by the line
 * rules of context "dockerfile" (patterns and advice in the rule registry).
 * A Dockerfile is never edited: the right Ascend image depends on the CANN
 * version and the NPU model, which only the user knows.
 */
#include "migrate/scripts.h"

/* Dockerfile comments are whole lines starting with '#' (after blanks). */
static void blank_comment_lines(char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j < n && (b[j] == ' ' || b[j] == '\t'))
            j++;
        if (j < n && b[j] == '#')
            while (j < n && b[j] != '\n')
                b[j++] = ' ';
        while (j < n && b[j] != '\n')
            j++;
        i = j; /* at the '\n' (or n): the loop steps past it */
    }
}

char *nfy_mig_dockerfile_text(const nfy_source *src)
{
    char *blanked = nfy__mig_text_copy(src);
    if (blanked == NULL)
        return NULL;
    /* Comment lines first, then RUN's shell comments and continuations. */
    blank_comment_lines(blanked, src->len);
    nfy__mig_shell_blank(blanked, src->len);
    return blanked;
}
