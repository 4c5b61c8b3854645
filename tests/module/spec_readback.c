/* spec_readback.c — runs kernel `dump(global float *f, global double *d,
 * global long *l)` of an emitted OpenCL C file on one OpenCL platform with
 * NO build options, so every spec constant takes the default the source
 * spells, and prints what the device wrote, bit for bit:
 *   f INDEX 0xBITS   (uint32 of each float)
 *   d INDEX 0xBITS   (uint64 of each double)
 *   l INDEX VALUE    (each integer, widened to long)
 * Raw OpenCL, no sgrt: this checks the emitted source, not the runtime.
 * Usage: spec_readback FILE.cl PLATFORM_SUBSTRING NF ND NL
 * Exit 77 when no platform's name contains PLATFORM_SUBSTRING. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc(1, (size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

static cl_device_id find_device(const char *want)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < count; i++) {
        char name[256] = "";
        cl_device_id dev;
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, want) &&
            clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS)
            return dev;
    }
    return NULL;
}

#define CHECK(what, call)                                                    \
    do {                                                                     \
        cl_int err_ = (call);                                                \
        if (err_ != CL_SUCCESS) {                                            \
            fprintf(stderr, "%s failed: %d\n", what, (int)err_);             \
            return 1;                                                        \
        }                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: spec_readback FILE.cl PLATFORM NF ND NL\n");
        return 2;
    }
    size_t nf = strtoul(argv[3], NULL, 10), nd = strtoul(argv[4], NULL, 10);
    size_t nl = strtoul(argv[5], NULL, 10);
    char *source = read_file(argv[1]);
    cl_device_id dev = find_device(argv[2]);
    if (!source)
        return 2;
    if (!dev)
        return 77;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK("clCreateCommandQueue", err);
    const char *text = source;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    CHECK("clCreateProgramWithSource", err);
    if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "dump", &err);
    CHECK("clCreateKernel", err);
    size_t sizes[3] = {nf * sizeof(float), nd * sizeof(double), nl * sizeof(int64_t)};
    cl_mem bufs[3];
    for (int i = 0; i < 3; i++) {
        bufs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizes[i] ? sizes[i] : 8, NULL, &err);
        CHECK("clCreateBuffer", err);
        CHECK("clSetKernelArg", clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[i]));
    }
    size_t one = 1;
    CHECK("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
    uint32_t *f = calloc(nf + 1, 4);
    uint64_t *d = calloc(nd + 1, 8);
    int64_t *l = calloc(nl + 1, 8);
    void *host[3] = {f, d, l};
    for (int i = 0; i < 3; i++)
        if (sizes[i])
            CHECK("clEnqueueReadBuffer",
                  clEnqueueReadBuffer(q, bufs[i], CL_TRUE, 0, sizes[i], host[i], 0, NULL, NULL));
    for (size_t i = 0; i < nf; i++)
        printf("f %zu 0x%08" PRIx32 "\n", i, f[i]);
    for (size_t i = 0; i < nd; i++)
        printf("d %zu 0x%016" PRIx64 "\n", i, d[i]);
    for (size_t i = 0; i < nl; i++)
        printf("l %zu %" PRId64 "\n", i, l[i]);
    for (int i = 0; i < 3; i++) {
        clReleaseMemObject(bufs[i]);
        free(host[i]);
    }
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(source);
    return 0;
}
