/*
 * Fuzz target for edit sets: the input's first bytes describe edits, the
 * rest is the source text. Checks, for any input: adding never crashes
 * (out-of-range edits are refused), normalize leaves sorted disjoint edits,
 * apply matches result_len, the inverse set restores the original exactly,
 * and the unified diff is produced without error.
 *
 * Input layout: byte 0 = number of edits (mod 16); each edit then takes 6
 * bytes: start (2, little endian), length (1), replacement length (1, mod
 * 16), and two bytes that pick the replacement's characters; the remaining
 * bytes are the text.
 *
 * Build with clang -fsanitize=fuzzer,address together with the sources of
 * src/core and src/edit; or with -DNFY_FUZZ_STANDALONE (any compiler) to get
 * a main() that replays the files named on its command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

enum { EDIT_BYTES = 6 };

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_edit: property failed: %s\n", what);
        abort();
    }
}

static void add_edits(nfy_edit_set *set, const unsigned char *p, size_t n,
                      nfy_diags *diags)
{
    static const char alphabet[] = "ab\n\r \tcuda\xc3\xa9";
    for (size_t i = 0; i < n; i++, p += EDIT_BYTES) {
        uint32_t start = (uint32_t)p[0] | (uint32_t)p[1] << 8;
        uint32_t end = start + p[2];
        char text[16];
        size_t tlen = p[3] % 16;
        for (size_t k = 0; k < tlen; k++)
            text[k] = alphabet[(p[4 + k % 2] + k) % (sizeof alphabet - 1)];
        nfy_str t = {text, tlen};
        nfy_status st = nfy_edit_set_add(set, start, end, t, "FZ", NULL, diags);
        check(st == NFY_OK || st == NFY_EUSAGE, "add status");
        check((st == NFY_OK) == (end <= set->src->len), "bounds check");
    }
}

static void check_sorted(const nfy_edit_set *set)
{
    for (size_t i = 1; i < set->edits.len; i++) {
        const nfy_edit *a = &set->edits.items[i - 1];
        const nfy_edit *b = &set->edits.items[i];
        check(a->span.start <= b->span.start, "sorted");
        check(a->span.end <= b->span.start || a->span.start == a->span.end,
              "disjoint");
    }
}

static void run(const unsigned char *data, size_t size)
{
    size_t n = size ? data[0] % 16 : 0;
    size_t head = 1 + n * EDIT_BYTES;
    if (size < head)
        return;
    nfy_source src, edited;
    if (nfy_source_from_mem(&src, "fuzz", (const char *)data + head,
                            size - head))
        return;
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_edit_set set, inv;
    nfy_edit_set_init(&set, &src);
    add_edits(&set, data + 1, n, &diags);
    (void)nfy_edit_set_normalize(&set, &diags);
    check_sorted(&set);
    nfy_buf out = NFY_BUF_INIT, back = NFY_BUF_INIT, diff = NFY_BUF_INIT;
    check(nfy_edit_set_apply(&set, &diags, &out) == NFY_OK, "apply");
    check(out.len == nfy_edit_set_result_len(&set, NULL), "result length");
    check(!nfy_source_from_mem(&edited, "edited", nfy_buf_cstr(&out), out.len),
          "edited source");
    check(nfy_edit_set_inverse(&set, &edited, &inv) == NFY_OK, "inverse");
    check(nfy_edit_set_apply(&inv, NULL, &back) == NFY_OK, "apply inverse");
    check(back.len == src.len &&
              !memcmp(nfy_buf_cstr(&back), src.data, src.len),
          "inverse restores the original");
    check(nfy_edit_set_diff(&set, "f", nfy_buf_cstr(&out), out.len, &diff) ==
              NFY_OK,
          "diff");
    check((diff.len == 0) == (out.len == src.len &&
                              !memcmp(nfy_buf_cstr(&out), src.data, src.len)),
          "empty diff iff unchanged");
    nfy_buf_release(&diff);
    nfy_buf_release(&back);
    nfy_buf_release(&out);
    nfy_edit_set_release(&inv);
    nfy_edit_set_release(&set);
    nfy_diags_release(&diags);
    nfy_source_release(&edited);
    nfy_source_release(&src);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    run(data, size);
    return 0;
}

#ifdef NFY_FUZZ_STANDALONE
/* Replay files given on the command line (no libFuzzer needed). */
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        nfy_buf b = NFY_BUF_INIT;
        if (nfy_file_read(argv[i], (size_t)1 << 26, &b)) {
            fprintf(stderr, "fuzz_edit: cannot read %s\n", argv[i]);
            return 2;
        }
        run((const unsigned char *)nfy_buf_cstr(&b), b.len);
        nfy_buf_release(&b);
    }
    return 0;
}
#endif
