/* ocl_host.c — runs the split-barrier execution cases (cases.h) on an OpenCL
 * device.  The program source is what sgcc emits for such a unit, minus the
 * translation: the barrier prelude section, then the kernels.
 *
 *   barrier_ocl PRELUDE.cl TESTDIR [build options...]
 *
 * The device is the first one of the first platform whose name contains
 * $BARRIER_PLATFORM (any platform when unset).  Exit 0 when nothing failed. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "cases.h"

typedef struct OclBackend {
    cl_context context;
    cl_command_queue queue;
    cl_program program;
} OclBackend;

static char *read_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", dir, dir[0] ? "/" : "", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len) {
        free(text);
        text = NULL;
    }
    if (text)
        text[len] = '\0';
    fclose(f);
    return text;
}

static TestStatus ocl_run(void *self, const char *name, unsigned groups, TestArg *args, int nargs)
{
    OclBackend *ocl = self;
    cl_int err;
    cl_kernel kernel = clCreateKernel(ocl->program, name, &err);
    if (err == CL_INVALID_KERNEL_NAME)
        return TEST_SKIP;
    if (err != CL_SUCCESS)
        return TEST_FAIL;
    cl_mem mems[8] = {0};
    TestStatus status = TEST_FAIL;
    for (int i = 0; i < nargs; i++) {
        if (args[i].host) {
            mems[i] = clCreateBuffer(ocl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     args[i].bytes, args[i].host, &err);
            if (err != CL_SUCCESS)
                goto done;
            err = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &mems[i]);
        } else {
            err = clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_uint), &args[i].value);
        }
        if (err != CL_SUCCESS)
            goto done;
    }
    size_t local = TEST_WG, global = (size_t)groups * TEST_WG;
    err = clEnqueueNDRangeKernel(ocl->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    for (int i = 0; i < nargs && err == CL_SUCCESS; i++)
        if (args[i].host)
            err = clEnqueueReadBuffer(ocl->queue, mems[i], CL_TRUE, 0, args[i].bytes,
                                      args[i].host, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        status = TEST_PASS;
    else
        fprintf(stderr, "%s: OpenCL error %d\n", name, err);
done:
    for (int i = 0; i < nargs; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    clReleaseKernel(kernel);
    return status;
}

static cl_device_id pick_device(void)
{
    const char *want = getenv("BARRIER_PLATFORM");
    cl_platform_id platforms[16];
    cl_uint count = 0;
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
        return NULL;
    for (cl_uint p = 0; p < count; p++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (want && !strstr(name, want))
            continue;
        cl_device_id device;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &device, NULL) == CL_SUCCESS)
            return device;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PRELUDE.cl TESTDIR [build options...]\n", argv[0]);
        return 2;
    }
    char options[1024] = "-cl-std=CL1.2";
    for (int i = 3; i < argc; i++)
        snprintf(options + strlen(options), sizeof options - strlen(options), " %s", argv[i]);

    char *parts[3] = {read_file("", argv[1]), read_file(argv[2], "kdialect.h"),
                      read_file(argv[2], "kernels.inc")};
    if (!parts[0] || !parts[1] || !parts[2])
        return 3;
    cl_device_id device = pick_device();
    if (!device) {
        fprintf(stderr, "no OpenCL device\n");
        return 3;
    }
    char device_name[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name, NULL);

    cl_int err;
    OclBackend ocl;
    ocl.context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    ocl.queue = clCreateCommandQueue(ocl.context, device, 0, &err);
    ocl.program = clCreateProgramWithSource(ocl.context, 3, (const char **)parts, NULL, &err);
    if (clBuildProgram(ocl.program, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
        char log[65536] = "";
        clGetProgramBuildInfo(ocl.program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%s):\n%s\n", options, log);
        return 1;
    }

    char label[1400];
    snprintf(label, sizeof label, "[%s | %s]", device_name, options);
    TestBackend be = {&ocl, ocl_run};
    int failures = test_run_all(&be, label);

    clReleaseProgram(ocl.program);
    clReleaseCommandQueue(ocl.queue);
    clReleaseContext(ocl.context);
    for (int i = 0; i < 3; i++)
        free(parts[i]);
    return failures ? 1 : 0;
}
