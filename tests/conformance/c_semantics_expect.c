/* c_semantics_expect.c — writes the input and the host reference of the
 * c_semantics conformance case (cases.c, compiled as C17 by the host C
 * compiler) as two files of native int32s, for the CUDA run of the case
 * (gpu_run.sh), which has no C compiler in the loop: a .cu host is C++,
 * where sizeof('a') is 1.
 *   usage: c_semantics_expect IN_FILE EXPECTED_FILE
 * Exit: 0 written, 2 usage or I/O. */
#include "conform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_all(const char *path, const void *data, size_t bytes)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, bytes, f) == bytes;
    if (f && fclose(f) != 0)
        ok = 0;
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: c_semantics_expect IN_FILE EXPECTED_FILE\n");
        return 2;
    }
    const Case *c = NULL;
    for (size_t i = 0; i < conform_case_count; i++)
        if (strcmp(conform_cases[i].name, "c_semantics") == 0)
            c = &conform_cases[i];
    if (!c)
        return 2;
    int32_t *in = calloc(c->in_count, sizeof *in);
    int32_t *want = malloc(c->out_count * sizeof *want);
    if (!in || !want)
        return 2;
    for (size_t i = 0; i < c->in_count; i++)
        in[i] = (int32_t)conform_input_value(c->in_type, i);
    memset(want, 0xA5, c->out_count * sizeof *want);
    c->reference(c, in, want);
    int ok = write_all(argv[1], in, c->in_count * sizeof *in) &&
             write_all(argv[2], want, c->out_count * sizeof *want);
    free(in);
    free(want);
    printf("c_semantics: %zu work-items of %zu, in groups of %zu\n", c->global_size,
           c->out_count / c->global_size, c->local_size);
    return ok ? 0 : 2;
}
