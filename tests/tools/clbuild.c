/* clbuild.c — compile-checks an OpenCL C file on every OpenCL device the ICD
 * loader offers (or the platform named by CLBUILD_PLATFORM, a substring),
 * the way the golden and emitter tests check sgcc's output: clBuildProgram
 * with the given options, print the build log, exit 1 if any build failed.
 *
 *   clbuild [-D NAME[=VAL]]... [-o OPTIONS] [-r|-p|-x KERNEL]... file.cl
 *
 * After a successful build, -r KERNEL runs KERNEL(global int *out) over
 * RUN_ITEMS work-items and prints "run KERNEL: out[0] out[1] ..." for the
 * caller to compare with its own reference; -p KERNEL checks that KERNEL
 * is in the program; -x KERNEL checks that KERNEL
 * is not in the program (clCreateKernel: CL_INVALID_KERNEL_NAME), as when
 * the build left it out (SGC_SKIP_UNSUPPORTED_KERNELS).
 *
 * Exit: 0 every build (and -r/-x check) succeeded, 1 one failed, 2 usage,
 * 3 no device. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

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
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

enum { RUN_ITEMS = 16, MAX_KERNELS = 8 };

typedef struct KernelChecks {
    const char *run[MAX_KERNELS], *present[MAX_KERNELS], *absent[MAX_KERNELS];
    int run_count, present_count, absent_count;
} KernelChecks;

/* Runs `name`(global int *out) and prints out[]; returns true on success. */
static int run_kernel(cl_context ctx, cl_device_id dev, cl_program prog, const char *name)
{
    cl_int err;
    int host[RUN_ITEMS];
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (!k) {
        printf("run %s: clCreateKernel failed (%d)\n", name, err);
        return 0;
    }
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof host, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    size_t global = RUN_ITEMS;
    err = clSetKernelArg(k, 0, sizeof out, &out);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
    if (err == CL_SUCCESS) {
        printf("run %s:", name);
        for (int i = 0; i < RUN_ITEMS; i++)
            printf(" %d", host[i]);
        printf("\n");
    } else {
        printf("run %s: failed (%d)\n", name, err);
    }
    clReleaseCommandQueue(q);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    return err == CL_SUCCESS;
}

static int check_kernels(cl_context ctx, cl_device_id dev, cl_program prog,
                         const KernelChecks *checks)
{
    int ok = 1;
    for (int i = 0; i < checks->run_count; i++)
        ok &= run_kernel(ctx, dev, prog, checks->run[i]);
    for (int i = 0; i < checks->present_count; i++) {
        cl_int err;
        cl_kernel k = clCreateKernel(prog, checks->present[i], &err);
        printf("present %s: %s (%d)\n", checks->present[i], k ? "yes" : "NO", err);
        ok &= k != NULL;
        if (k)
            clReleaseKernel(k);
    }
    for (int i = 0; i < checks->absent_count; i++) {
        cl_int err;
        cl_kernel k = clCreateKernel(prog, checks->absent[i], &err);
        printf("absent %s: %s (%d)\n", checks->absent[i],
               err == CL_INVALID_KERNEL_NAME ? "yes" : "NO", err);
        ok &= err == CL_INVALID_KERNEL_NAME;
        if (k)
            clReleaseKernel(k);
    }
    return ok;
}

/* Builds `src` for one device; prints the log; returns true on success. */
static int build_on(cl_platform_id platform, cl_device_id dev, const char *src, const char *options,
                    const KernelChecks *checks)
{
    char pname[256] = "", dname[256] = "";
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx) {
        fprintf(stderr, "%s / %s: clCreateContext failed (%d)\n", pname, dname, err);
        return 0;
    }
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    size_t len = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    log[len] = '\0';
    printf("== %s / %s: %s\n", pname, dname, err == CL_SUCCESS ? "ok" : "FAILED");
    if (strspn(log, " \n\r\t") < strlen(log))
        printf("%s\n", log);
    free(log);
    int ok = err == CL_SUCCESS && check_kernels(ctx, dev, prog, checks);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    return ok;
}

int main(int argc, char **argv)
{
    char options[4096] = "";
    const char *path = NULL;
    KernelChecks checks = {.run_count = 0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-D") == 0 && i + 1 < argc) {
            strncat(options, " -D", sizeof options - strlen(options) - 1);
            strncat(options, argv[++i], sizeof options - strlen(options) - 1);
        } else if (strncmp(argv[i], "-D", 2) == 0) {
            strncat(options, " ", sizeof options - strlen(options) - 1);
            strncat(options, argv[i], sizeof options - strlen(options) - 1);
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            strncat(options, " ", sizeof options - strlen(options) - 1);
            strncat(options, argv[++i], sizeof options - strlen(options) - 1);
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc && checks.run_count < MAX_KERNELS) {
            checks.run[checks.run_count++] = argv[++i];
        } else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc &&
                   checks.present_count < MAX_KERNELS) {
            checks.present[checks.present_count++] = argv[++i];
        } else if (strcmp(argv[i], "-x") == 0 && i + 1 < argc &&
                   checks.absent_count < MAX_KERNELS) {
            checks.absent[checks.absent_count++] = argv[++i];
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: clbuild [-D NAME[=VAL]]... [-o OPTIONS] [-r|-p|-x KERNEL]... file.cl\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: clbuild [-D NAME[=VAL]]... [-o OPTIONS] [-r|-p|-x KERNEL]... file.cl\n");
        return 2;
    }
    char *src = read_file(path);
    if (!src) {
        perror(path);
        return 2;
    }
    const char *want = getenv("CLBUILD_PLATFORM");
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "clbuild: no OpenCL platform\n");
        return 3;
    }
    int builds = 0, ok = 1;
    for (cl_uint p = 0; p < np; p++) {
        char pname[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (want && !strstr(pname, want))
            continue;
        cl_device_id devs[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd; d++, builds++)
            ok &= build_on(platforms[p], devs[d], src, options, &checks);
    }
    free(src);
    if (!builds) {
        fprintf(stderr, "clbuild: no OpenCL device%s%s\n", want ? " on a platform matching " : "",
                want ? want : "");
        return 3;
    }
    return ok ? 0 : 1;
}
