/* cuda_host.c — the split-barrier cases (tests/barrier/cases.h) on CUDA C
 * that sgcc emitted, compiled ahead of time by nvcc (gpu_run.sh): each
 * emitted .cu becomes a CUBIN, loaded here with the driver API, and the
 * cases launch their kernels by name.  This checks the emitted CUDA C as a
 * user would build it, independently of sgrt's NVRTC path (which
 * exec_barrier with SGRT_DEVICE=cuda covers).
 *
 *   cuda_exec_barrier FILE.cubin...      exit 0: no failure; 77: no GPU */
#include <cuda.h>
#include <stdbool.h>

#include "cases.h"

enum { MAX_MODULES = 16 };

typedef struct CudaHost {
    CUmodule modules[MAX_MODULES];
    int module_count;
} CudaHost;

static bool cuda_ok(CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS)
        return true;
    const char *name = "?";
    cuGetErrorName(r, &name);
    fprintf(stderr, "%s: %s\n", what, name);
    return false;
}

static TestStatus cuda_run(void *self, const char *name, unsigned groups, TestArg *args, int nargs)
{
    CudaHost *host = self;
    CUfunction fn = NULL;
    for (int m = 0; m < host->module_count && !fn; m++)
        if (cuModuleGetFunction(&fn, host->modules[m], name) != CUDA_SUCCESS)
            fn = NULL;
    if (!fn)
        return TEST_SKIP;
    CUdeviceptr ptrs[8] = {0};
    void *params[8];
    bool ok = nargs <= 8;
    for (int i = 0; i < nargs && ok; i++) {
        if (!args[i].host) {
            params[i] = &args[i].value;
            continue;
        }
        ok = cuda_ok(cuMemAlloc(&ptrs[i], args[i].bytes), "cuMemAlloc") &&
             cuda_ok(cuMemcpyHtoD(ptrs[i], args[i].host, args[i].bytes), "cuMemcpyHtoD");
        params[i] = &ptrs[i];
    }
    ok = ok && cuda_ok(cuLaunchKernel(fn, groups, 1, 1, TEST_WG, 1, 1, 0, NULL, params, NULL), name) &&
         cuda_ok(cuCtxSynchronize(), name);
    for (int i = 0; i < nargs && ok; i++)
        if (args[i].host)
            ok = cuda_ok(cuMemcpyDtoH(args[i].host, ptrs[i], args[i].bytes), "cuMemcpyDtoH");
    for (int i = 0; i < nargs && i < 8; i++)
        if (ptrs[i])
            cuMemFree(ptrs[i]);
    return ok ? TEST_PASS : TEST_FAIL;
}

int main(int argc, char **argv)
{
    CUdevice device;
    CUcontext context;
    int count = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
        printf("SKIP all: no CUDA device\n");
        return 77;
    }
    char device_name[256] = "";
    if (!cuda_ok(cuDeviceGet(&device, 0), "cuDeviceGet") ||
        !cuda_ok(cuDeviceGetName(device_name, sizeof device_name, device), "cuDeviceGetName") ||
        !cuda_ok(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain") ||
        !cuda_ok(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
        return 1;
    CudaHost host = {.module_count = 0};
    for (int i = 1; i < argc && host.module_count < MAX_MODULES; i++)
        if (!cuda_ok(cuModuleLoad(&host.modules[host.module_count++], argv[i]), argv[i]))
            return 1;
    char label[400];
    snprintf(label, sizeof label, "[sgcc | nvcc CUBIN | %s]", device_name);
    TestBackend be = {&host, cuda_run};
    int failures = test_run_all(&be, label);
    for (int m = 0; m < host.module_count; m++)
        cuModuleUnload(host.modules[m]);
    cuDevicePrimaryCtxRelease(device);
    return failures ? 1 : 0;
}
