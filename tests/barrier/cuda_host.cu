/* cuda_host.cu — runs the split-barrier execution cases (cases.h) with CUDA:
 * the barrier prelude section (mbarrier + cp.async, sm_80+) and the same
 * kernels as the OpenCL run, launched by name from a table.
 *
 *   nvcc -arch=sm_90 -I compiler/emit/cuda tests/barrier/cuda_host.cu -o barrier_cuda
 *
 * Prints PASS/FAIL per case; exit 0 when nothing failed.  A deadlocked
 * barrier hangs the launch, so run it under timeout (gpu_run.sh does). */
#include "barrier.cuh"
#include "kdialect.h"
#include "kernels.inc"

#include "cases.h"

#define KERNEL_TABLE(X)      \
    X(ring_exchange)         \
    X(copy_overlap)          \
    X(copy_bytes)            \
    X(phase_semantics)       \
    X(drop_two_phase)        \
    X(tiled_double_buffer)   \
    X(drop_progressive)      \
    X(phase_subset)

static const struct {
    const char *name;
    const void *fn;
} kernel_table[] = {
#define KERNEL_ENTRY(k) {#k, (const void *)k},
    KERNEL_TABLE(KERNEL_ENTRY)
#undef KERNEL_ENTRY
};

static TestStatus cuda_run(void *self, const char *name, unsigned groups, TestArg *args, int nargs)
{
    (void)self;
    const void *fn = NULL;
    for (size_t i = 0; i < sizeof kernel_table / sizeof kernel_table[0]; i++)
        if (strcmp(kernel_table[i].name, name) == 0)
            fn = kernel_table[i].fn;
    if (!fn)
        return TEST_SKIP;

    void *device[8] = {0}, *params[8];
    unsigned values[8];
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < nargs && err == cudaSuccess; i++) {
        values[i] = args[i].value;
        params[i] = args[i].host ? (void *)&device[i] : (void *)&values[i];
        if (args[i].host) {
            err = cudaMalloc(&device[i], args[i].bytes);
            if (err == cudaSuccess)
                err = cudaMemcpy(device[i], args[i].host, args[i].bytes, cudaMemcpyHostToDevice);
        }
    }
    if (err == cudaSuccess)
        err = cudaLaunchKernel(fn, dim3(groups), dim3(TEST_WG), params, 0, 0);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    for (int i = 0; i < nargs && err == cudaSuccess; i++)
        if (args[i].host)
            err = cudaMemcpy(args[i].host, device[i], args[i].bytes, cudaMemcpyDeviceToHost);
    for (int i = 0; i < nargs; i++)
        cudaFree(device[i]);
    if (err != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(err));
        return TEST_FAIL;
    }
    return TEST_PASS;
}

int main(void)
{
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fprintf(stderr, "no CUDA device\n");
        return 3;
    }
    char label[300];
    snprintf(label, sizeof label, "[CUDA %s sm_%d%d]", prop.name, prop.major, prop.minor);
    TestBackend be = {NULL, cuda_run};
    return test_run_all(&be, label) ? 1 : 0;
}
