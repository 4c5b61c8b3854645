/* diffrun.c — runs the kernels of one generated module (sgcgen.py ->
 * sgcc -> MOD.cl) on one OpenCL device and writes each kernel's out[] to
 * OUTDIR/<kernel>.bin for the oracle (ref_main.c) to compare.
 *
 * The program is built once per call with the manifest's spec-constant
 * bindings (-DSGC_SPEC_N=...) plus the extra options given (a forced tier
 * or emulation: -DSGC_FORCE_GENERIC, -DSGC_FORCE_TIER_WG, ...), so all the
 * kernels of a module share one device build.  Plain OpenCL: nothing of
 * sgrt is used, so a runtime bug cannot hide a compiler bug or the reverse.
 *
 * usage: diffrun [-p PLATFORM-SUBSTRING] [-o OPTIONS] MOD.manifest MOD.cl OUTDIR
 *        diffrun --has PLATFORM-SUBSTRING   (exit 0 when such a platform has a device, else 77)
 * exit: 0 every kernel ran; 2 usage/I/O; 4 the device build failed (log on
 * stderr); 5 a kernel failed to launch or run.
 * OpenCL 1.2 calls only: Oclgrind is a 1.2 implementation, and the Khronos
 * loader spins for ever in clCreateCommandQueueWithProperties on it. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_input.h"

typedef struct KernelInfo {
    char name[128];
    size_t local_size, global_size, nout;
} KernelInfo;

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = 0;
    fclose(f);
    return buf;
}

static int read_manifest(const char *path, char *options, size_t options_size, KernelInfo *ks, int cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (strncmp(line, "options ", 8) == 0)
            snprintf(options, options_size, "%s", line + 8);
        else if (strncmp(line, "kernel ", 7) == 0 && n < cap &&
                 sscanf(line + 7, "%127s %zu %zu %zu", ks[n].name, &ks[n].local_size,
                        &ks[n].global_size, &ks[n].nout) == 4)
            n++;
    }
    fclose(f);
    return n;
}

static cl_device_id pick_device(const char *want)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    clGetPlatformIDs(16, plats, &np);
    for (cl_uint i = 0; i < np; i++) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (want && !strstr(name, want))
            continue;
        cl_device_id dev;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS)
            return dev;
    }
    return NULL;
}

static int run_kernel(cl_context ctx, cl_command_queue q, cl_program prog, const KernelInfo *k,
                      const char *outdir)
{
    cl_int err;
    cl_kernel kern = clCreateKernel(prog, k->name, &err);
    if (!kern) {
        fprintf(stderr, "%s: clCreateKernel: %d\n", k->name, err);
        return 5;
    }
    size_t count = k->global_size * k->nout;
    cl_ulong *out = calloc(count, sizeof *out);
    cl_int *in = malloc(sizeof *in * k->global_size);
    for (size_t i = 0; i < k->global_size; i++)
        in[i] = diff_input((uint32_t)i);
    cl_mem bout = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, count * sizeof *out, out, &err);
    cl_mem bin = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, k->global_size * sizeof *in, in, &err);
    clSetKernelArg(kern, 0, sizeof bout, &bout);
    clSetKernelArg(kern, 1, sizeof bin, &bin);
    err = clEnqueueNDRangeKernel(q, kern, 1, NULL, &k->global_size, &k->local_size, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, bout, CL_TRUE, 0, count * sizeof *out, out, 0, NULL, NULL);
    int status = 0;
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: launch/read failed: %d\n", k->name, err);
        status = 5;
    } else {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bin", outdir, k->name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(out, sizeof *out, count, f) != count)
            status = 2;
        if (f)
            fclose(f);
    }
    clReleaseMemObject(bout);
    clReleaseMemObject(bin);
    clReleaseKernel(kern);
    free(out);
    free(in);
    return status;
}

int main(int argc, char **argv)
{
    const char *platform = NULL, *extra = "";
    if (argc == 3 && strcmp(argv[1], "--has") == 0)
        return pick_device(argv[2]) ? 0 : 77;
    int a = 1;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "-p") == 0)
            platform = argv[a + 1];
        else if (strcmp(argv[a], "-o") == 0)
            extra = argv[a + 1];
        else
            break;
    }
    if (argc - a != 3) {
        fprintf(stderr, "usage: %s [-p PLATFORM] [-o OPTIONS] MOD.manifest MOD.cl OUTDIR\n", argv[0]);
        return 2;
    }
    char options[8192] = "", all_options[16384];
    KernelInfo ks[64];
    int nk = read_manifest(argv[a], options, sizeof options, ks, 64);
    char *src = read_text(argv[a + 1]);
    if (nk < 0 || !src) {
        fprintf(stderr, "cannot read %s or %s\n", argv[a], argv[a + 1]);
        return 2;
    }
    snprintf(all_options, sizeof all_options, "%s %s", options, extra);
    cl_device_id dev = pick_device(platform);
    if (!dev) {
        fprintf(stderr, "no OpenCL device on a platform matching '%s'\n", platform ? platform : "");
        return 2;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    const char *srcs[] = {src};
    cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
    err = clBuildProgram(prog, 1, &dev, all_options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = malloc(n + 1);
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
        log[n] = 0;
        fprintf(stderr, "build failed (%d) with options '%s':\n%s\n", err, all_options, log);
        return 4;
    }
    int status = 0;
    for (int i = 0; i < nk; i++) {
        int st = run_kernel(ctx, q, prog, &ks[i], argv[a + 2]);
        if (st > status)
            status = st;
    }
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src);
    return status;
}
