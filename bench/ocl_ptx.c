/* ocl_ptx.c — writes what NVIDIA's OpenCL compiler makes of an OpenCL C
 * file: on that platform the program binary is PTX text, which can then be
 * compared with nvcc's PTX of sgcc's CUDA output for the same kernel (how
 * bench/RESULTS.md attributes nvptx-only gaps).
 *   cc -std=c17 -O1 -o ocl_ptx bench/ocl_ptx.c -lOpenCL
 *   ./ocl_ptx NVIDIA tiles.cl "-DSGC_NV_PTX=1 -DSGC_NV_SM=90" tiles.ptx
 * PLATFORM is a substring of the platform name.  Exit 0 written, 1 failed. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
        text[n] = '\0';
        *size = (size_t)n;
    } else {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

static cl_device_id find_device(const char *platform_part)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS)
        return NULL;
    for (cl_uint i = 0; i < count && i < 16; i++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        cl_device_id dev;
        if (strstr(name, platform_part) &&
            clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS)
            return dev;
    }
    return NULL;
}

static int write_binary(cl_program prog, const char *out_path)
{
    size_t size = 0;
    clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    unsigned char *bin = malloc(size ? size : 1);
    int rc = 1;
    if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS) {
        FILE *f = fopen(out_path, "wb");
        if (f && fwrite(bin, 1, size, f) == size)
            rc = 0;
        if (f && fclose(f) != 0)
            rc = 1;
    }
    free(bin);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s PLATFORM FILE.cl OPTIONS OUT\n", argv[0]);
        return 1;
    }
    size_t size = 0;
    char *source = read_file(argv[2], &size);
    cl_device_id dev = find_device(argv[1]);
    if (!source || !dev) {
        fprintf(stderr, "ocl_ptx: %s\n", source ? "no such platform" : "cannot read the source");
        free(source);
        return 1;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    const char *text = source;
    cl_program prog = ctx ? clCreateProgramWithSource(ctx, 1, &text, &size, &err) : NULL;
    int rc = 1;
    if (prog && clBuildProgram(prog, 1, &dev, argv[3], NULL, NULL) == CL_SUCCESS) {
        rc = write_binary(prog, argv[4]);
    } else if (prog) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "ocl_ptx: build failed:\n%s\n", log);
    }
    if (prog)
        clReleaseProgram(prog);
    if (ctx)
        clReleaseContext(ctx);
    free(source);
    return rc;
}
