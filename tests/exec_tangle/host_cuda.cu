/* host_cuda.cu — runs sgcc's CUDA output of tangle_exec.sgc on the GPU and
 * compares every slot with reference.h (sub-group = warp of 32).
 * Built by gpu_run.sh: nvcc -DTANGLE_CU='"tangle_exec.cu"' host_cuda.cu.
 * usage: host_cuda [LOCAL_SIZE]; exit 0 pass, 1 mismatch, 77 no GPU. */
#include <cstdio>
#include <cstdlib>
#include <vector>

#include TANGLE_CU
#include "reference.h"

int main(int argc, char **argv)
{
    int local = argc > 1 ? atoi(argv[1]) : 60, global = local * 4, limit = 5;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        puts("no CUDA device: skipped");
        return 77;
    }
    size_t count = (size_t)global * SLOTS * 3;
    std::vector<int> got(count, -1), expect(count), data(global);
    for (int i = 0; i < global; i++)
        data[i] = tangle_data(i);
    int *d_out, *d_data;
    cudaMalloc(&d_out, count * sizeof(int));
    cudaMalloc(&d_data, global * sizeof(int));
    cudaMemcpy(d_out, got.data(), count * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_data, data.data(), global * sizeof(int), cudaMemcpyHostToDevice);
    paths<<<global / local, local>>>(d_out, d_data, limit);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(got.data(), d_out, count * sizeof(int), cudaMemcpyDeviceToHost);
    tangle_expect(expect.data(), global, local, 32, limit);
    int bad = 0;
    for (size_t i = 0; i < count; i += 3)
        if (got[i] != expect[i] || got[i + 1] != expect[i + 1] || got[i + 2] != expect[i + 2]) {
            if (bad++ < 10)
                fprintf(stderr, "work-item %zu slot %zu: got %d %d %d, expected %d %d %d\n",
                        i / 3 / SLOTS, i / 3 % SLOTS, got[i], got[i + 1], got[i + 2],
                        expect[i], expect[i + 1], expect[i + 2]);
        }
    printf("CUDA: local %d: %d of %zu slots wrong\n", local, bad, count / 3);
    cudaFree(d_out);
    cudaFree(d_data);
    return bad ? 1 : 0;
}
