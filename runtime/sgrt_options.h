/* sgrt_options.h — the build options sgrt passes to the device compilers,
 * spelled once.  runtime/backends/opencl/opencl.c,
 * runtime/backends/cuda/cuda.c and runtime/program.c
 * print them; sgcc's module description (compiler/module/emit_json.c,
 * docs/module.schema.json) lists them for hosts that build the emitted
 * sources themselves, so the two cannot drift apart.  Internal: not
 * installed.  Options that take a value are the prefix the value follows. */
#ifndef SGRT_OPTIONS_H
#define SGRT_OPTIONS_H

/* OpenCL: the device's OpenCL C version, when it is 3.x or 2.x (1.x: none). */
#define SGRT_OPT_CL_STD_3 "-cl-std=CL3.0"
#define SGRT_OPT_CL_STD_2 "-cl-std=CL2.0"
/* OpenCL on NVIDIA: the nvptx tier (docs/DESIGN.md "OpenCL C"), and the compute capability
 * (major * 10 + minor) that picks sm_80/sm_90 paths. */
#define SGRT_OPT_NV_PTX "-DSGC_NV_PTX=1"
#define SGRT_OPT_NV_SM "-DSGC_NV_SM="
/* OpenCL on a CPU device: chooses the work-group strategy's default. */
#define SGRT_OPT_DEVICE_CPU "-DSGC_DEVICE_CPU=1"
/* OpenCL: the device's CL_DEVICE_MAX_WORK_GROUP_SIZE, which sizes the
 * work-group collectives' scratch (a slot per work-item:
 * compiler/emit/opencl/opencl_workgroup.cl). */
#define SGRT_OPT_WG_MAX_ITEMS "-DSGC_WG_MAX_ITEMS="
/* OpenCL: a kernel the device cannot run is left out of the program (with
 * the functions only such kernels call) instead of stopping the build with
 * #error; sgrt_kernel_get refuses it by name (docs/LOWERING.md "Refusals
 * in the OpenCL output"). */
#define SGRT_OPT_SKIP_UNSUPPORTED "-DSGC_SKIP_UNSUPPORTED_KERNELS"
/* Both: the work-group strategy (sgrt_wg_strategy; 0 lets the source pick). */
#define SGRT_OPT_WG_STRATEGY "-DSGC_WG_STRATEGY="
/* Both: a spec constant's value, SGC_SPEC_<id>=<value> (docs/REFERENCE.md "Specialization constants"). */
#define SGRT_OPT_SPEC "-DSGC_SPEC_"
/* CUDA (NVRTC): the device's architecture, sm_<major><minor>. */
#define SGRT_OPT_CUDA_ARCH "--gpu-architecture=sm_"

#endif
