/* c_semantics_cuda.cu — runs the CUDA output of cases/c_semantics.sgc on
 * the GPU and compares it with the host C reference c_semantics_expect
 * wrote (gpu_run.sh builds both).  16 work-items in blocks of 8, 40 ints
 * each, as the OpenCL runs of the case (cases.c).
 *   usage: c_semantics_cuda IN_FILE EXPECTED_FILE
 * Exit: 0 equal, 1 mismatch or CUDA error, 2 usage or I/O. */
#include <cstdio>
#include <cstdlib>
#include <vector>

#include CASE_CU

enum { GLOBAL = 16, LOCAL = 8, COUNT = 40 };

static bool read_all(const char *path, void *data, size_t bytes)
{
    FILE *f = fopen(path, "rb");
    bool ok = f && fread(data, 1, bytes, f) == bytes;
    if (f)
        fclose(f);
    return ok;
}

static bool check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "c_semantics CUDA: %s: %s\n", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: c_semantics_cuda IN_FILE EXPECTED_FILE\n");
        return 2;
    }
    std::vector<int> in(GLOBAL), want(GLOBAL * COUNT), got(GLOBAL * COUNT);
    if (!read_all(argv[1], in.data(), in.size() * sizeof(int)) ||
        !read_all(argv[2], want.data(), want.size() * sizeof(int)))
        return 2;
    int *d_in = nullptr, *d_out = nullptr;
    if (!check(cudaMalloc(&d_in, in.size() * sizeof(int)), "cudaMalloc") ||
        !check(cudaMalloc(&d_out, got.size() * sizeof(int)), "cudaMalloc") ||
        !check(cudaMemcpy(d_in, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice),
               "cudaMemcpy"))
        return 1;
    test<<<GLOBAL / LOCAL, LOCAL>>>(d_out, d_in);
    if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), "kernel") ||
        !check(cudaMemcpy(got.data(), d_out, got.size() * sizeof(int), cudaMemcpyDeviceToHost),
               "cudaMemcpy"))
        return 1;
    int bad = 0;
    for (size_t i = 0; i < got.size(); i++)
        if (got[i] != want[i] && bad++ < 20)
            printf("mismatch: work-item %zu result %zu: got %d, C17 says %d\n", i / COUNT,
                   i % COUNT, got[i], want[i]);
    printf("c_semantics CUDA: %s (%zu values, %d wrong)\n", bad ? "FAILED" : "passed",
           got.size(), bad);
    return bad ? 1 : 0;
}
