/* conform_host.c — conformance harness: runs one SGC case, translated to
 * OpenCL C by sgcc at build time, on one OpenCL platform (through the ICD
 * loader), and compares its output buffer with a host reference written
 * independently in C from the SPEC rules.
 *
 * Adding a case (two steps):
 *   1. cases/<name>.sgc with one kernel
 *          kernel void test(global OUT *out, global const IN *in)
 *      (other kernels may exist; `test` is the one run), 1-D launch.
 *   2. in cases.c, a reference function and one row of conform_cases[]:
 *      name, IN/OUT element types and counts, global and local size, build
 *      options (spec-constant values: "-DSGC_SPEC_0=16"), optionally the
 *      compile work-group size the kernel must report.  Then add <name> to
 *      the `conformance_cases` list in meson.build; it becomes one test per
 *      platform (conformance-<name>-intel, -pocl) plus an nvcc compile check
 *      of its CUDA output when nvcc is found.
 * The input is conform_input_value() (small exact values); the output
 * buffer starts filled with a sentinel byte, which the reference sees too.
 *
 * usage: conform -p PLATFORM-SUBSTRING -d DIR CASE
 * Exit: 0 pass, 1 mismatch or error, 77 platform missing, or the device
 * refused the case with sgcc's "not supported on this device" #error
 * (e.g. sub-groups on PoCL 3.1): a clean skip, reported as such. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_SKIP = 77, SENTINEL = 0xA5 };

static size_t elem_size(ElemType t)
{
    return t == E_INT || t == E_UINT || t == E_FLOAT ? 4 : 8;
}

static void store(ElemType t, void *buf, size_t i, double v)
{
    switch (t) {
    case E_INT: ((int32_t *)buf)[i] = (int32_t)v; break;
    case E_UINT: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case E_LONG: ((int64_t *)buf)[i] = (int64_t)v; break;
    case E_ULONG: ((uint64_t *)buf)[i] = (uint64_t)v; break;
    case E_FLOAT: ((float *)buf)[i] = (float)v; break;
    case E_DOUBLE: ((double *)buf)[i] = v; break;
    }
}

/* One element as text, for mismatch reports. */
static void format_elem(ElemType t, const void *buf, size_t i, char *text, size_t size)
{
    switch (t) {
    case E_INT: snprintf(text, size, "%d", ((const int32_t *)buf)[i]); break;
    case E_UINT: snprintf(text, size, "%u", ((const uint32_t *)buf)[i]); break;
    case E_LONG: snprintf(text, size, "%lld", (long long)((const int64_t *)buf)[i]); break;
    case E_ULONG: snprintf(text, size, "%llu", (unsigned long long)((const uint64_t *)buf)[i]); break;
    case E_FLOAT: snprintf(text, size, "%a", ((const float *)buf)[i]); break;
    case E_DOUBLE: snprintf(text, size, "%a", ((const double *)buf)[i]); break;
    }
}

static const Case *find_case(const char *name)
{
    for (size_t i = 0; i < conform_case_count; i++)
        if (strcmp(conform_cases[i].name, name) == 0)
            return &conform_cases[i];
    return NULL;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text) {
        text[size] = '\0';
        *len = (size_t)size;
    }
    return text;
}

/* The first device of the first platform whose name contains `want`. */
static cl_device_id find_device(const char *want, char *platform_name, size_t size)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < count && i < 16; i++) {
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, size, platform_name, NULL);
        if (!strstr(platform_name, want))
            continue;
        cl_device_id dev;
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS)
            return dev;
    }
    return NULL;
}

typedef struct Run {
    cl_context ctx;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernel;
    cl_mem in, out;
} Run;

static void release(Run *r)
{
    if (r->in) clReleaseMemObject(r->in);
    if (r->out) clReleaseMemObject(r->out);
    if (r->kernel) clReleaseKernel(r->kernel);
    if (r->program) clReleaseProgram(r->program);
    if (r->queue) clReleaseCommandQueue(r->queue);
    if (r->ctx) clReleaseContext(r->ctx);
}

/* Builds the program; EXIT_SKIP when the device refuses it through sgcc's
 * "not supported on this device" #error. */
static int build(Run *r, cl_device_id dev, const Case *c, const char *source, size_t len)
{
    cl_int err;
    r->program = clCreateProgramWithSource(r->ctx, 1, &source, &len, &err);
    if (err != CL_SUCCESS)
        return EXIT_FAIL;
    err = clBuildProgram(r->program, 1, &dev, c->build_options ? c->build_options : "", NULL, NULL);
    if (err == CL_SUCCESS)
        return EXIT_PASS;
    size_t log_len = 0;
    clGetProgramBuildInfo(r->program, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);
    char *log = calloc(1, log_len + 1);
    if (log)
        clGetProgramBuildInfo(r->program, dev, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
    int status = log && strstr(log, "not supported on this device") ? EXIT_SKIP : EXIT_FAIL;
    printf("%s: build %s (%d):\n%s\n", c->name, status == EXIT_SKIP ? "refused by the device" : "failed",
           err, log ? log : "");
    free(log);
    return status;
}

static int compare(const Case *c, const void *got, const void *want)
{
    size_t es = elem_size(c->out_type), bad = 0;
    for (size_t i = 0; i < c->out_count; i++) {
        if (memcmp((const char *)got + i * es, (const char *)want + i * es, es) == 0)
            continue;
        if (bad++ < 10) {
            char g[64], w[64];
            format_elem(c->out_type, got, i, g, sizeof g);
            format_elem(c->out_type, want, i, w, sizeof w);
            printf("%s: out[%zu] = %s, expected %s\n", c->name, i, g, w);
        }
    }
    if (bad)
        printf("%s: %zu of %zu elements differ\n", c->name, bad, c->out_count);
    return bad ? EXIT_FAIL : EXIT_PASS;
}

static int check_compile_wg_size(const Run *r, cl_device_id dev, const Case *c)
{
    if (!c->compile_wg_size)
        return EXIT_PASS;
    size_t wg[3] = {0, 0, 0};
    clGetKernelWorkGroupInfo(r->kernel, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL);
    if (wg[0] == c->compile_wg_size)
        return EXIT_PASS;
    printf("%s: compile work-group size %zu x %zu x %zu, expected %zu x 1 x 1\n", c->name, wg[0], wg[1],
           wg[2], c->compile_wg_size);
    return EXIT_FAIL;
}

static int run_case(cl_device_id dev, const Case *c, const char *source, size_t len)
{
    Run r = {0};
    cl_int err;
    size_t in_bytes = c->in_count * elem_size(c->in_type), out_bytes = c->out_count * elem_size(c->out_type);
    void *in = malloc(in_bytes), *got = malloc(out_bytes), *want = malloc(out_bytes);
    int status = EXIT_FAIL;
    if (!in || !got || !want)
        goto done;
    for (size_t i = 0; i < c->in_count; i++)
        store(c->in_type, in, i, conform_input_value(c->in_type, i));
    memset(got, SENTINEL, out_bytes);
    memset(want, SENTINEL, out_bytes);
    r.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        goto done;
    r.queue = clCreateCommandQueue(r.ctx, dev, 0, &err);
    if (err != CL_SUCCESS || (status = build(&r, dev, c, source, len)) != EXIT_PASS)
        goto done;
    status = EXIT_FAIL;
    r.kernel = clCreateKernel(r.program, "test", &err);
    r.in = clCreateBuffer(r.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_bytes, in, &err);
    r.out = clCreateBuffer(r.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_bytes, got, &err);
    if (!r.kernel || !r.in || !r.out || check_compile_wg_size(&r, dev, c) != EXIT_PASS)
        goto done;
    clSetKernelArg(r.kernel, 0, sizeof r.out, &r.out);
    clSetKernelArg(r.kernel, 1, sizeof r.in, &r.in);
    err = clEnqueueNDRangeKernel(r.queue, r.kernel, 1, NULL, &c->global_size, &c->local_size, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(r.queue, r.out, CL_TRUE, 0, out_bytes, got, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        printf("%s: launch or read failed (%d)\n", c->name, err);
        goto done;
    }
    c->reference(c, in, want);
    status = compare(c, got, want);
done:
    release(&r);
    free(in);
    free(got);
    free(want);
    return status;
}

int main(int argc, char **argv)
{
    const char *platform = NULL, *dir = ".", *name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            platform = argv[++i];
        else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            dir = argv[++i];
        else
            name = argv[i];
    }
    const Case *c = name ? find_case(name) : NULL;
    if (!platform || !c) {
        fprintf(stderr, "usage: conform -p PLATFORM-SUBSTRING -d DIR CASE%s\n", name && !c ? " (unknown case)" : "");
        return EXIT_FAIL;
    }
    char platform_name[256] = "";
    cl_device_id dev = find_device(platform, platform_name, sizeof platform_name);
    if (!dev) {
        printf("SKIP: no OpenCL platform named '%s'\n", platform);
        return EXIT_SKIP;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cl", dir, c->name);
    size_t len = 0;
    char *source = read_file(path, &len);
    if (!source) {
        printf("%s: cannot read %s\n", c->name, path);
        return EXIT_FAIL;
    }
    int status = run_case(dev, c, source, len);
    free(source);
    printf("%s on %s: %s\n", c->name, platform_name,
           status == EXIT_PASS ? "pass" : status == EXIT_SKIP ? "skipped" : "FAIL");
    return status;
}
