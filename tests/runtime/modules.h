/* modules.h — hand-written module descriptors for the runtime tests.
 *
 * Until sgcc emits them, these stand in for `sgcc --header` output: each
 * module has OpenCL C and CUDA C sources that follow the binding contract
 * of docs/REFERENCE.md "Specialization constants" (SGC_SPEC_N macros, #error for required constants) and the
 * dynamic-local-memory convention of docs/DESIGN.md, with #line directives
 * pointing at an imaginary .sgc file. */
#ifndef SGRT_TEST_MODULES_H
#define SGRT_TEST_MODULES_H

#include <sgrt.h>

/* The CUDA prelude the emitter would write (work-item functions). */
#define CUDA_PRELUDE                                                                        \
    "__device__ __forceinline__ unsigned long get_global_id(int d) {\n"                     \
    "  return d == 0 ? blockIdx.x * blockDim.x + threadIdx.x\n"                             \
    "       : d == 1 ? blockIdx.y * blockDim.y + threadIdx.y\n"                             \
    "                : blockIdx.z * blockDim.z + threadIdx.z; }\n"                          \
    "__device__ __forceinline__ unsigned long get_local_id(int d) {\n"                      \
    "  return d == 0 ? threadIdx.x : d == 1 ? threadIdx.y : threadIdx.z; }\n"               \
    "__device__ __forceinline__ unsigned long get_group_id(int d) {\n"                      \
    "  return d == 0 ? blockIdx.x : d == 1 ? blockIdx.y : blockIdx.z; }\n"                  \
    "__device__ __forceinline__ unsigned long get_local_size(int d) {\n"                    \
    "  return d == 0 ? blockDim.x : d == 1 ? blockDim.y : blockDim.z; }\n"

/* ---- vadd: c = a + b -------------------------------------------------- */
static const char vadd_cl[] =
    "#line 1 \"vadd.sgc\"\n"
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";
static const char vadd_cu[] = CUDA_PRELUDE
    "#line 1 \"vadd.sgc\"\n"
    "extern \"C\" __global__ void vadd(const float *a, const float *b, float *c, int n) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";
static const sgrt_param_desc vadd_params[] = {
    {"a", SGRT_PARAM_GLOBAL, SGRT_TYPE_FLOAT, 4},
    {"b", SGRT_PARAM_GLOBAL, SGRT_TYPE_FLOAT, 4},
    {"c", SGRT_PARAM_GLOBAL, SGRT_TYPE_FLOAT, 4},
    {"n", SGRT_PARAM_SCALAR, SGRT_TYPE_INT, 4},
};
static const sgrt_kernel_desc vadd_kernels[] = {
    {.name = "vadd", .param_count = 4, .params = vadd_params},
};
static const sgrt_module_desc vadd_module = {
    .abi = SGRT_MODULE_ABI, .name = "vadd", .source_file = "vadd.sgc",
    .sources = {[SGRT_BACKEND_OPENCL] = vadd_cl, [SGRT_BACKEND_CUDA] = vadd_cu},
    .kernel_count = 1, .kernels = vadd_kernels,
};

/* ---- block_sum: spec constants as a local array size and loop bound --- */
#define BLOCK_SUM_SPECS                                                                     \
    "#ifdef SGC_SPEC_0\n#define SGC_SC_block ((int)(SGC_SPEC_0))\n"                         \
    "#else\n#define SGC_SC_block ((int)(16))\n#endif\n"                                     \
    "#ifdef SGC_SPEC_3\n#define SGC_SC_scale ((float)(SGC_SPEC_3))\n#else\n"               \
    "#error \"spec constant 'scale' (ID 3) has no value: define SGC_SPEC_3\"\n#endif\n"
static const char block_sum_cl[] = BLOCK_SUM_SPECS
    "#line 3 \"block_sum.sgc\"\n"
    "__kernel void block_sum(__global const float *in, __global float *out) {\n"
    "  __local float tile[SGC_SC_block];\n"
    "  int l = get_local_id(0);\n"
    "  tile[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l == 0) {\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < SGC_SC_block; i++) s += tile[i];\n"
    "    out[get_group_id(0)] = s * SGC_SC_scale;\n"
    "  }\n"
    "}\n";
static const char block_sum_cu[] = CUDA_PRELUDE BLOCK_SUM_SPECS
    "#line 3 \"block_sum.sgc\"\n"
    "extern \"C\" __global__ void block_sum(const float *in, float *out) {\n"
    "  __shared__ float tile[SGC_SC_block];\n"
    "  int l = (int)get_local_id(0);\n"
    "  tile[l] = in[get_global_id(0)];\n"
    "  __syncthreads();\n"
    "  if (l == 0) {\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < SGC_SC_block; i++) s += tile[i];\n"
    "    out[get_group_id(0)] = s * SGC_SC_scale;\n"
    "  }\n"
    "}\n";
static const sgrt_spec_desc block_sum_specs[] = {
    {"block", 0, SGRT_TYPE_INT, false, {.i = 16}},
    {"scale", 3, SGRT_TYPE_FLOAT, true, {.f = 0}},
};
static const sgrt_param_desc block_sum_params[] = {
    {"in", SGRT_PARAM_GLOBAL, SGRT_TYPE_FLOAT, 4},
    {"out", SGRT_PARAM_GLOBAL, SGRT_TYPE_FLOAT, 4},
};
static const sgrt_kernel_desc block_sum_kernels[] = {
    {.name = "block_sum", .param_count = 2, .params = block_sum_params},
};
static const sgrt_module_desc block_sum_module = {
    .abi = SGRT_MODULE_ABI, .name = "block_sum", .source_file = "block_sum.sgc",
    .sources = {[SGRT_BACKEND_OPENCL] = block_sum_cl, [SGRT_BACKEND_CUDA] = block_sum_cu},
    .spec_count = 2, .specs = block_sum_specs,
    .kernel_count = 1, .kernels = block_sum_kernels,
};

/* ---- echo: writes spec-constant values back, to check exact binding --- */
#define ECHO_SPECS                                                                          \
    "#ifdef SGC_SPEC_1\n#define SGC_SC_l ((long)(SGC_SPEC_1))\n#else\n"                     \
    "#define SGC_SC_l ((long)(-7))\n#endif\n"                                               \
    "#ifdef SGC_SPEC_2\n#define SGC_SC_ul ((ulong)(SGC_SPEC_2))\n#else\n"                   \
    "#define SGC_SC_ul ((ulong)(7))\n#endif\n"                                              \
    "#ifdef SGC_SPEC_5\n#define SGC_SC_d ((double)(SGC_SPEC_5))\n#else\n"                   \
    "#define SGC_SC_d ((double)(0.5))\n#endif\n"                                            \
    "#ifdef SGC_SPEC_6\n#define SGC_SC_f ((float)(SGC_SPEC_6))\n#else\n"                    \
    "#define SGC_SC_f ((float)(0.25f))\n#endif\n"                                           \
    "#ifdef SGC_SPEC_7\n#define SGC_SC_i ((int)(SGC_SPEC_7))\n#else\n"                      \
    "#define SGC_SC_i ((int)(3))\n#endif\n"                                                 \
    "#ifdef SGC_SPEC_8\n#define SGC_SC_b ((bool)(SGC_SPEC_8))\n#else\n"                     \
    "#define SGC_SC_b ((bool)(0))\n#endif\n"
static const char echo_cl[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" ECHO_SPECS
    "#line 1 \"echo.sgc\"\n"
    "__kernel void echo(__global long *l, __global double *d, __global float *f,\n"
    "                   __global int *i) {\n"
    "  l[0] = SGC_SC_l; l[1] = (long)SGC_SC_ul; d[0] = SGC_SC_d; f[0] = SGC_SC_f;\n"
    "  i[0] = SGC_SC_i; i[1] = SGC_SC_b ? 1 : 0;\n"
    "}\n";
static const char echo_cu[] =
    "typedef unsigned long ulong;\n" ECHO_SPECS
    "#line 1 \"echo.sgc\"\n"
    "extern \"C\" __global__ void echo(long *l, double *d, float *f, int *i) {\n"
    "  l[0] = SGC_SC_l; l[1] = (long)SGC_SC_ul; d[0] = SGC_SC_d; f[0] = SGC_SC_f;\n"
    "  i[0] = SGC_SC_i; i[1] = SGC_SC_b ? 1 : 0;\n"
    "}\n";
static const sgrt_spec_desc echo_specs[] = {
    {"l", 1, SGRT_TYPE_LONG, false, {.l = -7}},
    {"ul", 2, SGRT_TYPE_ULONG, false, {.ul = 7}},
    {"d", 5, SGRT_TYPE_DOUBLE, false, {.d = 0.5}},
    {"f", 6, SGRT_TYPE_FLOAT, false, {.f = 0.25f}},
    {"i", 7, SGRT_TYPE_INT, false, {.i = 3}},
    {"b", 8, SGRT_TYPE_BOOL, false, {.b = false}},
};
static const sgrt_param_desc echo_params[] = {
    {"l", SGRT_PARAM_GLOBAL, SGRT_TYPE_LONG, 8},
    {"d", SGRT_PARAM_GLOBAL, SGRT_TYPE_DOUBLE, 8},
    {"f", SGRT_PARAM_GLOBAL, SGRT_TYPE_FLOAT, 4},
    {"i", SGRT_PARAM_GLOBAL, SGRT_TYPE_INT, 4},
};
static const sgrt_kernel_desc echo_kernels[] = {
    {.name = "echo", .param_count = 4, .params = echo_params},
};
static const sgrt_module_desc echo_module = {
    .abi = SGRT_MODULE_ABI, .name = "echo", .source_file = "echo.sgc",
    .sources = {[SGRT_BACKEND_OPENCL] = echo_cl, [SGRT_BACKEND_CUDA] = echo_cu},
    .spec_count = 6, .specs = echo_specs,
    .kernel_count = 1, .kernels = echo_kernels, .needs_fp64 = true,
};

/* ---- reverse: dynamic local memory (local T * parameter) -------------- */
static const char reverse_cl[] =
    "#line 1 \"reverse.sgc\"\n"
    "__kernel void reverse(__global const int *in, __local int *pad, __local int *tmp,\n"
    "                      __global int *out) {\n"
    "  int l = get_local_id(0), n = get_local_size(0);\n"
    "  pad[0] = 0;\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = tmp[n - 1 - l];\n"
    "}\n";
static const char reverse_cu[] = CUDA_PRELUDE
    "extern __shared__ unsigned char sgc_dynamic_local[];\n"
    "#line 1 \"reverse.sgc\"\n"
    "extern \"C\" __global__ void reverse(const int *in, unsigned int pad_sgc_offset,\n"
    "                                    unsigned int tmp_sgc_offset, int *out) {\n"
    "  int *pad = (int *)(sgc_dynamic_local + pad_sgc_offset);\n"
    "  int *tmp = (int *)(sgc_dynamic_local + tmp_sgc_offset);\n"
    "  int l = (int)get_local_id(0), n = (int)get_local_size(0);\n"
    "  pad[0] = 0;\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  __syncthreads();\n"
    "  out[get_global_id(0)] = tmp[n - 1 - l];\n"
    "}\n";
static const sgrt_param_desc reverse_params[] = {
    {"in", SGRT_PARAM_GLOBAL, SGRT_TYPE_INT, 4},
    {"pad", SGRT_PARAM_LOCAL, SGRT_TYPE_INT, 4},
    {"tmp", SGRT_PARAM_LOCAL, SGRT_TYPE_INT, 4},
    {"out", SGRT_PARAM_GLOBAL, SGRT_TYPE_INT, 4},
};
static const sgrt_kernel_desc reverse_kernels[] = {
    {.name = "reverse", .param_count = 4, .params = reverse_params},
};
static const sgrt_module_desc reverse_module = {
    .abi = SGRT_MODULE_ABI, .name = "reverse", .source_file = "reverse.sgc",
    .sources = {[SGRT_BACKEND_OPENCL] = reverse_cl, [SGRT_BACKEND_CUDA] = reverse_cu},
    .kernel_count = 1, .kernels = reverse_kernels,
};

/* ---- broken: a device-compiler error at broken.sgc:3 ------------------ */
static const char broken_src[] =
    "#line 1 \"broken.sgc\"\n"
    "__kernel void broken(__global int *p) {\n"
    "  int x = 1;\n"
    "  p[0] = x + undeclared_name;\n"
    "}\n";
static const sgrt_param_desc broken_params[] = {{"p", SGRT_PARAM_GLOBAL, SGRT_TYPE_INT, 4}};
static const sgrt_kernel_desc broken_kernels[] = {
    {.name = "broken", .param_count = 1, .params = broken_params},
};
static const sgrt_module_desc broken_module = {
    .abi = SGRT_MODULE_ABI, .name = "broken", .source_file = "broken.sgc",
    .sources = {[SGRT_BACKEND_OPENCL] = broken_src,
                [SGRT_BACKEND_CUDA] = "#define __kernel extern \"C\" __global__\n"
                                      "#define __global\n"
                                      "#line 1 \"broken.sgc\"\n"
                                      "__kernel void broken(__global int *p) {\n"
                                      "  int x = 1;\n"
                                      "  p[0] = x + undeclared_name;\n"
                                      "}\n"},
    .kernel_count = 1, .kernels = broken_kernels,
};

/* ---- needs_sg: a kernel flagged as needing sub-groups ----------------- */
static const sgrt_kernel_desc needs_sg_kernels[] = {
    {.name = "vadd", .param_count = 4, .params = vadd_params, .needs_sub_groups = true},
};
static const sgrt_module_desc needs_sg_module = {
    .abi = SGRT_MODULE_ABI, .name = "needs_sg", .source_file = "needs_sg.sgc",
    .sources = {[SGRT_BACKEND_OPENCL] = vadd_cl, [SGRT_BACKEND_CUDA] = vadd_cu},
    .kernel_count = 1, .kernels = needs_sg_kernels,
};

#endif
