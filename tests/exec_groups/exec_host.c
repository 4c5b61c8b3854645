/* exec_host.c — runs the sgcc-generated group kernels (gen_exec.py ->
 * sgcc -> <unit>.cl) on one OpenCL device and checks every output against a
 * host reference computed here from the docs/REFERENCE.md "Groups" rules alone.
 *
 * The only thing taken from the device is the sub-group shape (size, id,
 * lane, recorded by each kernel through sub_group members), and that is
 * checked first against the rule that sub-groups split the work-group by
 * consecutive linear local ids.  Partitions are then rebuilt on the host:
 * ballot = same predicate, fixed_size<N> = lane / N, tangle and
 * opportunistic = same predicate (they are made inside the two sides of a
 * branch on it; an opportunistic group may legally be smaller on a GPU
 * with independent thread scheduling, so --no-divergent skips that kind;
 * the tangle mask is the compiler's and must be exact everywhere).
 *
 * On a device without sub-groups (the wg tier) the sg_* units must fail to
 * build with sgcc's "needs sub-groups ... not supported on this device"
 * error, which is checked; the wg_* units run.
 *
 * Built with -DEXEC_CUDA (gpu_run.sh) the same checks run the CUDA C that
 * sgcc emitted, compiled by nvcc to DIR/<unit>.cubin, through the driver
 * API on device 0 (-p and -o are then ignored; FIXED_N must match the
 * -DSGC_SPEC_0 the cubins were compiled with).
 *
 * usage: exec_groups [-p PLATFORM-SUBSTRING] [-o BUILD-OPTIONS] [-N FIXED_N]
 *                    [-k NAME-FRAGMENTS] [--quick] [--local N] [-v] [--no-divergent] [--per-kind]
 *                    [--kind KIND] [--sample] DIR
 * --local N runs only work-group size N.  On a device whose sub-groups do
 * not promise divergent operation (no cl_khr_subgroup_non_uniform_vote or
 * _arithmetic: PoCL 5) the ballot, tangle and opportunistic kinds are
 * skipped and counted, as sgrt refuses such kernels there.
 * -k runs the kernels whose names contain one of the comma-separated
 * fragments; --quick runs one work-group size (300: more items than the wg
 * tier's scratch holds, so its chunking runs) and, except for votes, one
 * predicate pattern: PoCL compiles a kernel once per local size.
 * --per-kind builds each sub-group unit once per group kind, with the
 * kind as spec constant 1 (ONLY_KIND), so each program holds one kind's
 * code: PoCL 5's kernel compiler did not finish a kernel holding all five
 * kinds (their shuffles are barriers there) in 420 s, and takes seconds on
 * one kind.
 * --kind KIND (sub_group, ballot, fixed, tangle, opportunistic) builds and
 * runs that kind alone (as --per-kind does for each).  --sample runs the
 * sample_* units (gen_exec.py: a stratified subset of the kernels that the
 * quick suite runs); without it they are skipped, as the full units hold
 * the same kernels.
 * Exit: 0 all passed, 1 a check failed, 77 no such device. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#ifdef EXEC_CUDA
#include <cuda.h>
#else
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum Fam { FAM_ARITH, FAM_MOVE, FAM_VOTE } Fam;

/* ORDER: gen_exec.py's type names, upper-cased. */
#define ELEM_TYPES(X) X(INT, 4, 1, 0) X(UINT, 4, 0, 0) X(LONG, 8, 1, 0) X(ULONG, 8, 0, 0) \
    X(FLOAT, 4, 1, 1) X(DOUBLE, 8, 1, 1) X(BOOL, 1, 0, 0) X(CHAR, 1, 1, 0) X(UCHAR, 1, 0, 0) \
    X(SHORT, 2, 1, 0) X(USHORT, 2, 0, 0)
typedef enum Elem {
#define X(n, size, sign, fp) T_##n,
    ELEM_TYPES(X)
#undef X
} Elem;
static const struct { const char *name; int size, is_signed, is_float; } elem_info[] = {
#define X(n, size, sign, fp) {#n, size, sign, fp},
    ELEM_TYPES(X)
#undef X
};

#define GROUP_OPS(X) X(NONE) X(PLUS) X(MULTIPLIES) X(MINIMUM) X(MAXIMUM) X(BIT_AND) X(BIT_OR) \
    X(BIT_XOR) X(LOGICAL_AND) X(LOGICAL_OR)
typedef enum GOp {
#define X(n) GOP_##n,
    GROUP_OPS(X)
#undef X
} GOp;

typedef struct Case {
    Fam fam;
    Elem type;
    GOp op;
    bool sub_groups;
    const char *name;
} Case;

#include "cases.h"

static const Case cases[] = {
#define X(fam, t, op, sg, name) {fam, t, op, sg, name},
    EXEC_CASES(X)
#undef X
};
static const struct { const char *name; int first, end; } units[] = {
#define X(name, a, b) {name, a, b},
    EXEC_UNITS(X)
#undef X
};

/* Kinds, as the kernels' `kind` argument (sg units); the wg units have one. */
enum { K_SUB, K_BALLOT, K_FIXED, K_TANGLE, K_OPPORTUNISTIC, K_SG_COUNT };
static const char *const kind_names[] = {"sub_group", "ballot", "fixed", "tangle", "opportunistic"};
enum { PAT_TRUE, PAT_FALSE, PAT_ALTERNATE, PAT_RANDOM, PAT_SPARSE, PAT_COUNT };

/* ---- values: integers as 64-bit patterns, floating as double ----------- */

typedef union Val {
    uint64_t u;
    double d;
} Val;

static Val load(Elem t, const unsigned char *p)
{
    Val v = {0};
    switch (t) {
    case T_INT: { int32_t x; memcpy(&x, p, 4); v.u = (uint64_t)(int64_t)x; break; }
    case T_UINT: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    case T_LONG: case T_ULONG: memcpy(&v.u, p, 8); break;
    case T_FLOAT: { float x; memcpy(&x, p, 4); v.d = x; break; }
    case T_DOUBLE: memcpy(&v.d, p, 8); break;
    case T_BOOL: case T_UCHAR: v.u = p[0]; break;
    case T_CHAR: v.u = (uint64_t)(int64_t)(signed char)p[0]; break;
    case T_SHORT: { int16_t x; memcpy(&x, p, 2); v.u = (uint64_t)(int64_t)x; break; }
    case T_USHORT: { uint16_t x; memcpy(&x, p, 2); v.u = x; break; }
    }
    return v;
}

static void store(Elem t, unsigned char *p, Val v)
{
    if (t == T_FLOAT) {
        float x = (float)v.d;
        memcpy(p, &x, 4);
    } else if (t == T_DOUBLE) {
        memcpy(p, &v.d, 8);
    } else {
        memcpy(p, &v.u, (size_t)elem_info[t].size); /* little-endian host */
    }
}

/* Truncates and re-extends an integer to its type (wrap-around). */
static Val norm(Elem t, Val v)
{
    unsigned char b[8];
    store(t, b, v);
    return load(t, b);
}

static bool val_eq(Elem t, Val a, Val b)
{
    if (elem_info[t].is_float)
        return t == T_FLOAT ? (float)a.d == (float)b.d : a.d == b.d;
    return norm(t, a).u == norm(t, b).u;
}

static bool less(Elem t, Val a, Val b)
{
    if (elem_info[t].is_float)
        return a.d < b.d;
    return elem_info[t].is_signed ? (int64_t)a.u < (int64_t)b.u : a.u < b.u;
}

static bool truth(Elem t, Val v) { return elem_info[t].is_float ? v.d != 0 : v.u != 0; }

/* A truth value as an element: 0 or 1 of type t. */
static Val logical(Elem t, bool b)
{
    Val r = {0};
    if (elem_info[t].is_float) r.d = b; else r.u = b;
    return r;
}

static Val apply(Elem t, GOp op, Val a, Val b)
{
    Val r = {0};
    bool fp = elem_info[t].is_float;
    switch (op) {
    case GOP_PLUS: if (fp) r.d = a.d + b.d; else r.u = a.u + b.u; break;
    case GOP_MULTIPLIES: if (fp) r.d = a.d * b.d; else r.u = a.u * b.u; break;
    case GOP_MINIMUM: r = less(t, b, a) ? b : a; break;
    case GOP_MAXIMUM: r = less(t, a, b) ? b : a; break;
    case GOP_BIT_AND: r.u = a.u & b.u; break;
    case GOP_BIT_OR: r.u = a.u | b.u; break;
    case GOP_BIT_XOR: r.u = a.u ^ b.u; break;
    case GOP_LOGICAL_AND: r = logical(t, truth(t, a) && truth(t, b)); break;
    case GOP_LOGICAL_OR: r = logical(t, truth(t, a) || truth(t, b)); break;
    case GOP_NONE: break;
    }
    if (t == T_FLOAT)
        r.d = (float)r.d;
    return fp ? r : norm(t, r);
}

/* docs/REFERENCE.md "Groups" identities; +-inf for floating minimum/maximum. */
static Val identity(Elem t, GOp op)
{
    Val r = {0};
    bool fp = elem_info[t].is_float, sign = elem_info[t].is_signed;
    int bits = elem_info[t].size * 8;
    switch (op) {
    case GOP_MULTIPLIES: case GOP_LOGICAL_AND: if (fp) r.d = 1; else r.u = 1; break;
    case GOP_BIT_AND: r.u = ~(uint64_t)0; break;
    case GOP_MINIMUM:
        if (fp) r.d = INFINITY;
        else r.u = sign ? (~(uint64_t)0 >> (65 - bits)) : (~(uint64_t)0 >> (64 - bits));
        break;
    case GOP_MAXIMUM:
        if (fp) r.d = -INFINITY;
        else r.u = sign ? ~(~(uint64_t)0 >> (65 - bits)) : 0;
        break;
    default: break;
    }
    return fp ? r : norm(t, r);
}

/* Logical operators see truth values (results are 0 or 1). */
static Val input(Elem t, GOp op, Val x)
{
    if (op == GOP_LOGICAL_AND || op == GOP_LOGICAL_OR) {
        Val r = {0};
        if (elem_info[t].is_float) r.d = truth(t, x); else r.u = truth(t, x);
        return r;
    }
    return x;
}

/* ---- one launch --------------------------------------------------------- */

typedef struct Launch {
    const Case *c;
    int kind, pattern;
    size_t local, groups, n;
    unsigned fixed_n;
    uint32_t a0, a1, a2;
    int edge;           /* >= 0: the move family's arguments are edge_values[edge] */
    unsigned char *in, *out;
    uint32_t *info;
    int32_t *pred, *sel;
    Val init;
} Launch;

/* Deltas, xor masks and ids near 2^32 and near the group sizes (issue 34
 * item 2: lane + 0xffffffff wrapped to lane - 1 on the khr tier's native
 * shift).  An edge launch passes one of them as a0, a1 and a2, and every
 * work-item a different one as its select id. */
static const uint32_t edge_values[] = {
    0xffffffffu, 0xfffffffeu, 0x80000000u, 0x80000001u, 0x7fffffffu, 0xffffffc0u, 0xffffffe0u,
    0u, 1u, 3u, 4u, 7u, 8u, 15u, 16u, 31u, 32u, 63u, 64u, 36u, 37u, 299u, 300u,
};
enum { EDGE_COUNT = sizeof edge_values / sizeof edge_values[0] };

static size_t storage_size(const Case *c) { return c->fam == FAM_VOTE ? 4 : (size_t)elem_info[c->type].size; }
static int outputs(const Case *c) { return c->fam == FAM_VOTE ? 9 : 6; }

/* ---- device layer: OpenCL, or CUDA with -DEXEC_CUDA ----------------------- */

typedef struct Dev {
#ifdef EXEC_CUDA
    CUcontext context;
#else
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
#endif
    bool sub_groups, fp64;
    bool cpu;           /* CL_DEVICE_TYPE_CPU: builds get -DSGC_DEVICE_CPU=1 */
    bool divergent_ok;  /* sub-group operations work in divergent flow */
    const char *options;
    const char *only;
    bool quick;
    bool verbose;       /* -v: a line before each launch (finding hangs) */
    size_t local;       /* --local: the one work-group size to run, or 0 */
    bool per_kind;      /* --per-kind: one program per group kind (OpenCL) */
    int kind_filter;    /* --kind NAME: that kind alone (its own program), or -1 */
    bool sample;        /* --sample: the sample_* units alone (else they are skipped) */
    int only_kind;      /* the kind the current program holds, or -1: all */
} Dev;

static int failures, passes, skips, kinds_skipped;

static void fail(const char *fmt, const char *a, const char *b, long c, long d)
{
    if (failures < 40) {
        printf("FAIL ");
        printf(fmt, a, b, c, d);
        printf("\n");
    }
    failures++;
}

#ifndef EXEC_CUDA
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

static bool has_ext(cl_device_id d, const char *ext)
{
    char buf[8192] = "";
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof buf - 1, buf, NULL);
    return strstr(buf, ext) != NULL;
}

static int pick_device(Dev *dev, const char *want)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    clGetPlatformIDs(16, plats, &np);
    for (cl_uint i = 0; i < np; i++) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
        if (want && !strstr(name, want))
            continue;
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev->device, &nd) != CL_SUCCESS || !nd)
            continue;
        cl_int err;
        dev->context = clCreateContext(NULL, 1, &dev->device, NULL, NULL, &err);
        dev->queue = clCreateCommandQueue(dev->context, dev->device, 0, &err);
        dev->sub_groups = has_ext(dev->device, "cl_khr_subgroups") || has_ext(dev->device, "cl_intel_subgroups");
        dev->fp64 = has_ext(dev->device, "cl_khr_fp64");
        cl_device_type type = 0;
        clGetDeviceInfo(dev->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
        dev->cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
        /* sgrt's rule (runtime/backends/opencl/opencl.c): only the
         * non-uniform extensions promise sub-group operations in divergent
         * control flow. */
        dev->divergent_ok = has_ext(dev->device, "cl_khr_subgroup_non_uniform_vote") ||
                            has_ext(dev->device, "cl_khr_subgroup_non_uniform_arithmetic");
        printf("device: %s (%s, %s%s)\n", name, dev->sub_groups ? "sub-groups" : "wg tier: no sub-groups",
               dev->fp64 ? "fp64" : "no fp64",
               dev->sub_groups && !dev->divergent_ok ? ", no divergent sub-group operations" : "");
        return 0;
    }
    return -1;
}

/* Builds a unit; NULL with *log set when the build failed. */
static void *build(Dev *dev, const char *dir, const char *unit, char **log)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cl", dir, unit);
    char *src = read_file(path);
    if (!src) {
        fail("cannot read %s%s (%ld %ld)", path, "", 0, 0);
        return NULL;
    }
    cl_int err;
    const char *srcs[] = {src};
    cl_program p = clCreateProgramWithSource(dev->context, 1, srcs, NULL, &err);
    free(src);
    err = clBuildProgram(p, 1, &dev->device, dev->options, NULL, NULL);
    if (err == CL_SUCCESS)
        return p;
    size_t n = 0;
    clGetProgramBuildInfo(p, dev->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    *log = calloc(n + 1, 1);
    clGetProgramBuildInfo(p, dev->device, CL_PROGRAM_BUILD_LOG, n, *log, NULL);
    clReleaseProgram(p);
    return NULL;
}

static void release_program(void *p) { clReleaseProgram(p); }
static void release_kernel(void *k) { clReleaseKernel(k); }

static void *get_kernel(void *prog, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    return err == CL_SUCCESS ? k : NULL;
}


static cl_mem buffer(Dev *dev, size_t size, void *host)
{
    cl_int err;
    return clCreateBuffer(dev->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, host, &err);
}

static int run(Dev *dev, void *k, Launch *l)
{
    size_t es = storage_size(l->c), n = l->n, no = (size_t)outputs(l->c);
    cl_mem in = buffer(dev, n * es, l->in), out = buffer(dev, n * no * es, l->out);
    cl_mem info = buffer(dev, n * 16, l->info), pred = buffer(dev, n * 4, l->pred), sel = buffer(dev, n * 4, l->sel);
    cl_uint kind = (cl_uint)l->kind;
    int a = 0;
    clSetKernelArg(k, a++, sizeof in, &in);
    clSetKernelArg(k, a++, sizeof out, &out);
    clSetKernelArg(k, a++, sizeof info, &info);
    clSetKernelArg(k, a++, sizeof pred, &pred);
    clSetKernelArg(k, a++, sizeof sel, &sel);
    clSetKernelArg(k, a++, sizeof kind, &kind);
    clSetKernelArg(k, a++, sizeof l->a0, &l->a0);
    clSetKernelArg(k, a++, sizeof l->a1, &l->a1);
    clSetKernelArg(k, a++, sizeof l->a2, &l->a2);
    if (l->c->fam == FAM_ARITH) {
        unsigned char b[8];
        store(l->c->type, b, l->init);
        clSetKernelArg(k, a++, (size_t)elem_info[l->c->type].size, b);
    } else if (l->c->fam == FAM_VOTE) {
        clSetKernelArg(k, a++, l->local * 4, NULL);
    }
    size_t global = l->local * l->groups;
    cl_int err = clEnqueueNDRangeKernel(dev->queue, k, 1, NULL, &global, &l->local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(dev->queue, out, CL_TRUE, 0, n * no * es, l->out, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(dev->queue, info, CL_TRUE, 0, n * 16, l->info, 0, NULL, NULL);
    cl_mem all[] = {in, out, info, pred, sel};
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(all[i]);
    return err == CL_SUCCESS ? 0 : err;
}
#else /* EXEC_CUDA: the driver API, device 0 */

static int pick_device(Dev *dev, const char *want)
{
    (void)want;
    CUdevice d;
    char name[256] = "";
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&d, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&dev->context, d) != CUDA_SUCCESS ||
        cuCtxSetCurrent(dev->context) != CUDA_SUCCESS)
        return -1;
    cuDeviceGetName(name, sizeof name - 1, d);
    dev->sub_groups = dev->fp64 = dev->divergent_ok = true;
    printf("device: %s (CUDA, warp = sub-group)\n", name);
    return 0;
}

static void *build(Dev *dev, const char *dir, const char *unit, char **log)
{
    (void)dev;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cubin", dir, unit);
    CUmodule m;
    CUresult r = cuModuleLoad(&m, path);
    if (r == CUDA_SUCCESS)
        return m;
    *log = malloc(4200);
    snprintf(*log, 4200, "cuModuleLoad(%s) failed: %d", path, (int)r);
    return NULL;
}

static void release_program(void *p) { cuModuleUnload(p); }
static void release_kernel(void *k) { (void)k; }

static void *get_kernel(void *prog, const char *name)
{
    CUfunction f;
    return cuModuleGetFunction(&f, prog, name) == CUDA_SUCCESS ? f : NULL;
}

static CUdeviceptr buffer(size_t size, const void *host)
{
    CUdeviceptr p = 0;
    if (cuMemAlloc(&p, size) == CUDA_SUCCESS)
        cuMemcpyHtoD(p, host, size);
    return p;
}

/* Kernel parameters in SGC order; `local uint *slot` became a byte offset
 * into the dynamic shared memory (docs/DESIGN.md "CUDA C"). */
static int run(Dev *dev, void *k, Launch *l)
{
    (void)dev;
    size_t es = storage_size(l->c), n = l->n, no = (size_t)outputs(l->c);
    CUdeviceptr in = buffer(n * es, l->in), out = buffer(n * no * es, l->out);
    CUdeviceptr info = buffer(n * 16, l->info), pred = buffer(n * 4, l->pred), sel = buffer(n * 4, l->sel);
    unsigned kind = (unsigned)l->kind, slot_offset = 0;
    uint64_t init_bits = 0;
    store(l->c->type, (unsigned char *)&init_bits, l->init);
    void *params[] = {&in, &out, &info, &pred, &sel, &kind, &l->a0, &l->a1, &l->a2,
                      l->c->fam == FAM_ARITH ? (void *)&init_bits : (void *)&slot_offset, NULL};
    if (l->c->fam == FAM_MOVE)
        params[9] = NULL;
    unsigned shared = l->c->fam == FAM_VOTE ? (unsigned)(l->local * 4) : 0;
    CUresult r = cuLaunchKernel(k, (unsigned)l->groups, 1, 1, (unsigned)l->local, 1, 1, shared, NULL, params, NULL);
    if (r == CUDA_SUCCESS)
        r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS)
        r = cuMemcpyDtoH(l->out, out, n * no * es);
    if (r == CUDA_SUCCESS)
        r = cuMemcpyDtoH(l->info, info, n * 16);
    CUdeviceptr all[] = {in, out, info, pred, sel};
    for (int i = 0; i < 5; i++)
        cuMemFree(all[i]);
    return r == CUDA_SUCCESS ? 0 : (int)r;
}
#endif /* EXEC_CUDA */

/* ---- the reference ------------------------------------------------------ */

/* Members of work-item i's group in rank order; returns the count and sets
 * the group id and range the SPEC gives it. */
static int members(const Launch *l, size_t i, size_t *m, uint32_t *gid, uint32_t *grange)
{
    size_t wg0 = i / l->local * l->local, lid = i - wg0;
    if (!l->c->sub_groups) {
        for (size_t j = 0; j < l->local; j++)
            m[j] = wg0 + j;
        *gid = (uint32_t)(i / l->local);
        *grange = (uint32_t)l->groups;
        return (int)l->local;
    }
    size_t sgs = l->info[i * 4 + 0], sg0 = wg0 + lid / l->info[wg0 * 4] * l->info[wg0 * 4];
    (void)sgs;
    size_t full = l->info[wg0 * 4];
    size_t sg_end = sg0 + full < wg0 + l->local ? sg0 + full : wg0 + l->local;
    size_t lane = i - sg0;
    int count = 0;
    for (size_t j = sg0; j < sg_end; j++) {
        size_t jl = j - sg0;
        bool same;
        switch (l->kind) {
        case K_SUB: same = true; break;
        case K_FIXED: same = jl / l->fixed_n == lane / l->fixed_n; break;
        default: same = (l->pred[j] != 0) == (l->pred[i] != 0); break;
        }
        if (same)
            m[count++] = j;
    }
    switch (l->kind) {
    case K_SUB: *gid = (uint32_t)(lid / full); *grange = (uint32_t)((l->local + full - 1) / full); break;
    case K_BALLOT: *gid = l->pred[i] ? 0 : 1; *grange = 2; break;
    case K_FIXED:
        *gid = (uint32_t)(lane / l->fixed_n);
        *grange = (uint32_t)((sg_end - sg0 + l->fixed_n - 1) / l->fixed_n);
        break;
    default: *gid = 0; *grange = 1; break;
    }
    return count;
}

/* Sub-groups split the work-group by consecutive linear ids: checks the
 * shape the kernels recorded. */
static bool check_shape(const Launch *l)
{
    for (size_t i = 0; i < l->n; i++) {
        size_t wg0 = i / l->local * l->local, lid = i - wg0, full = l->info[wg0 * 4];
        if (full == 0 || l->info[i * 4 + 1] != lid / full || l->info[i * 4 + 2] != lid % full) {
            fail("%s: sub-group shape breaks the consecutive-ids rule (%s, item %ld, size %ld)",
                 l->c->name, kind_names[l->kind], (long)i, (long)full);
            return false;
        }
    }
    return true;
}

static void expect(const Launch *l, size_t i, int slot, Val want)
{
    Elem t = l->c->fam == FAM_VOTE ? T_UINT : l->c->type;
    size_t es = storage_size(l->c);
    Val got = load(t == T_BOOL ? T_UCHAR : t, l->out + (i * (size_t)outputs(l->c) + (size_t)slot) * es);
    if (t == T_BOOL)
        want.u = want.u != 0;
    if (val_eq(t == T_BOOL ? T_UCHAR : t, got, want)) {
        passes++;
        return;
    }
    char what[256];
    snprintf(what, sizeof what, "%s kind %s pattern %d local %zu item %zu slot %d%s%#x", l->c->name,
             l->c->sub_groups ? kind_names[l->kind] : "work_group", l->pattern, l->local, i, slot,
             l->edge >= 0 ? " edge " : "", l->edge >= 0 ? edge_values[l->edge] : 0u);
    char vals[160];
    if (elem_info[t].is_float)
        snprintf(vals, sizeof vals, "got %g want %g", got.d, want.d);
    else
        snprintf(vals, sizeof vals, "got %llu want %llu", (unsigned long long)got.u, (unsigned long long)want.u);
    fail("%s: %s", what, vals, 0, 0);
}

static void check_arith(const Launch *l, size_t i, const size_t *m, int count, int rank)
{
    Elem t = l->c->type;
    GOp op = l->c->op;
    size_t es = storage_size(l->c);
    Val red = identity(t, op), excl = identity(t, op), incl = identity(t, op);
    for (int r = 0; r < count; r++) {
        Val x = input(t, op, load(t, l->in + m[r] * es));
        if (r < rank)
            excl = apply(t, op, excl, x);
        if (r <= rank)
            incl = apply(t, op, incl, x);
        red = apply(t, op, red, x);
    }
    Val init = input(t, op, l->init);
    expect(l, i, 0, red);
    expect(l, i, 1, apply(t, op, init, red));
    expect(l, i, 2, excl);
    expect(l, i, 3, apply(t, op, init, excl));
    expect(l, i, 4, incl);
    expect(l, i, 5, apply(t, op, init, incl));
}

static void check_move(const Launch *l, size_t i, const size_t *m, int count, int rank)
{
    Elem t = l->c->type;
    size_t es = storage_size(l->c);
    Val own = load(t, l->in + i * es);
#define FROM(src) ((src) >= 0 && (src) < count ? load(t, l->in + m[src] * es) : own)
    expect(l, i, 0, FROM(0));
    expect(l, i, 1, FROM((long)l->a2));
    expect(l, i, 2, FROM((long)rank + (long)l->a0));
    expect(l, i, 3, FROM((long)rank - (long)l->a0));
    expect(l, i, 4, FROM((long)(rank ^ (int)l->a1)));
    expect(l, i, 5, FROM((long)(uint32_t)l->sel[i]));
#undef FROM
}

static void check_vote(const Launch *l, size_t i, const size_t *m, int count, int rank, uint32_t gid,
                       uint32_t grange)
{
    bool any = false, all = true;
    for (int r = 0; r < count; r++) {
        any |= l->sel[m[r]] != 0;
        all &= l->sel[m[r]] != 0;
    }
    Val v[9] = {{any}, {all}, {!any}, {gid}, {grange}, {(uint64_t)rank}, {(uint64_t)count}, {rank == 0},
                {m[0]}};
    for (int s = 0; s < 9; s++)
        expect(l, i, s, v[s]);
}

static void check(const Launch *l)
{
    if (l->c->sub_groups && !check_shape(l))
        return;
    size_t *m = malloc(l->local * sizeof *m);
    for (size_t i = 0; i < l->n; i++) {
        uint32_t gid, grange;
        int count = members(l, i, m, &gid, &grange), rank = 0;
        while (m[rank] != i)
            rank++;
        switch (l->c->fam) {
        case FAM_ARITH: check_arith(l, i, m, count, rank); break;
        case FAM_MOVE: check_move(l, i, m, count, rank); break;
        case FAM_VOTE: check_vote(l, i, m, count, rank, gid, grange); break;
        }
    }
    free(m);
}

/* ---- inputs -------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Values whose sums and products are exact in any order: floating values
 * are +-1 with rare +-2 and +-0.5 (products stay powers of two, far from
 * overflow); integers wrap, which is order-independent anyway. */
static Val random_value(Elem t, GOp op)
{
    Val v = {0};
    if (elem_info[t].is_float) {
        static const double pick[] = {1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 2, -0.5, 0.5, -2};
        v.d = pick[rnd() % 16];
        if (op == GOP_PLUS || op == GOP_MINIMUM || op == GOP_MAXIMUM)
            v.d *= (double)(rnd() % 9);
        /* Logical operators: mostly true (and) or mostly false (or), with
         * -0.0 among the false values (it compares equal to zero). */
        if (op == GOP_LOGICAL_AND && rnd() % 8 == 0)
            v.d = rnd() & 1 ? 0.0 : -0.0;
        else if (op == GOP_LOGICAL_OR && rnd() % 8 != 0)
            v.d = rnd() & 1 ? 0.0 : -0.0;
        return v;
    }
    v.u = rnd();
    if (op == GOP_LOGICAL_AND)
        v.u = rnd() % 8 != 0 ? v.u | 1 : 0;
    else if (op == GOP_LOGICAL_OR)
        v.u = rnd() % 8 == 0 ? v.u | 1 : 0;
    else if (op == GOP_BIT_AND)
        v.u |= rnd() | rnd();
    if (t == T_BOOL)
        v.u &= 1;
    return norm(t, v);
}

static void fill(Launch *l)
{
    size_t es = storage_size(l->c);
    for (size_t i = 0; i < l->n; i++) {
        int p = 0;
        switch (l->pattern) {
        case PAT_TRUE: p = 1; break;
        case PAT_FALSE: p = 0; break;
        case PAT_ALTERNATE: p = (int)(i & 1); break;
        case PAT_RANDOM: p = (int)(rnd() & 1); break;
        case PAT_SPARSE: p = rnd() % 7 == 0; break;
        }
        l->pred[i] = p;
        if (l->c->fam == FAM_VOTE)
            l->sel[i] = l->pattern == PAT_SPARSE ? rnd() % 5 == 0 : (int)(rnd() & 1) | (l->pattern == PAT_TRUE);
        else
            l->sel[i] = (int32_t)(rnd() % 40) - 3;
        if (l->c->fam == FAM_VOTE)
            memset(l->in + i * es, 0, es);
        else
            store(l->c->type, l->in + i * es, random_value(l->c->type, l->c->op));
    }
    memset(l->out, 0, l->n * (size_t)outputs(l->c) * es);
    memset(l->info, 0, l->n * 16);
    l->a0 = (uint32_t)(1 + rnd() % 5);
    l->a1 = (uint32_t)(1 + rnd() % 15);
    l->a2 = (uint32_t)(rnd() % 9);
    l->init = random_value(l->c->type, l->c->op);
    if (l->c->type == T_FLOAT || l->c->type == T_DOUBLE)
        l->init.d = 1.5; /* exact with the inputs above */
}


static void fill_edge(Launch *l)
{
    uint32_t e = edge_values[l->edge];
    l->a0 = l->a1 = l->a2 = e;
    for (size_t i = 0; i < l->n; i++)
        l->sel[i] = (int32_t)edge_values[(i + (size_t)l->edge) % EDGE_COUNT];
}

static bool selected(const Dev *dev, const char *name)
{
    if (!dev->only)
        return true;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", dev->only);
    for (char *save = NULL, *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save))
        if (strstr(name, f))
            return true;
    return false;
}

/* The kinds made in divergent control flow: they need sub-group operations
 * that work there. */
static bool kind_is_divergent(int kind)
{
    return kind == K_BALLOT || kind == K_TANGLE || kind == K_OPPORTUNISTIC;
}

/* How many kinds a sub-group case runs: --no-divergent drops the
 * opportunistic kind (the last). */
static int kind_count(bool divergent) { return divergent ? K_SG_COUNT : K_OPPORTUNISTIC; }

/* One launch of kernel k on fresh inputs (edge >= 0: edge_values[edge] as
 * the move family's arguments), checked against the reference. */
static void launch_and_check(Dev *dev, void *k, const Case *c, int kind, int pattern, size_t local,
                             unsigned fixed_n, int edge)
{
    Launch l = {.c = c, .kind = kind, .pattern = pattern, .local = local,
                .groups = local == 64 ? 2 : 1, .fixed_n = fixed_n, .edge = edge};
    l.n = l.local * l.groups;
    size_t es = storage_size(c);
    l.in = malloc(l.n * es);
    l.out = malloc(l.n * (size_t)outputs(c) * es);
    l.info = malloc(l.n * 16);
    l.pred = malloc(l.n * 4);
    l.sel = malloc(l.n * 4);
    fill(&l);
    if (edge >= 0)
        fill_edge(&l);
    if (dev->verbose) {
        printf("  %s %s pattern %d local %ld edge %d\n", c->name, c->sub_groups ? kind_names[kind] : "work_group",
               pattern, (long)l.local, edge);
        fflush(stdout);
    }
    if (run(dev, k, &l) != 0)
        fail("%s: launch failed (%s, local %ld)%ld", c->name, kind_names[kind], (long)l.local, 0);
    else
        check(&l);
    free(l.in), free(l.out), free(l.info), free(l.pred), free(l.sel);
}

static void run_case(Dev *dev, void *prog, const Case *c, unsigned fixed_n, bool divergent)
{
    void *k = get_kernel(prog, c->name);
    if (!k) {
        fail("%s: no kernel%s (%ld %ld)", c->name, "", 0, 0);
        return;
    }
    static const size_t sizes[] = {37, 64, 200}, quick_sizes[] = {300};
    const size_t *size = dev->local ? &dev->local : dev->quick ? quick_sizes : sizes;
    int nsizes = dev->local || dev->quick ? 1 : 3;
    int kinds = c->sub_groups ? kind_count(divergent) : 1;
    int first_pattern = dev->quick && c->fam != FAM_VOTE ? PAT_RANDOM : 0;
    int end_pattern = dev->quick && c->fam != FAM_VOTE ? PAT_RANDOM + 1 : PAT_COUNT;
    for (int kind = 0; kind < kinds; kind++) {
        bool divergent = kind_is_divergent(kind);
        if (c->sub_groups && dev->only_kind >= 0 && kind != dev->only_kind)
            continue;
        if (c->sub_groups && divergent && !dev->divergent_ok) {
            kinds_skipped++; /* sgrt refuses these kernels on such a device */
            continue;
        }
        for (int pattern = first_pattern; pattern < end_pattern; pattern++)
            for (int s = 0; s < nsizes; s++)
                launch_and_check(dev, k, c, kind, pattern, size[s], fixed_n, -1);
        /* The move family once more per edge value, on the first size. */
        for (int e = 0; c->fam == FAM_MOVE && e < EDGE_COUNT; e++)
            launch_and_check(dev, k, c, kind, PAT_RANDOM, size[0], fixed_n, e);
    }
    release_kernel(k);
}

/* Builds unit u (with dev->options) and runs its selected cases. */
static void run_unit(Dev *dev, const char *dir, size_t u, unsigned fixed_n, bool divergent,
                     int *refused)
{
    const Case *first = &cases[units[u].first];
    bool needs_sg = first->sub_groups;
    char *log = NULL;
    if (dev->verbose) {
        printf("building %s\n", units[u].name);
        fflush(stdout);
    }
    void *p = build(dev, dir, units[u].name, &log);
    if (needs_sg && !dev->sub_groups) {
        /* The wg tier must refuse each sub-group kernel by name. */
        char msg[256];
        snprintf(msg, sizeof msg, "kernel '%s' needs sub-groups", first->name);
        if (p || !log || !strstr(log, msg) || !strstr(log, "not supported on this device"))
            fail("%s: the wg tier did not refuse it with sgcc's error%s (%ld %ld)", units[u].name, "", 0, 0);
        else
            (*refused)++;
        free(log);
        if (p)
            release_program(p);
        return;
    }
    if (!p) {
        fail("%s: build failed:\n%.4000s (%ld %ld)", units[u].name, log ? log : "", 0, 0);
        free(log);
        return;
    }
    int before = failures;
    for (int c = units[u].first; c < units[u].end; c++)
        if (selected(dev, cases[c].name))
            run_case(dev, p, &cases[c], fixed_n, divergent);
    if (dev->only_kind >= 0)
        printf("%s[%s] %s\n", units[u].name, kind_names[dev->only_kind],
               failures == before ? "ok" : "FAILED");
    else
        printf("%-10s %s\n", units[u].name, failures == before ? "ok" : "FAILED");
    fflush(stdout);
    release_program(p);
}

int main(int argc, char **argv)
{
    const char *platform = NULL, *options = "", *dir = NULL;
    unsigned fixed_n = 4;
    bool divergent = true;
    Dev dev = {.only_kind = -1, .kind_filter = -1};
    /* Line-buffered even into a file: a run killed by a time limit (a hang
     * on some device) still shows how far it got. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc)
            platform = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            options = argv[++i];
        else if (!strcmp(argv[i], "-N") && i + 1 < argc)
            fixed_n = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-divergent"))
            divergent = false;
        else if (!strcmp(argv[i], "-k") && i + 1 < argc)
            dev.only = argv[++i];
        else if (!strcmp(argv[i], "--local") && i + 1 < argc)
            dev.local = (size_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick"))
            dev.quick = true;
        else if (!strcmp(argv[i], "-v"))
            dev.verbose = true;
        else if (!strcmp(argv[i], "--per-kind"))
            dev.per_kind = true;
        else if (!strcmp(argv[i], "--sample"))
            dev.sample = true;
        else if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
            const char *want = argv[++i];
            for (int k = 0; k < K_SG_COUNT; k++)
                if (!strcmp(want, kind_names[k]))
                    dev.kind_filter = k;
            if (dev.kind_filter < 0) {
                fprintf(stderr, "unknown group kind '%s'\n", want);
                return 2;
            }
            dev.per_kind = true;
        } else
            dir = argv[i];
    }
    if (!dir) {
        fprintf(stderr, "usage: %s [-p PLATFORM] [-o OPTIONS] [-N FIXED_N] [-k NAMES] [--quick] [--local N] [-v] [--no-divergent] [--per-kind] [--kind KIND] [--sample] DIR\n", argv[0]);
        return 2;
    }
    if (pick_device(&dev, platform) != 0) {
        printf("no OpenCL platform matching '%s': skipped\n", platform ? platform : "");
        return 77;
    }
    if (strstr(options, "SGC_FORCE_TIER_WG")) /* the library's test switch */
        dev.sub_groups = false;
    if (strstr(options, "SGC_NV_PTX")) /* NVIDIA OpenCL: warps through inline PTX */
        dev.sub_groups = dev.divergent_ok = true;
    /* FIXED_N is spec constant 0 of every unit (gen_exec.py). */
    char opts[1024];
    /* As sgrt does, SGC_DEVICE_CPU on a CPU device: the work-group tree's
     * CPU shape (docs/GROUPS.md; PoCL 3.1 needed minutes per kernel for the
     * log-step tree). */
    snprintf(opts, sizeof opts, "%s%s -DSGC_SPEC_0=%uu", dev.cpu ? "-DSGC_DEVICE_CPU=1 " : "",
             options, fixed_n);
    dev.options = opts;
    int refused = 0;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        const Case *first = &cases[units[u].first];
        bool needs_sg = first->sub_groups, needs_fp64 = first->type == T_DOUBLE;
        bool any = false;
        if (dev.sample != !strncmp(units[u].name, "sample_", 7))
            continue;
        for (int c = units[u].first; c < units[u].end; c++)
            any |= selected(&dev, cases[c].name);
        if (!any)
            continue;
        if (needs_fp64 && !dev.fp64) {
            skips += units[u].end - units[u].first;
            continue;
        }
        if (!needs_sg || !dev.per_kind || !dev.sub_groups) {
            run_unit(&dev, dir, u, fixed_n, divergent, &refused);
            continue;
        }
        /* One program per kind: ONLY_KIND (spec constant 1, gen_exec.py)
         * folds the other kinds' branches away in the device compiler. */
        for (int kind = 0; kind < kind_count(divergent); kind++) {
            if (dev.kind_filter >= 0 && kind != dev.kind_filter)
                continue;
            if (kind_is_divergent(kind) && !dev.divergent_ok) {
                /* Not built: run_case would skip (and count) every launch. */
                for (int c = units[u].first; c < units[u].end; c++)
                    kinds_skipped += selected(&dev, cases[c].name);
                continue;
            }
            char kind_opts[1100];
            snprintf(kind_opts, sizeof kind_opts, "%s -DSGC_SPEC_1=%d", opts, kind);
            dev.options = kind_opts;
            dev.only_kind = kind;
            run_unit(&dev, dir, u, fixed_n, divergent, &refused);
        }
        dev.options = opts;
        dev.only_kind = -1;
    }
    printf("%d checks passed, %d failed, %d kernels skipped (no fp64), %d units refused on the wg tier, "
           "%d ballot/tangle/opportunistic kernel runs skipped (no divergent sub-group operations)\n",
           passes, failures, skips, refused, kinds_skipped);
    return failures ? 1 : 0;
}
