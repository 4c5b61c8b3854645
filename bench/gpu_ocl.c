/* gpu_ocl.c — sgcc's OpenCL output of the GPU benchmarks on one OpenCL
 * device: the same kernels, sizes, inputs and host references as
 * bench/gpu_cuda.cu (gpu_common.h), timed with profiling events (median of
 * the repeats after a warm-up run) and recorded for bench/gpu_tables.awk.
 *
 * On NVIDIA's platform the programs are built for the nvptx tier of docs/DESIGN.md "OpenCL C"
 * (-DSGC_NV_PTX=1 -DSGC_NV_SM=<compute capability>); elsewhere the device
 * compiler's own macros pick the tier (the khr tier on the Intel CPU runtime,
 * which is how this host is smoke-tested without a GPU).
 *
 * usage: gpu_ocl [--small] [-p PLATFORM_SUBSTRING] [-o BUILD_OPTIONS] -g GEN_DIR [TSV]
 *   GEN_DIR holds sgcc's gpu_kernels.cl, tiles.cl and matmul.cl; -o adds
 *   build options (e.g. -DSGC_FORCE_GENERIC to time the emulations). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "gpu_common.h"

#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

#define CK(call) ck((call), #call, __LINE__)
static void ck(cl_int err, const char *what, int line)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "gpu_ocl.c:%d: %s: OpenCL error %d\n", line, what, (int)err);
        exit(1);
    }
}

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;
static char backend[64] = "sgcc OpenCL"; /* the implementation column */
static char options[256];

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
        perror(path);
        exit(1);
    }
    text[size] = '\0';
    fclose(f);
    return text;
}

static cl_program build(const char *dir, const char *name, const char *extra)
{
    char path[1024], opts[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = read_file(path);
    const char *src = text;
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &src, NULL, &err);
    CK(err);
    snprintf(opts, sizeof opts, "%s %s", options, extra);
    err = clBuildProgram(program, 1, &device, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
        char *log = calloc(1, size + 1);
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
        fprintf(stderr, "%s: build failed (%s):\n%s\n", path, opts, log);
        exit(1);
    }
    free(text);
    return program;
}

static cl_kernel kernel(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "kernel %s: OpenCL error %d\n", name, (int)err);
        exit(1);
    }
    return k;
}

static cl_mem buffer(size_t bytes, const void *data)
{
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CK(err);
    if (data)
        CK(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, NULL, NULL));
    return m;
}

static void set_args(cl_kernel k, int count, const size_t *sizes, const void *const *values)
{
    for (int i = 0; i < count; i++)
        CK(clSetKernelArg(k, (cl_uint)i, sizes[i], values[i]));
}

/* One timed step: up to two kernels in a row (the two-pass reduction),
 * after an optional fill of `zero` (untimed). */
typedef struct step {
    cl_kernel k[2];
    cl_uint dims;
    size_t global[2][2], local[2][2];
    cl_mem zero; /* filled with 0 (4 bytes) before the step, or NULL */
} step;

static double run_step(const step *s, int repeats)
{
    double *ms = calloc((size_t)repeats, sizeof *ms);
    for (int r = -1; r < repeats; r++) { /* r = -1: warm-up */
        if (s->zero) {
            cl_int zero = 0;
            CK(clEnqueueFillBuffer(queue, s->zero, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL));
        }
        cl_event ev[2] = {NULL, NULL};
        int nk = s->k[1] ? 2 : 1;
        for (int i = 0; i < nk; i++)
            CK(clEnqueueNDRangeKernel(queue, s->k[i], s->dims, NULL, s->global[i], s->local[i], 0, NULL,
                                      &ev[i]));
        CK(clWaitForEvents(1, &ev[nk - 1]));
        cl_ulong t0, t1;
        CK(clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
        CK(clGetEventProfilingInfo(ev[nk - 1], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
        for (int i = 0; i < nk; i++)
            clReleaseEvent(ev[i]);
        if (r >= 0)
            ms[r] = (double)(t1 - t0) / 1e6;
    }
    double m = gb_median(ms, repeats);
    free(ms);
    return m;
}

static step one_kernel_1d(cl_kernel k, size_t global, size_t local)
{
    step s;
    memset(&s, 0, sizeof s);
    s.k[0] = k;
    s.dims = 1;
    s.global[0][0] = global;
    s.local[0][0] = local;
    return s;
}

static void read_back(cl_mem m, size_t bytes, void *dst)
{
    CK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
}

/* ---- the benchmarks (as in gpu_cuda.cu) ---- */

static void bench_reduce(const gb_sizes *sz, cl_program prog, FILE *tsv, size_t groups)
{
    cl_uint n = sz->reduce_n;
    size_t bytes = (size_t)n * 4;
    int32_t *hi = malloc(bytes);
    float *hf = malloc(bytes);
    gb_fill_int(hi, n, 1);
    gb_fill_float(hf, n, 2);
    int32_t want_i = gb_sum_int(hi, n);
    double want_f = gb_sum_float(hf, n);
    char row[80];

    cl_mem din = buffer(bytes, hi), dout = buffer(16, NULL), dpartial = buffer(groups * 4, NULL);
    cl_kernel ki = kernel(prog, "sum_int_atomic");
    set_args(ki, 3, (size_t[]){sizeof din, sizeof dout, sizeof n}, (const void *[]){&din, &dout, &n});
    step s = one_kernel_1d(ki, groups * GB_WG, GB_WG);
    s.zero = dout;
    double ms = run_step(&s, sz->repeats);
    int32_t got_i;
    read_back(dout, 4, &got_i);
    snprintf(row, sizeof row, "int sum of %u", n);
    gb_record(tsv, "reduce", row, backend, "sgcc", ms, (double)bytes, "GB/s", got_i != want_i);
    if (got_i != want_i)
        fprintf(stderr, "  got %d, want %d\n", got_i, want_i);

    CK(clEnqueueWriteBuffer(queue, din, CL_TRUE, 0, bytes, hf, 0, NULL, NULL));
    cl_kernel kp = kernel(prog, "sum_float_partial"), kf = kernel(prog, "sum_float_final");
    cl_uint count = (cl_uint)groups;
    set_args(kp, 3, (size_t[]){sizeof din, sizeof dpartial, sizeof n},
             (const void *[]){&din, &dpartial, &n});
    set_args(kf, 3, (size_t[]){sizeof dpartial, sizeof dout, sizeof count},
             (const void *[]){&dpartial, &dout, &count});
    s = one_kernel_1d(kp, groups * GB_WG, GB_WG);
    s.k[1] = kf;
    s.global[1][0] = GB_WG;
    s.local[1][0] = GB_WG;
    s.zero = dout;
    ms = run_step(&s, sz->repeats);
    float got_f;
    read_back(dout, 4, &got_f);
    int ok = gb_float_sum_ok(got_f, want_f);
    snprintf(row, sizeof row, "float sum of %u", n);
    gb_record(tsv, "reduce", row, backend, "sgcc", ms, (double)bytes, "GB/s", !ok);
    if (!ok)
        fprintf(stderr, "  got %.9g, want %.9g\n", got_f, want_f);

    clReleaseKernel(ki);
    clReleaseKernel(kp);
    clReleaseKernel(kf);
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dpartial);
    free(hi);
    free(hf);
}

static void bench_groups(const gb_sizes *sz, cl_program prog, FILE *tsv)
{
    for (int variant = 0; variant < 2; variant++) {
        cl_uint n = variant == 0 ? sz->stream_n : sz->compute_n;
        cl_uint rounds = variant == 0 ? 1u : sz->compute_rounds;
        const char *table = variant == 0 ? "groups_stream" : "groups_compute";
        uint32_t *hu = malloc((size_t)n * 4), *got = malloc((size_t)n * 4), *want_u = malloc((size_t)n * 4);
        float *hf = malloc((size_t)n * 4);
        double *want_f = malloc((size_t)n * sizeof *want_f);
        gb_fill_uint(hu, n, 10 + variant);
        gb_fill_small_float(hf, n, 20 + variant);
        cl_mem din = buffer((size_t)n * 4, NULL), dout = buffer((size_t)n * 4, NULL);
        for (int type = 0; type < 2; type++) {
            CK(clEnqueueWriteBuffer(queue, din, CL_TRUE, 0, (size_t)n * 4, type == 0 ? (void *)hu : (void *)hf,
                                    0, NULL, NULL));
            for (int kind = 0; kind < GB_NKINDS; kind++)
                for (int op = 0; op < 2; op++) {
                    const gb_kind *k = &gb_kinds[kind];
                    char name[96], row[96];
                    snprintf(name, sizeof name, "grp_%s_%s_%s", k->name, gb_ops[op], gb_types[type]);
                    snprintf(row, sizeof row, "%s %s %s", k->name, gb_ops[op], gb_types[type]);
                    if (type == 0)
                        gb_group_ref_uint(k, op, hu, want_u, n, rounds);
                    else
                        gb_group_ref_float(k, op, hf, want_f, n, rounds);
                    cl_kernel kk = kernel(prog, name);
                    set_args(kk, 3, (size_t[]){sizeof din, sizeof dout, sizeof rounds},
                             (const void *[]){&din, &dout, &rounds});
                    cl_uint ones = 0xffffffffu;
                    CK(clEnqueueFillBuffer(queue, dout, &ones, 4, 0, (size_t)n * 4, 0, NULL, NULL));
                    step s = one_kernel_1d(kk, n, GB_WG);
                    double ms = run_step(&s, sz->repeats);
                    read_back(dout, (size_t)n * 4, got);
                    size_t wrong = type == 0 ? gb_wrong_uint(got, want_u, n)
                                             : gb_wrong_float((const float *)got, want_f, n);
                    double work = rounds > 1 ? (double)n * rounds : 2.0 * n * 4;
                    gb_record(tsv, table, row, backend, "sgcc", ms, work, rounds > 1 ? "Gop/s" : "GB/s",
                              wrong);
                    clReleaseKernel(kk);
                }
        }
        clReleaseMemObject(din);
        clReleaseMemObject(dout);
        free(hu);
        free(got);
        free(want_u);
        free(hf);
        free(want_f);
    }
}

static void bench_tiles(const gb_sizes *sz, cl_program prog, FILE *tsv)
{
    cl_uint groups = sz->tile_groups, tiles = sz->tile_count;
    size_t count = (size_t)groups * tiles * GB_TILE, outs = (size_t)groups * GB_TILE_WG;
    int32_t *src = malloc(count * 4);
    uint32_t *want = malloc(outs * 4), *got = malloc(outs * 4);
    gb_fill_int(src, count, 30);
    gb_tiles_ref(src, want, groups, tiles);
    cl_mem dsrc = buffer(count * 4, src), dout = buffer(outs * 4, NULL);
    const char *names[2] = {"tiled_double_buffer", "tiled_plain"};
    const char *rows[2] = {"split barriers", "plain barriers"};
    for (int v = 0; v < 2; v++) {
        cl_kernel k = kernel(prog, names[v]);
        set_args(k, 3, (size_t[]){sizeof dsrc, sizeof dout, sizeof tiles},
                 (const void *[]){&dsrc, &dout, &tiles});
        cl_uint zero = 0;
        CK(clEnqueueFillBuffer(queue, dout, &zero, 4, 0, outs * 4, 0, NULL, NULL));
        step s = one_kernel_1d(k, outs, GB_TILE_WG);
        double ms = run_step(&s, sz->repeats);
        read_back(dout, outs * 4, got);
        char row[128];
        snprintf(row, sizeof row, "%s, %u x %u tiles", rows[v], groups, tiles);
        gb_record(tsv, "tiles", row, backend, "sgcc", ms, (double)count * 4, "GB/s",
                  gb_wrong_uint(got, want, outs));
        clReleaseKernel(k);
    }
    clReleaseMemObject(dsrc);
    clReleaseMemObject(dout);
    free(src);
    free(want);
    free(got);
}

static void bench_matmul(const gb_sizes *sz, cl_program prog, FILE *tsv, const char *tag)
{
    cl_uint n = sz->matmul_n, bs = GB_MATMUL_BS;
    size_t count = (size_t)n * n, bytes = count * 4, tile = (size_t)bs * bs * 4;
    float *a = malloc(bytes), *b = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    gb_fill_float(a, count, 40);
    gb_fill_float(b, count, 41);
    gb_matmul_ref(a, b, want, n);
    cl_mem da = buffer(bytes, a), db = buffer(bytes, b), dc = buffer(bytes, NULL);
    char row[64];
    snprintf(row, sizeof row, "n = %u, block %u, %s", n, bs, tag);
    for (int v = 0; v < 2; v++) {
        cl_kernel k = kernel(prog, v == 0 ? "matmul_spec" : "matmul_arg");
        set_args(k, 4, (size_t[]){sizeof da, sizeof db, sizeof dc, sizeof n},
                 (const void *[]){&da, &db, &dc, &n});
        if (v == 1) {
            CK(clSetKernelArg(k, 4, sizeof bs, &bs));
            CK(clSetKernelArg(k, 5, tile, NULL));
            CK(clSetKernelArg(k, 6, tile, NULL));
        }
        float zero = 0.0f;
        CK(clEnqueueFillBuffer(queue, dc, &zero, 4, 0, bytes, 0, NULL, NULL));
        step s;
        memset(&s, 0, sizeof s);
        s.k[0] = k;
        s.dims = 2;
        s.global[0][0] = s.global[0][1] = (n + bs - 1) / bs * bs;
        s.local[0][0] = s.local[0][1] = bs;
        double ms = run_step(&s, sz->repeats);
        read_back(dc, bytes, got);
        gb_record(tsv, "matmul", row, v == 0 ? "sgcc spec constant" : "sgcc plain argument",
                  v == 0 ? "sgcc" : "base", ms, 2.0 * n * n * (double)n, "GFLOP/s",
                  gb_matmul_wrong(got, want, count));
        clReleaseKernel(k);
    }
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    free(a);
    free(b);
    free(want);
    free(got);
}

static int pick_device(const char *want)
{
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0)
        return 0;
    for (cl_uint p = 0; p < np; p++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (want && !strstr(name, want))
            continue;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)
            continue;
        printf("gpu_ocl: platform %s\n", name);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int small = 0;
    const char *platform = NULL, *gen = NULL, *tsv_path = NULL, *extra = "";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--small") == 0)
            small = 1;
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            platform = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            extra = argv[++i];
        else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc)
            gen = argv[++i];
        else
            tsv_path = argv[i];
    }
    if (!gen) {
        fprintf(stderr, "usage: gpu_ocl [--small] [-p PLATFORM] [-o OPTIONS] -g GEN_DIR [TSV]\n");
        return 2;
    }
    if (!pick_device(platform)) {
        printf("gpu_ocl: no OpenCL device%s%s\n", platform ? " on a platform matching " : "",
               platform ? platform : "");
        return 77;
    }
    char name[256] = "", cver[128] = "";
    cl_uint cus = 0;
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_VERSION, sizeof cver, cver, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    cl_uint major = 0, minor = 0;
    int nvidia = clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                                 NULL) == CL_SUCCESS;
    if (nvidia) {
        clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL);
        snprintf(options, sizeof options, "-DSGC_NV_PTX=1 -DSGC_NV_SM=%u%u %s", major, minor, extra);
        snprintf(backend, sizeof backend, "sgcc OpenCL (nvptx)");
    } else {
        /* As sgrt does: the newest OpenCL C, so sub-group built-ins exist. */
        const char *std = strstr(cver, "OpenCL C 3") ? "-cl-std=CL3.0"
                          : strstr(cver, "OpenCL C 2") ? "-cl-std=CL2.0"
                                                       : "";
        snprintf(options, sizeof options, "%s %s", std, extra);
        snprintf(backend, sizeof backend, "sgcc OpenCL (%s)", small ? "CPU smoke" : "other");
    }
    printf("gpu_ocl: %s (%s, %u compute units), options \"%s\"\n", name, cver, cus, options);
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CK(err);
    queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    CK(err);
    FILE *tsv = tsv_path ? fopen(tsv_path, "a") : NULL;
    if (tsv_path && !tsv) {
        perror(tsv_path);
        return 1;
    }
    gb_sizes sz = gb_sizes_for(small);
    cl_program kernels = build(gen, "gpu_kernels.cl", "");
    /* GB_ONLY_GROUPS=1: the group tables alone (a shorter device run). */
    if (getenv("GB_ONLY_GROUPS")) {
        bench_groups(&sz, kernels, tsv);
    } else {
        cl_program tiles = build(gen, "tiles.cl", "");
        char spec[64];
        snprintf(spec, sizeof spec, "-DSGC_SPEC_0=%uu", (unsigned)GB_MATMUL_BS);
        cl_program matmul = build(gen, "matmul.cl", spec);
        /* As many resident work-groups as the CUDA occupancy gives a
         * 256-thread block on sm_90 (8 per SM); elsewhere 8 per compute
         * unit too. */
        size_t groups = (size_t)cus * 8;
        bench_reduce(&sz, kernels, tsv, groups);
        bench_groups(&sz, kernels, tsv);
        bench_tiles(&sz, tiles, tsv);
        bench_matmul(&sz, matmul, tsv, nvidia ? "OpenCL (nvptx)" : "OpenCL");
        clReleaseProgram(tiles);
        clReleaseProgram(matmul);
    }
    clReleaseProgram(kernels);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    if (tsv)
        fclose(tsv);
    printf("gpu_ocl: %d wrong result(s)\n", gb_failures);
    return gb_failures ? 1 : 0;
}
