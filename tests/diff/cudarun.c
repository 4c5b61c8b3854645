/* cudarun.c — the CUDA twin of diffrun.c: runs the kernels of one generated
 * module, compiled by nvcc from sgcc's CUDA output to MOD.cubin (with the
 * manifest's -DSGC_SPEC_N options), and writes each kernel's out[] to
 * OUTDIR/<kernel>.bin for the oracle (ref_main.c).  CUDA driver API only.
 *
 * usage: cudarun MOD.manifest MOD.cubin OUTDIR
 * exit: 0 every kernel ran; 2 usage/I/O/no device; 5 a kernel failed.  A
 * kernel missing from the cubin (sgcc leaves out kernels CUDA cannot run,
 * e.g. reqd_sub_group_size(16)) is reported and skipped. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_input.h"

static int check(CUresult r, const char *what, const char *name)
{
    if (r == CUDA_SUCCESS)
        return 0;
    const char *msg = "?";
    cuGetErrorString(r, &msg);
    fprintf(stderr, "%s: %s: %s\n", name, what, msg);
    return 1;
}

static int run_kernel(CUmodule mod, const char *name, size_t local, size_t global, size_t nout,
                      const char *outdir)
{
    CUfunction fn;
    if (cuModuleGetFunction(&fn, mod, name) != CUDA_SUCCESS) {
        fprintf(stderr, "%s: not in the cubin (left out by sgcc?), skipped\n", name);
        return 0;
    }
    size_t count = global * nout;
    unsigned long long *out = calloc(count, sizeof *out);
    int *in = malloc(sizeof *in * global);
    for (size_t i = 0; i < global; i++)
        in[i] = diff_input((uint32_t)i);
    CUdeviceptr dout = 0, din = 0;
    int bad = check(cuMemAlloc(&dout, count * sizeof *out), "cuMemAlloc", name) ||
              check(cuMemAlloc(&din, global * sizeof *in), "cuMemAlloc", name) ||
              check(cuMemcpyHtoD(dout, out, count * sizeof *out), "copy", name) ||
              check(cuMemcpyHtoD(din, in, global * sizeof *in), "copy", name);
    void *args[] = {&dout, &din};
    if (!bad)
        bad = check(cuLaunchKernel(fn, (unsigned)(global / local), 1, 1, (unsigned)local, 1, 1, 0, NULL,
                                   args, NULL), "launch", name) ||
              check(cuCtxSynchronize(), "run", name) ||
              check(cuMemcpyDtoH(out, dout, count * sizeof *out), "copy back", name);
    if (!bad) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", outdir, name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(out, sizeof *out, count, f) != count)
            bad = 1;
        if (f)
            fclose(f);
    }
    if (dout)
        cuMemFree(dout);
    if (din)
        cuMemFree(din);
    free(out);
    free(in);
    return bad ? 5 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s MOD.manifest MOD.cubin OUTDIR\n", argv[0]);
        return 2;
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    if (check(cuInit(0), "cuInit", "cudarun") || check(cuDeviceGet(&dev, 0), "cuDeviceGet", "cudarun"))
        return 2;
    /* gpu_campaign.sh runs many of these at once: wait for a kernel by
     * blocking, not by spinning a core the compilers need.  (Ignored when the
     * primary context is already active.) */
    cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_BLOCKING_SYNC);
    if (check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain", "cudarun") ||
        check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent", "cudarun") ||
        check(cuModuleLoad(&mod, argv[2]), "cuModuleLoad", argv[2]))
        return 2;
    FILE *f = fopen(argv[1], "r");
    if (!f)
        return 2;
    char line[4096], name[128];
    size_t local, global, nout;
    int status = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "kernel %127s %zu %zu %zu", name, &local, &global, &nout) == 4) {
            int st = run_kernel(mod, name, local, global, nout, argv[3]);
            if (st > status)
                status = st;
        }
    fclose(f);
    cuModuleUnload(mod);
    cuDevicePrimaryCtxRelease(dev);
    return status;
}
