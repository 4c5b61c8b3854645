/* host_cuda.cu — runs the group-library test matrix on a CUDA GPU: the CUDA
 * prelude sections + test_kernels.cuh + the generated kernels.cuh, compiled
 * by nvcc; the checking is host_common.c's, shared with the OpenCL host.
 *
 * build: nvcc -arch=sm_90 -std=c++17 -I. -I$GEN -I../../compiler/emit/cuda \
 *        -o groups_cuda host_cuda.cu     (gpu_run.sh does this)
 * usage: groups_cuda [-k NAME] [-v]
 * Exit status: 0 all passed, 1 a case failed, 77 no CUDA device (skip). */
#include <cstdio>
#include <cstring>

#include "host_common.c"

#include "cuda_base.cuh"
#include "cuda_subgroup.cuh"
#include "cuda_workgroup.cuh"
#include "test_kernels.cuh"
#include "kernels.cuh"

static int launch(void *ctx, TestLaunch *l)
{
    (void)ctx;
    int index = (int)(l->kernel - test_kernels);
    size_t n = l->local_size * l->num_groups, outs = TEST_OUTPUTS(l->kernel->family);
    size_t osize = l->kernel->family == FAM_VOTE ? 4 : l->elem_size;
    void *in, *out, *info, *pred, *sel;
    cudaMalloc(&in, n * l->elem_size);
    cudaMalloc(&out, n * outs * osize);
    cudaMalloc(&info, n * TEST_INFO_WORDS * 4);
    cudaMalloc(&pred, n * 4);
    cudaMalloc(&sel, n * 4);
    cudaMemcpy(in, l->in, n * l->elem_size, cudaMemcpyHostToDevice);
    cudaMemcpy(out, l->out, n * outs * osize, cudaMemcpyHostToDevice);
    cudaMemcpy(info, l->info, n * TEST_INFO_WORDS * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(pred, l->pred, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(sel, l->sel, n * 4, cudaMemcpyHostToDevice);
    unsigned kind = (unsigned)l->kind;
    void *args[] = {&in, &out, &info, &pred, &sel, &kind, &l->param, &l->a0, &l->a1, &l->a2, &l->init};
    cudaError_t err = cudaLaunchKernel(test_cuda_kernels[index], dim3((unsigned)l->num_groups),
                                       dim3((unsigned)l->local_size), args, 0, 0);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err == cudaSuccess) {
        cudaMemcpy(l->out, out, n * outs * osize, cudaMemcpyDeviceToHost);
        cudaMemcpy(l->info, info, n * TEST_INFO_WORDS * 4, cudaMemcpyDeviceToHost);
    } else {
        fprintf(stderr, "launch of %s: %s\n", l->kernel->name, cudaGetErrorString(err));
    }
    cudaFree(in);
    cudaFree(out);
    cudaFree(info);
    cudaFree(pred);
    cudaFree(sel);
    return err != cudaSuccess;
}

int main(int argc, char **argv)
{
    TestOptions opt;
    memset(&opt, 0, sizeof opt);
    opt.backend = "cuda";
    opt.sub_groups = 1;
    opt.divergent = 1;
    opt.max_sub_group = 32;
    opt.has_fp64 = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-k") && i + 1 < argc)
            opt.only = argv[++i];
        else if (!strcmp(argv[i], "-v"))
            opt.verbose = 1;
    }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("cuda: no CUDA device, skipped\n");
        return 77;
    }
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("cuda: device %s, sm_%d%d\n", prop.name, prop.major, prop.minor);
    TestCounts c = test_run_matrix(&opt, launch, NULL);
    return c.failed ? 1 : 0;
}
