/* ref_main.c — runs the oracle sgcgen.py wrote for one module (MOD_ref.c,
 * linked with this file) and compares it with what a device computed.
 *
 * usage: MOD_ref DIR   (DIR/<kernel>.bin: the device's out[] of each kernel,
 *                       written by diffrun or the CUDA runner)
 * For kernels that use sub-groups the sub-group size S is taken from the
 * device (slot 1 of work-item 0: its sub-group's local range) and every
 * work-item's shape (slots 1..3) is then checked against the SPEC's rule
 * (consecutive linear local ids, blocks of S) like any other value.
 * exit: 0 all equal; 1 a mismatch (the first ones printed); 3 the oracle
 * found the generated program invalid (a generator bug, not sgcc's); 2 usage
 * or I/O. */
#include "diff_input.h"
#include "diff_shim.h"

int hg_generator_error, hg_device_error;

static ulong *read_all(const char *path, size_t count)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    ulong *buf = calloc(count, sizeof *buf);
    size_t got = fread(buf, sizeof *buf, count, f);
    fclose(f);
    if (got != count) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int check_kernel(const RefKernel *k, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", dir, k->name);
    size_t count = (size_t)k->global_size * k->nout;
    ulong *dev = read_all(path, count);
    if (!dev) {
        printf("%s: no device output (%s)\n", k->name, path);
        return 2;
    }
    int *in = malloc(sizeof *in * (size_t)k->global_size);
    for (int i = 0; i < k->global_size; i++)
        in[i] = diff_input((uint32_t)i);
    int S = k->uses_sub_groups ? (int)dev[1] : 1;
    if (k->uses_sub_groups && (S < 1 || S > 64 || (k->reqd_sub_group_size && S != k->reqd_sub_group_size &&
                                                   S < k->local_size))) {
        printf("%s: device sub-group size %d is not possible here\n", k->name, S);
        free(dev), free(in);
        return 1;
    }
    ulong *want = calloc(count, sizeof *want);
    /* slots past the fixed four are opportunistic memberships, checked by the model */
    for (size_t i = 0; i < count; i++)
        if (i % (size_t)k->nout >= 4)
            want[i] = dev[i];
    hg_generator_error = hg_device_error = 0;
    k->fn(want, dev, in, S);
    int status = 0, shown = 0;
    if (hg_generator_error)
        status = 3;
    else if (hg_device_error)
        status = 1;
    for (size_t i = 0; i < count && status != 3; i++)
        if (want[i] != dev[i]) {
            if (shown++ < 4)
                printf("%s: work-item %zu slot %zu: expected 0x%lx got 0x%lx\n", k->name, i / k->nout,
                       i % k->nout, want[i], dev[i]);
            status = 1;
        }
    if (shown > 4)
        printf("%s: %d differing values in all\n", k->name, shown);
    free(dev), free(in), free(want);
    return status;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s DIR [KERNEL]\n", argv[0]);
        return 2;
    }
    int worst = 0;
    for (int i = 0; i < ref_kernel_count; i++) {
        if (argc == 3 && strcmp(argv[2], ref_kernels[i].name) != 0)
            continue;
        int st = check_kernel(&ref_kernels[i], argv[1]);
        if (st == 3 || (st > worst && worst != 3))
            worst = st;
        if (st == 0)
            printf("%s: ok\n", ref_kernels[i].name);
    }
    return worst;
}
