/* host_opencl.c — runs the group-library test matrix on an OpenCL device
 * through the ICD loader.  The program is the embedded prelude (prelude.h,
 * the very strings the emitter pastes) + test_kernels.cl + the generated
 * kernels.cl; the checking is host_common.c's.
 *
 * usage: groups_opencl [-p DEVICE] [-o BUILD-OPTIONS] [-l LABEL] [-k NAME]
 *                      [--sample I/N] [--no-divergent] [-v] TEST_KERNELS.cl KERNELS.cl
 *        groups_opencl --list
 * DEVICE is a substring of "platform :: device" (--list prints them).
 * Exit status: 0 all passed, 1 a case failed, 77 no such device (skip). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_common.h"
#include "prelude.h"

typedef struct Device {
    cl_context context;
    cl_command_queue queue;
    cl_device_id device;
    const char *options, *harness, *kernels_source;
    cl_program programs[128];
    cl_kernel kernels[128];  /* built on first use, one program each */
    int tried[128];
} Device;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(3);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        exit(3);
    }
    s[n] = 0;
    fclose(f);
    return s;
}

/* The first device whose "platform :: device" name contains `want` (any
 * device when NULL); with `list`, prints them all instead. */
static int pick_device(const char *want, int list, Device *d)
{
    cl_platform_id platforms[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS)
        return -1;
    for (cl_uint i = 0; i < n; i++) {
        cl_device_id devices[16];
        cl_uint ndev = 0;
        char platform[256];
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof platform, platform, NULL);
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 16, devices, &ndev) != CL_SUCCESS)
            continue;
        for (cl_uint j = 0; j < ndev; j++) {
            char dev[256], full[600];
            clGetDeviceInfo(devices[j], CL_DEVICE_NAME, sizeof dev, dev, NULL);
            snprintf(full, sizeof full, "%s :: %s", platform, dev);
            if (list) {
                printf("%s\n", full);
                continue;
            }
            if (want && !strstr(full, want))
                continue;
            printf("device: %s\n", full);
            cl_int err;
            d->device = devices[j];
            d->context = clCreateContext(NULL, 1, &d->device, NULL, NULL, &err);
            d->queue = clCreateCommandQueue(d->context, d->device, 0, &err);
            return err == CL_SUCCESS ? 0 : -1;
        }
    }
    return -1;
}

/* Builds the program holding kernel k alone: device compilers take seconds
 * per kernel, and a filtered run (-k) then pays only for what it runs. */
static cl_kernel kernel_for(Device *d, int k)
{
    if (d->tried[k])
        return d->kernels[k];
    d->tried[k] = 1;
    const char *parts[] = {prelude_opencl_base, prelude_opencl_subgroup, prelude_opencl_workgroup,
                           d->harness, d->kernels_source};
    /* As sgrt does: SGC_DEVICE_CPU picks the CPU shape of the tree strategy
     * (docs/GROUPS.md); SGC_WG_TREE_LOGSTEP in a run's options overrides it. */
    cl_device_type type = 0;
    clGetDeviceInfo(d->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    char options[1024];
    snprintf(options, sizeof options, "%s%s -DTEST_ONLY_%s",
             (type & CL_DEVICE_TYPE_CPU) ? "-DSGC_DEVICE_CPU=1 " : "", d->options,
             test_kernels[k].name);
    cl_int err;
    cl_program p = clCreateProgramWithSource(d->context, 5, parts, NULL, &err);
    err = clBuildProgram(p, 1, &d->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(p, d->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = malloc(len + 1);
        clGetProgramBuildInfo(p, d->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        log[len] = 0;
        fprintf(stderr, "build of %s failed (%d):\n%.20000s\n", test_kernels[k].name, err, log);
        free(log);
        return NULL;
    }
    d->programs[k] = p;
    d->kernels[k] = clCreateKernel(p, test_kernels[k].name, &err);
    return d->kernels[k];
}

static cl_mem buffer(Device *d, size_t size, void *data)
{
    cl_int err;
    return clCreateBuffer(d->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, data, &err);
}

static int launch(void *ctx, TestLaunch *l)
{
    Device *d = ctx;
    int index = (int)(l->kernel - test_kernels);
    cl_kernel k = kernel_for(d, index);
    if (!k)
        return -1;
    size_t n = l->local_size * l->num_groups, outs = TEST_OUTPUTS(l->kernel->family);
    size_t osize = l->kernel->family == FAM_VOTE ? 4 : l->elem_size;
    cl_mem in = buffer(d, n * l->elem_size, l->in), out = buffer(d, n * outs * osize, l->out);
    cl_mem info = buffer(d, n * TEST_INFO_WORDS * 4, l->info), pred = buffer(d, n * 4, l->pred);
    cl_mem sel = buffer(d, n * 4, l->sel);
    cl_uint kind = (cl_uint)l->kind;
    cl_int err = 0;
    err |= clSetKernelArg(k, 0, sizeof in, &in);
    err |= clSetKernelArg(k, 1, sizeof out, &out);
    err |= clSetKernelArg(k, 2, sizeof info, &info);
    err |= clSetKernelArg(k, 3, sizeof pred, &pred);
    err |= clSetKernelArg(k, 4, sizeof sel, &sel);
    err |= clSetKernelArg(k, 5, 4, &kind);
    err |= clSetKernelArg(k, 6, 4, &l->param);
    err |= clSetKernelArg(k, 7, 4, &l->a0);
    err |= clSetKernelArg(k, 8, 4, &l->a1);
    err |= clSetKernelArg(k, 9, 4, &l->a2);
    if (l->kernel->family == FAM_ARITH)
        err |= clSetKernelArg(k, 10, l->elem_size, &l->init);
    err |= clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &n, &l->local_size, 0, NULL, NULL);
    err |= clEnqueueReadBuffer(d->queue, out, CL_TRUE, 0, n * outs * osize, l->out, 0, NULL, NULL);
    err |= clEnqueueReadBuffer(d->queue, info, CL_TRUE, 0, n * TEST_INFO_WORDS * 4, l->info, 0, NULL, NULL);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(info);
    clReleaseMemObject(pred);
    clReleaseMemObject(sel);
    if (err != CL_SUCCESS)
        fprintf(stderr, "launch of %s failed (%d)\n", l->kernel->name, err);
    return err != CL_SUCCESS;
}

/* The sub-group size the kernels see, from one sub_group launch (0 in the
 * wg tier, whose kernels skip sub-group kinds). */
static unsigned probe_sub_group_size(Device *d)
{
    TestLaunch l;
    memset(&l, 0, sizeof l);
    for (int k = 0; k < test_kernel_count; k++)
        if (test_kernels[k].family == FAM_VOTE)
            l.kernel = &test_kernels[k];
    l.kind = K_SUB;
    l.local_size = 64;
    l.num_groups = 1;
    l.elem_size = 4;
    uint32_t in[64] = {0}, info[64 * TEST_INFO_WORDS] = {0};
    int32_t pred[64] = {0}, sel[64] = {0};
    uint32_t out[64 * 9];
    l.in = in;
    l.out = out;
    l.info = info;
    l.pred = pred;
    l.sel = sel;
    if (launch(d, &l) || info[6] != 0xC0FFEEu)
        return 0;
    return info[5];
}

int main(int argc, char **argv)
{
    const char *platform = NULL, *options = "", *files[2] = {NULL, NULL};
    TestOptions opt;
    memset(&opt, 0, sizeof opt);
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress survives a timeout */
    opt.backend = "opencl";
    opt.divergent = 1;
    int nfiles = 0, list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc)
            platform = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            options = argv[++i];
        else if (!strcmp(argv[i], "-l") && i + 1 < argc)
            opt.backend = argv[++i];
        else if (!strcmp(argv[i], "-k") && i + 1 < argc)
            opt.only = argv[++i];
        else if (!strcmp(argv[i], "--sample") && i + 1 < argc) {
            if (sscanf(argv[++i], "%d/%d", &opt.sample_index, &opt.sample_count) != 2 ||
                opt.sample_count < 1 || opt.sample_index < 0 || opt.sample_index >= opt.sample_count) {
                fprintf(stderr, "--sample wants I/N with 0 <= I < N\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--no-divergent"))
            opt.divergent = 0;
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "-v"))
            opt.verbose = 1;
        else if (nfiles < 2)
            files[nfiles++] = argv[i];
    }
    Device d;
    memset(&d, 0, sizeof d);
    if (list) {
        pick_device(NULL, 1, &d);
        return 0;
    }
    if (nfiles != 2) {
        fprintf(stderr, "usage: %s [--list] [-p DEVICE] [-o OPTIONS] [-l LABEL] [-k NAME] [--sample I/N] [--no-divergent] [-v] "
                        "TEST_KERNELS.cl KERNELS.cl\n", argv[0]);
        return 2;
    }
    if (pick_device(platform, 0, &d)) {
        printf("%s: no OpenCL device%s%s, skipped\n", opt.backend, platform ? " on " : "", platform ? platform : "");
        return 77;
    }
    char ext[8192] = "";
    clGetDeviceInfo(d.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    opt.has_fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    d.options = options;
    d.harness = read_file(files[0]);
    d.kernels_source = read_file(files[1]);
    opt.max_sub_group = probe_sub_group_size(&d);
    opt.sub_groups = opt.max_sub_group != 0;
    printf("%s: options '%s', sub-group size %u%s\n", opt.backend, options, opt.max_sub_group,
           opt.sub_groups ? "" : " (wg tier: work-group kinds only)");
    TestCounts c = test_run_matrix(&opt, launch, &d);
    return c.failed ? 1 : 0;
}
