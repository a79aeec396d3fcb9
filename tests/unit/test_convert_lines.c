/*
 * Unit tests of convert's file kinds and of the line handling the shell and
 * Dockerfile line rules share: which names are Dockerfiles, and what the
 * blanked text keeps (offsets unchanged, comments and continuations gone).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "convert/convert_internal.h"

static nfy_file_kind kind(const char *name)
{
    return nfy__convert_classify(name, "", 0);
}

static void test_dockerfile_names(void **state)
{
    (void)state;
    static const char *const yes[] = {"Dockerfile",       "Dockerfile.dev",
                                      "train.Dockerfile", "Containerfile",
                                      "dockerfile",       "Containerfile.gpu"};
    static const char *const no[] = {"Dockerfiles", "MyDockerfile",
                                     "Dockerfile_old", "docker-compose.yml",
                                     "README.md"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (kind(yes[i]) != NFY_FILE_KIND_DOCKERFILE)
            fail_msg("%s should be a Dockerfile", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (kind(no[i]) == NFY_FILE_KIND_DOCKERFILE)
            fail_msg("%s is not a Dockerfile", no[i]);
    assert_int_equal(kind("run.sh"), NFY_FILE_KIND_SHELL);
    assert_int_equal(kind("train.py"), NFY_FILE_KIND_PYTHON);
}

static char *blank(const char *text, bool dockerfile)
{
    nfy_source src = {0};
    char *copy = strdup(text);
    assert_non_null(copy);
    src.data = copy;
    src.len = strlen(text);
    char *b =
        dockerfile ? nfy_mig_dockerfile_text(&src) : nfy_mig_shell_text(&src);
    free(copy);
    return b;
}

static void test_shell_blanking(void **state)
{
    (void)state;
    const char *in = "nvidia-smi # docker run --gpus\n"
                     "echo 'a # b' \\\n  --gpus all\r\n"
                     "x=1#not a comment\n";
    char *b = blank(in, false);
    assert_non_null(b);
    assert_int_equal(strlen(b), strlen(in)); /* offsets are the source's */
    assert_string_equal(b, "nvidia-smi                    \n"
                           "echo 'a # b'     --gpus all \n"
                           "x=1#not a comment\n");
    free(b);
}

static void test_dockerfile_blanking(void **state)
{
    (void)state;
    const char *in = "# FROM nvidia/cuda\n"
                     "RUN apt-get install -y \\\n"
                     "  # a comment line inside\n"
                     "  libnccl2\n";
    char *b = blank(in, true);
    assert_non_null(b);
    assert_int_equal(strlen(b), strlen(in));
    assert_null(strstr(b, "nvidia/cuda"));
    assert_null(strstr(b, "comment"));
    /* the continued RUN is one line up to the comment line's end */
    assert_non_null(strstr(b, "apt-get install -y   "));
    assert_non_null(strstr(b, "libnccl2"));
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dockerfile_names),
        cmocka_unit_test(test_shell_blanking),
        cmocka_unit_test(test_dockerfile_blanking),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
