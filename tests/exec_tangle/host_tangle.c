/* host_tangle.c — runs tangle_exec.cl (sgcc's output) on an OpenCL device
 * and compares every slot with reference.h.
 * usage: host_tangle FILE.cl [LOCAL_SIZE [BUILD_OPTIONS]]
 * The sub-group size is read back from slot 0 (the whole sub-group).
 * Exit 0 pass, 1 mismatch, 77 no OpenCL device (skip). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "reference.h"

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

#define CHECK(call)                                                     \
    do {                                                                \
        cl_int err_ = (call);                                           \
        if (err_ != CL_SUCCESS) {                                       \
            fprintf(stderr, "%s failed: %d\n", #call, err_);             \
            return 2;                                                   \
        }                                                               \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: host_tangle FILE.cl [LOCAL_SIZE [OPTIONS]]\n", stderr);
        return 2;
    }
    int local = argc > 2 ? atoi(argv[2]) : 60, global = local * 4, limit = 5;
    const char *options = argc > 3 ? argv[3] : "";
    char *source = read_file(argv[1]);
    if (!source) {
        perror(argv[1]);
        return 2;
    }
    cl_platform_id platform;
    cl_device_id device;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        puts("no OpenCL device: skipped");
        return 77;
    }
    char name[256];
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    const char *sources[] = {source};
    cl_program program = clCreateProgramWithSource(context, 1, sources, NULL, &err);
    CHECK(err);
    if (clBuildProgram(program, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
        static char log[1 << 16];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel kernel = clCreateKernel(program, "paths", &err);
    CHECK(err);

    size_t count = (size_t)global * SLOTS * 3;
    int *got = malloc(count * sizeof *got), *expect = malloc(count * sizeof *expect);
    int *data = malloc((size_t)global * sizeof *data);
    for (int i = 0; i < global; i++)
        data[i] = tangle_data(i);
    for (size_t i = 0; i < count; i++)
        got[i] = -1;
    cl_mem out_buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    count * sizeof *got, got, &err);
    CHECK(err);
    cl_mem data_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     (size_t)global * sizeof *data, data, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof out_buf, &out_buf));
    CHECK(clSetKernelArg(kernel, 1, sizeof data_buf, &data_buf));
    CHECK(clSetKernelArg(kernel, 2, sizeof limit, &limit));
    size_t gsize = (size_t)global, lsize = (size_t)local;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &gsize, &lsize, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, out_buf, CL_TRUE, 0, count * sizeof *got, got, 0, NULL, NULL));

    int sg = got[0]; /* work-item 0: the size of the first (full) sub-group */
    tangle_expect(expect, global, local, sg, limit);
    int bad = 0, checked = 0;
    for (int gid = 0; gid < global; gid++)
        for (int slot = 0; slot < SLOTS; slot++) {
            const int *g = got + (gid * SLOTS + slot) * 3, *e = expect + (gid * SLOTS + slot) * 3;
            checked++;
            if (g[0] == e[0] && g[1] == e[1] && g[2] == e[2])
                continue;
            if (bad++ < 10)
                fprintf(stderr, "work-item %d slot %d: got size %d rank %d sum %d, expected %d %d %d\n",
                        gid, slot, g[0], g[1], g[2], e[0], e[1], e[2]);
        }
    printf("%s: sub-group %d, local %d: %d of %d slots wrong\n", name, sg, local, bad, checked);
    clReleaseMemObject(out_buf);
    clReleaseMemObject(data_buf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    free(got);
    free(expect);
    free(data);
    free(source);
    return bad ? 1 : 0;
}
