/* kdialect.h — the few spellings that differ between OpenCL C and CUDA C, so
 * that kernels.inc holds every split-barrier test kernel once, written the
 * way sgcc lowers SGC (calls into the barrier prelude sections).  Included
 * after the prelude section and before kernels.inc, on both sides. */

#define TEST_WG 128 /* work-group size of every test kernel */

#ifdef __OPENCL_VERSION__
#define KERNEL __kernel __attribute__((reqd_work_group_size(TEST_WG, 1, 1))) void
#define GLOBAL __global
#define LOCAL __local
#define LOCAL_DECL(decl) __local decl __attribute__((aligned(16)))
#define LID() ((unsigned)get_local_id(0))
#define GROUP_ID() ((unsigned)get_group_id(0))
#define GROUP_BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#else
#define KERNEL extern "C" __global__ void __launch_bounds__(TEST_WG)
#define GLOBAL
#define LOCAL
#define LOCAL_DECL(decl) __shared__ __align__(16) decl
#define LID() ((unsigned)threadIdx.x)
#define GROUP_ID() ((unsigned)blockIdx.x)
#define GROUP_BARRIER() __syncthreads()
#endif

/* Subset waits (a wait that not every work-item executes) need independent
 * forward progress: CUDA, the nvptx tier, or the spin emulation. */
#if !defined(__OPENCL_VERSION__) || defined(SGC_NV_PTX) || defined(SGC_ASYNC_BARRIER_SPIN)
#define TEST_SUBSET_WAITS 1
#else
#define TEST_SUBSET_WAITS 0
#endif
