/* sgrt.h — the sgrt runtime: runs modules emitted by sgcc on OpenCL or CUDA.
 *
 * One error convention everywhere: every function returns an sgrt_status;
 * on failure a human-readable message for the calling thread is available
 * from sgrt_last_error().  The library never aborts or exits.
 *
 * Object model (all handles are opaque):
 *   sgrt_device   one OpenCL or CUDA device; owned by the library, valid
 *                 for the life of the process.
 *   sgrt_context  a device plus one in-order queue/stream with profiling.
 *   sgrt_queue    one more in-order queue/stream of a context.
 *   sgrt_buffer   device memory of one context.
 *   sgrt_program  a module (sgrt_module_desc, from `sgcc --header`) with
 *                 its spec-constant values; built once, then immutable.
 *   sgrt_kernel   a kernel of a built program; owned by the program.
 *   sgrt_event    one launch, for waiting and profiling times.
 * Objects of one context may be used from several threads as long as one
 * kernel object is not set up and launched by two threads at once; use a
 * program per thread for that.  Full reference: docs/RUNTIME.md. */
#ifndef SGRT_H
#define SGRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SGRT_VERSION_MAJOR 0
#define SGRT_VERSION_MINOR 2
/* Bumped when sgrt_module_desc changes; generated headers record it. */
#define SGRT_MODULE_ABI 2

/* ------------------------------------------------------------------ */
/* Status codes: X(name, description)                                  */
/* ------------------------------------------------------------------ */
#define SGRT_STATUSES(X)                                                           \
    X(SUCCESS, "success")                                                          \
    X(ERROR_NO_DEVICE, "no (matching) device")                                     \
    X(ERROR_INVALID_ARGUMENT, "invalid argument")                                  \
    X(ERROR_SPEC_UNKNOWN_ID, "unknown specialization-constant ID")                 \
    X(ERROR_SPEC_TYPE_MISMATCH, "specialization-constant type or size mismatch")   \
    X(ERROR_SPEC_AFTER_BUILD, "specialization constant set after the build")       \
    X(ERROR_SPEC_REQUIRED_UNSET, "required specialization constant has no value")  \
    X(ERROR_BUILD_FAILED, "device program build failed")                           \
    X(ERROR_NOT_BUILT, "program is not built")                                     \
    X(ERROR_KERNEL_NOT_FOUND, "kernel not found")                                  \
    X(ERROR_ARG_COUNT, "wrong kernel argument index or count")                     \
    X(ERROR_ARG_TYPE, "wrong kernel argument type or size")                        \
    X(ERROR_UNSUPPORTED, "device lacks a capability the kernel needs")             \
    X(ERROR_BACKEND, "OpenCL or CUDA call failed")                                 \
    X(ERROR_OUT_OF_MEMORY, "out of memory")                                        \
    X(ERROR_IO, "file input/output failed")                                        \
    X(ERROR_KERNEL_UNSUPPORTED, "sgcc left the kernel out of this backend's source") \
    X(ERROR_INVALID_HANDLE, "not a valid native OpenCL or CUDA handle")            \
    X(ERROR_HANDLE_MISMATCH, "native handles do not belong together or to this backend") \
    X(ERROR_COMPILE, "the SGC source has errors")                                  \
    X(ERROR_NOT_REGULAR_FILE, "not a regular file")                                \
    X(ERROR_FILE_TOO_LARGE, "file larger than sgrt reads")                         \
    X(ERROR_WORK_SIZE, "launch sizes out of range for the kernel or the device")   \
    X(ERROR_INVALID_MODULE, "malformed module descriptor")

typedef enum sgrt_status {
#define SGRT_X(name, text) SGRT_##name,
    SGRT_STATUSES(SGRT_X)
#undef SGRT_X
    SGRT_STATUS_COUNT
} sgrt_status;

/* "SGRT_ERROR_NO_DEVICE", ...; "SGRT_UNKNOWN_STATUS" for other values. */
const char *sgrt_status_name(sgrt_status status);
/* Message of the most recent failing call on this thread ("" if none);
 * successful calls leave it unchanged. */
const char *sgrt_last_error(void);

/* ------------------------------------------------------------------ */
/* Scalar types: X(NAME, lower name, C type, union member)             */
/* ------------------------------------------------------------------ */
#define SGRT_TYPES(X)                         \
    X(BOOL, bool, bool, b)                    \
    X(CHAR, char, int8_t, c)                  \
    X(UCHAR, uchar, uint8_t, uc)              \
    X(SHORT, short, int16_t, s)               \
    X(USHORT, ushort, uint16_t, us)           \
    X(INT, int, int32_t, i)                   \
    X(UINT, uint, uint32_t, ui)               \
    X(LONG, long, int64_t, l)                 \
    X(ULONG, ulong, uint64_t, ul)             \
    X(FLOAT, float, float, f)                 \
    X(DOUBLE, double, double, d)

typedef enum sgrt_type {
    SGRT_TYPE_NONE,   /* not a scalar: struct/union element or parameter */
#define SGRT_X(NAME, name, ctype, member) SGRT_TYPE_##NAME,
    SGRT_TYPES(SGRT_X)
#undef SGRT_X
    SGRT_TYPE_COUNT
} sgrt_type;

/* One value of any sgrt_type (the member named in SGRT_TYPES). */
typedef union sgrt_value {
#define SGRT_X(NAME, name, ctype, member) ctype member;
    SGRT_TYPES(SGRT_X)
#undef SGRT_X
} sgrt_value;

const char *sgrt_type_name(sgrt_type type);   /* "int", ...; "none" */
size_t sgrt_type_size(sgrt_type type);        /* bytes on the device; 0 for NONE */

/* Used by generated headers: SGRT_EXACT(x, T) is x, but a compile error
 * (in C11 and later) unless x has exactly type T, so that typed launchers
 * reject a double passed for a float or a float * passed for a buffer. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define SGRT_EXACT(x, T) _Generic((x), T: (x))
#else
#define SGRT_EXACT(x, T) (x)
#endif
#if defined(__GNUC__)
#define SGRT_MAYBE_UNUSED __attribute__((unused))
#else
#define SGRT_MAYBE_UNUSED
#endif

/* ------------------------------------------------------------------ */
/* Module descriptor (written by `sgcc --header`)                      */
/* ------------------------------------------------------------------ */
/* The backends, in the order of sgcc's targets: the module descriptor's
 * per-backend arrays are indexed by them (runtime/device.c holds the
 * registry of their implementations). */
typedef enum sgrt_backend { SGRT_BACKEND_OPENCL, SGRT_BACKEND_CUDA, SGRT_BACKEND_COUNT } sgrt_backend;
/* The backend's name as SGRT_DEVICE spells it ("opencl", "cuda"); NULL if
 * invalid. */
const char *sgrt_backend_name(sgrt_backend backend);

typedef struct sgrt_spec_desc {
    const char *name;         /* as declared in the .sgc */
    uint32_t id;              /* binds macro SGC_SPEC_<id> */
    sgrt_type type;
    bool required;            /* no default: must be set before the build */
    sgrt_value default_value; /* meaningful when !required */
} sgrt_spec_desc;

typedef enum sgrt_param_kind {
    SGRT_PARAM_GLOBAL,   /* global T *: pass an sgrt_buffer * */
    SGRT_PARAM_CONSTANT, /* constant T *: pass an sgrt_buffer * */
    SGRT_PARAM_LOCAL,    /* local T *: dynamic local memory, pass a byte size */
    SGRT_PARAM_SCALAR,   /* by value */
} sgrt_param_kind;

typedef struct sgrt_param_desc {
    const char *name;
    sgrt_param_kind kind;
    sgrt_type type;      /* scalar type, or pointee type for pointers (NONE: struct) */
    size_t size;         /* bytes: by-value size for scalars, element size for pointers */
} sgrt_param_desc;

typedef struct sgrt_kernel_desc {
    const char *name;
    uint32_t param_count;
    const sgrt_param_desc *params;
    uint32_t reqd_work_group_size[3]; /* all 0 when not required */
    uint32_t reqd_sub_group_size;     /* 0 when not required */
    bool needs_sub_groups;            /* uses sub-groups or non-uniform groups */
    bool needs_split_barriers;        /* uses async_barrier */
    bool needs_non_uniform_groups;    /* makes ballot/tangle/opportunistic groups */
    /* Indexed by sgrt_backend: NULL when that backend's source has the
     * kernel, else why sgcc left it out ("requires sub-group size 16, but
     * CUDA warps have 32 threads"); sgrt_kernel_get then fails with
     * SGRT_ERROR_KERNEL_UNSUPPORTED on that backend. */
    const char *unsupported[SGRT_BACKEND_COUNT];
} sgrt_kernel_desc;

typedef struct sgrt_module_desc {
    uint32_t abi;              /* SGRT_MODULE_ABI when generated */
    const char *name;          /* module name (sanitised .sgc basename) */
    const char *source_file;   /* the .sgc path given to sgcc */
    /* Indexed by sgrt_backend: that backend's source text (OpenCL C,
     * CUDA C), NUL-terminated; NULL: none. */
    const char *sources[SGRT_BACKEND_COUNT];
    uint32_t spec_count;
    const sgrt_spec_desc *specs;
    uint32_t kernel_count;
    const sgrt_kernel_desc *kernels;
    bool needs_fp64;
} sgrt_module_desc;

/* ------------------------------------------------------------------ */
/* Devices                                                             */
/* ------------------------------------------------------------------ */
typedef struct sgrt_device sgrt_device;
typedef struct sgrt_context sgrt_context;
typedef struct sgrt_buffer sgrt_buffer;
typedef struct sgrt_program sgrt_program;
typedef struct sgrt_kernel sgrt_kernel;
typedef struct sgrt_event sgrt_event;
typedef struct sgrt_queue sgrt_queue;

typedef enum sgrt_device_kind {
    SGRT_DEVICE_GPU, SGRT_DEVICE_CPU, SGRT_DEVICE_ACCELERATOR, SGRT_DEVICE_OTHER
} sgrt_device_kind;

#define SGRT_MAX_SUB_GROUP_SIZES 8

/* How the device library lowers work-group reductions and scans
 * (docs/GROUPS.md "Work-group strategies"); the build passes the chosen one
 * as -DSGC_WG_STRATEGY=<value>.  The values are part of that contract:
 * SGC_WG_TREE/BUILTIN/SUBGROUP in compiler/emit/opencl/opencl_workgroup.cl and
 * cuda_workgroup.cuh must change with them. */
typedef enum sgrt_wg_strategy {
    SGRT_WG_DEFAULT = 0,   /* the device's best (sgrt_device_info.wg_strategy) */
    SGRT_WG_TREE = 1,      /* log-step tree in local memory: every device */
    SGRT_WG_BUILTIN = 2,   /* OpenCL C 2.0 work_group_reduce/scan_* built-ins */
    SGRT_WG_SUBGROUP = 3,  /* sub-group (warp) algorithms + local memory */
    SGRT_WG_STRATEGY_COUNT
} sgrt_wg_strategy;

/* "default", "tree", "builtin", "subgroup"; NULL for other values. */
const char *sgrt_wg_strategy_name(sgrt_wg_strategy strategy);
/* Parses one of those names; INVALID_ARGUMENT (naming the choices) otherwise. */
sgrt_status sgrt_wg_strategy_parse(const char *name, sgrt_wg_strategy *strategy);

/* Versioned by size: sgrt_device_get_info passes the caller's sizeof, sgrt
 * fills that many bytes at most and writes in struct_size how many it
 * filled, so a host built against a newer sgrt.h running on an older
 * libsgrt sees which fields are real.  Fields are only ever added at the
 * end.  (struct_size is new in 0.2: rebuild hosts built against 0.1.) */
typedef struct sgrt_device_info {
    uint32_t struct_size;       /* bytes filled in by sgrt */
    sgrt_backend backend;
    sgrt_device_kind kind;
    uint32_t backend_index;     /* index among this backend's devices ("opencl:N") */
    char name[256];
    char vendor[256];
    char platform[256];         /* OpenCL platform name; "CUDA" */
    char version[128];          /* device version string */
    char driver_version[128];
    /* capabilities (tiers: docs/DESIGN.md "OpenCL C") */
    bool sub_groups;            /* khr/intel extensions, NVIDIA OpenCL (nvptx), or CUDA */
    bool non_uniform_groups;    /* ballot + shuffle that work in divergent flow
                                   (a non-uniform extension; nvptx/CUDA) */
    bool split_barriers;        /* always on OpenCL (emulated); CUDA: sm_80+ */
    bool fp64;
    bool nvptx;                 /* NVIDIA OpenCL: host defines SGC_NV_PTX=1 */
    uint32_t sub_group_size_count;
    uint32_t sub_group_sizes[SGRT_MAX_SUB_GROUP_SIZES];
    size_t max_work_group_size;
    uint64_t local_mem_size;    /* bytes of local/shared memory per work-group */
    uint64_t global_mem_size;
    uint32_t opencl_c_major, opencl_c_minor; /* OpenCL C version (0.0 on CUDA) */
    uint32_t cuda_cc_major, cuda_cc_minor;   /* compute capability (0.0 on OpenCL) */
    bool wg_collectives;        /* OpenCL C 2.0 work_group_* built-ins (2.x, or 3.x with
                                   __opencl_c_work_group_collective_functions) */
    uint32_t wg_strategies;     /* bit (1u << s) for every sgrt_wg_strategy s the device has */
    sgrt_wg_strategy wg_strategy; /* the best of them: builtin, else subgroup, else tree */
} sgrt_device_info;

/* Number of devices of both backends (CUDA first, then OpenCL). */
sgrt_status sgrt_device_get_count(size_t *count);
sgrt_status sgrt_device_get(size_t index, sgrt_device **device);
/* Selects by `selector` (syntax in docs/RUNTIME.md: "cuda:0", "opencl:1",
 * "opencl:portable", "cpu", "gpu", "intel" ...); NULL means $SGRT_DEVICE, and when
 * that is unset, the first GPU, else the first OpenCL CPU device. */
sgrt_status sgrt_device_select(const char *selector, sgrt_device **device);
/* Copies at most `info_size` bytes of the device's sgrt_device_info. */
sgrt_status sgrt_device_get_info_sized(const sgrt_device *device, sgrt_device_info *info,
                                       size_t info_size);
/* The usual spelling: sgrt_device_get_info(device, &info). */
#define sgrt_device_get_info(device, info) \
    sgrt_device_get_info_sized((device), (info), sizeof *(info))

/* ------------------------------------------------------------------ */
/* Contexts, buffers, events                                           */
/* ------------------------------------------------------------------ */
sgrt_status sgrt_context_create(sgrt_device *device, sgrt_context **context);
/* Frees the context; buffers and programs of it must be freed first. */
sgrt_status sgrt_context_free(sgrt_context *context);
sgrt_status sgrt_context_get_device(const sgrt_context *context, sgrt_device **device);
/* Waits for all work queued on the context. */
sgrt_status sgrt_finish(sgrt_context *context);

sgrt_status sgrt_buffer_create(sgrt_context *context, size_t size, sgrt_buffer **buffer);
sgrt_status sgrt_buffer_free(sgrt_buffer *buffer);
sgrt_status sgrt_buffer_get_size(const sgrt_buffer *buffer, size_t *size);
/* Blocking copies, ordered with the context's launches. */
sgrt_status sgrt_buffer_write(sgrt_buffer *buffer, size_t offset, size_t size, const void *src);
sgrt_status sgrt_buffer_read(sgrt_buffer *buffer, size_t offset, size_t size, void *dst);

sgrt_status sgrt_event_wait(sgrt_event *event);
/* Device timestamps in nanoseconds (waits for the event first).  On CUDA
 * they count from the context's creation. */
sgrt_status sgrt_event_get_profile(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns);
sgrt_status sgrt_event_free(sgrt_event *event);

/* ------------------------------------------------------------------ */
/* Programs and spec constants (docs/REFERENCE.md "Specialization constants")   */
/* ------------------------------------------------------------------ */
/* The module descriptor must outlive the program.  It is checked first:
 * SGRT_ERROR_INVALID_MODULE for a NULL name or table that a count says
 * exists, a NULL kernel, parameter or spec-constant name, a type or kind
 * out of range, or a count above SGRT_MODULE_MAX_COUNT. */
#define SGRT_MODULE_MAX_COUNT 65536u
sgrt_status sgrt_program_create(sgrt_context *context, const sgrt_module_desc *module,
                                sgrt_program **program);
sgrt_status sgrt_program_free(sgrt_program *program);

/* Compiles SGC text at run time with libsgcc (linked into libsgrt), for
 * the context's backend; the program then behaves as one made from the
 * generated header's module (spec constants by ID or name, build, cache).
 * `name` (may be NULL: "<string>", module "source") is the file name in
 * diagnostics and #line, and the directory of quote includes; `options`
 * (may be NULL) are SGC options: -DNAME[=VALUE], -UNAME, -IDIR, -Wname,
 * -w, blank-separated.  Errors in the source: SGRT_ERROR_COMPILE with the
 * caret diagnostics as sgrt_last_error().  The translation is cached on
 * disk beside the built binaries (docs/RUNTIME.md). */
sgrt_status sgrt_program_create_from_source(sgrt_context *context, const char *source,
                                            const char *name, const char *options,
                                            sgrt_program **program);
/* The same for a file, read by sgrt: IO when it cannot be opened or read,
 * NOT_REGULAR_FILE for a FIFO, device, directory or socket (never blocks
 * nor reads without end), FILE_TOO_LARGE above SGRT_SOURCE_FILE_MAX. */
#define SGRT_SOURCE_FILE_MAX ((size_t)64 << 20)
sgrt_status sgrt_program_create_from_file(sgrt_context *context, const char *path,
                                          const char *options, sgrt_program **program);
/* The program's module descriptor (the header's, or the one compiled at
 * run time: owned by the program). */
sgrt_status sgrt_program_get_module(const sgrt_program *program, const sgrt_module_desc **module);

/* Sets spec constant `id` from `size` bytes at `value` of type `type`.
 * Errors: SPEC_UNKNOWN_ID, SPEC_TYPE_MISMATCH (type or size differ from the
 * declaration), SPEC_AFTER_BUILD.  May be repeated before the build. */
sgrt_status sgrt_program_set_spec(sgrt_program *program, uint32_t id, sgrt_type type,
                                  const void *value, size_t size);
/* The value the build uses: the one set, else the default.
 * SPEC_REQUIRED_UNSET for a required constant not yet set. */
sgrt_status sgrt_program_get_spec(const sgrt_program *program, uint32_t id, sgrt_type type,
                                  void *value, size_t size);

/* The same by the name declared in the .sgc (hosts without a generated
 * header); SPEC_UNKNOWN_ID when the module has no constant of that name. */
sgrt_status sgrt_program_set_spec_by_name(sgrt_program *program, const char *name,
                                          sgrt_type type, const void *value, size_t size);
sgrt_status sgrt_program_get_spec_by_name(const sgrt_program *program, const char *name,
                                          sgrt_type type, void *value, size_t size);
/* ID and type of the constant named `name`. */
sgrt_status sgrt_program_get_spec_id(const sgrt_program *program, const char *name,
                                     uint32_t *id, sgrt_type *type);

/* sgrt_program_set_spec_int(p, id, v) and so on, one per sgrt_type. */
#define SGRT_X(NAME, name, ctype, member) \
    sgrt_status sgrt_program_set_spec_##name(sgrt_program *program, uint32_t id, ctype value);
SGRT_TYPES(SGRT_X)
#undef SGRT_X

/* Builds for the context's device.  `options` (may be NULL) are appended to
 * the device compiler's options.  Refuses with SPEC_REQUIRED_UNSET (naming
 * the constant) or UNSUPPORTED (naming the capability) before compiling;
 * BUILD_FAILED leaves the device compiler's log in sgrt_program_get_build_log. */
sgrt_status sgrt_program_build(sgrt_program *program, const char *options);
/* The device compiler's log ("" when none); owned by the program. */
sgrt_status sgrt_program_get_build_log(const sgrt_program *program, const char **log);
/* The full option string given to the device compiler. */
sgrt_status sgrt_program_get_build_options(const sgrt_program *program, const char **options);
/* Chooses the work-group strategy before the build (default: the device's
 * best).  UNSUPPORTED, naming what is missing, when the device lacks it;
 * SPEC_AFTER_BUILD after the build; INVALID_ARGUMENT for other values. */
sgrt_status sgrt_program_set_wg_strategy(sgrt_program *program, sgrt_wg_strategy strategy);
/* The strategy the build uses (never SGRT_WG_DEFAULT). */
sgrt_status sgrt_program_get_wg_strategy(const sgrt_program *program,
                                         sgrt_wg_strategy *strategy);
/* Whether the last build was served from the on-disk cache. */
sgrt_status sgrt_program_get_cache_hit(const sgrt_program *program, bool *hit);

/* ------------------------------------------------------------------ */
/* Kernels and launches                                                */
/* ------------------------------------------------------------------ */
typedef struct sgrt_launch_dims {
    uint32_t dims;      /* 1, 2 or 3 */
    size_t global[3];   /* total work-items per dimension (OpenCL meaning) */
    size_t local[3];    /* work-group size; all 0: the kernel's required size
                           or one the runtime picks */
} sgrt_launch_dims;

/* The kernel object is owned by the program (same object on each call). */
sgrt_status sgrt_kernel_get(sgrt_program *program, const char *name, sgrt_kernel **kernel);
/* The same as sgrt_kernel_get, named as the other getters. */
sgrt_status sgrt_program_get_kernel(sgrt_program *program, const char *name,
                                    sgrt_kernel **kernel);
sgrt_status sgrt_kernel_get_desc(const sgrt_kernel *kernel, const sgrt_kernel_desc **desc);

/* Untyped, as clSetKernelArg: buffers: size == sizeof(sgrt_buffer *) and
 * value points to the sgrt_buffer *; local: value NULL and size = bytes;
 * scalars: size == the parameter's size.  Checked against the descriptor:
 * ARG_COUNT for an index past the last parameter, ARG_TYPE otherwise. */
sgrt_status sgrt_kernel_set_arg(sgrt_kernel *kernel, uint32_t index, size_t size,
                                const void *value);
/* Typed forms (used by generated launchers). */
sgrt_status sgrt_kernel_set_arg_buffer(sgrt_kernel *kernel, uint32_t index, sgrt_buffer *buffer);
sgrt_status sgrt_kernel_set_arg_local(sgrt_kernel *kernel, uint32_t index, size_t bytes);
sgrt_status sgrt_kernel_set_arg_scalar(sgrt_kernel *kernel, uint32_t index, sgrt_type type,
                                       const void *value);
/* The sub-group size the kernel runs with when launched with `dims` (whose
 * local size must be given): OpenCL asks the device compiler
 * (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE; a device compiler may pick a
 * different size for each kernel), NVIDIA's OpenCL and CUDA answer 32;
 * a work-group smaller than that is one sub-group of its own size.
 * ERROR_UNSUPPORTED on a device without sub-groups (the wg tier). */
sgrt_status sgrt_kernel_get_sub_group_size(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                           uint32_t *size);
/* What the built kernel allows on its device. */
typedef struct sgrt_kernel_info {
    size_t max_work_group_size;  /* OpenCL CL_KERNEL_WORK_GROUP_SIZE; CUDA
                                    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
    size_t preferred_multiple;   /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE; warp size */
    size_t suggested_work_group_size; /* CUDA: cuOccupancyMaxPotentialBlockSize; OpenCL:
                                    max_work_group_size */
    uint64_t local_mem_size;     /* static local memory: CL_KERNEL_LOCAL_MEM_SIZE;
                                    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
} sgrt_kernel_info;
sgrt_status sgrt_kernel_get_info(sgrt_kernel *kernel, sgrt_kernel_info *info);

/* Enqueues the kernel; ARG_COUNT if an argument is unset.  `event` may be
 * NULL; otherwise the caller frees it with sgrt_event_free. */
sgrt_status sgrt_kernel_launch(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                               sgrt_event **event);

/* ------------------------------------------------------------------ */
/* Asynchronous work: queues, events, transfers (docs/RUNTIME.md)      */
/* ------------------------------------------------------------------ */
/* More in-order queues (CUDA: streams) on the context's device, so that
 * copies on one overlap kernels on another.  Every call below takes a
 * queue; NULL means the context's own (the one sgrt_buffer_write/read and
 * sgrt_kernel_launch use).  `wait` lists `wait_count` events of the same
 * context that must complete before the command starts (on any queue);
 * `event` may be NULL, else it receives a new event (sgrt_event_free). */
sgrt_status sgrt_queue_create(sgrt_context *context, sgrt_queue **queue);
/* Waits for the queue's work, then frees it (before the context). */
sgrt_status sgrt_queue_free(sgrt_queue *queue);
sgrt_status sgrt_queue_finish(sgrt_queue *queue);
/* cl_command_queue | CUstream, owned by sgrt. */
sgrt_status sgrt_queue_get_native(const sgrt_queue *queue, sgrt_backend api, void **handle);
/* Non-blocking copies: the host memory must stay valid (and, for a read,
 * unread) until the event completes. */
sgrt_status sgrt_buffer_write_async(sgrt_queue *queue, sgrt_buffer *buffer, size_t offset,
                                    size_t size, const void *src, sgrt_event *const *wait,
                                    size_t wait_count, sgrt_event **event);
sgrt_status sgrt_buffer_read_async(sgrt_queue *queue, sgrt_buffer *buffer, size_t offset,
                                   size_t size, void *dst, sgrt_event *const *wait,
                                   size_t wait_count, sgrt_event **event);
/* Repeats the `pattern_size`-byte pattern over [offset, offset + size);
 * pattern_size 1, 2, 4, 8, 16, 32, 64 or 128 on OpenCL, 1, 2 or 4 on CUDA
 * (UNSUPPORTED otherwise); offset and size are multiples of it. */
sgrt_status sgrt_buffer_fill(sgrt_queue *queue, sgrt_buffer *buffer, const void *pattern,
                             size_t pattern_size, size_t offset, size_t size,
                             sgrt_event *const *wait, size_t wait_count, sgrt_event **event);
/* Device-to-device copy between buffers of one context (ranges may not
 * overlap within one buffer). */
sgrt_status sgrt_buffer_copy(sgrt_queue *queue, sgrt_buffer *src, size_t src_offset,
                             sgrt_buffer *dst, size_t dst_offset, size_t size,
                             sgrt_event *const *wait, size_t wait_count, sgrt_event **event);
/* Page-locked (pinned) host memory of `size` bytes for the context's
 * transfers: the device copies from and to it by DMA, so that
 * sgrt_buffer_write_async/read_async from it run while kernels do (CUDA
 * may stage copies from pageable memory synchronously).  CUDA:
 * cuMemHostAlloc (portable); OpenCL: a CL_MEM_ALLOC_HOST_PTR buffer kept
 * mapped (plain memory on CPU runtimes).  Free it with sgrt_host_free, with
 * the same context, before the context (sgrt_context_free refuses while
 * some live); INVALID_ARGUMENT for a pointer that is not one of the
 * context's allocations; NULL is ignored. */
sgrt_status sgrt_host_alloc(sgrt_context *context, size_t size, void **ptr);
sgrt_status sgrt_host_free(sgrt_context *context, void *ptr);
/* sgrt_kernel_launch on `queue`, after the `wait` events. */
sgrt_status sgrt_kernel_launch_async(sgrt_kernel *kernel, sgrt_queue *queue,
                                     const sgrt_launch_dims *dims, sgrt_event *const *wait,
                                     size_t wait_count, sgrt_event **event);

/* ------------------------------------------------------------------ */
/* Interop with native OpenCL and CUDA handles (docs/RUNTIME.md)       */
/* ------------------------------------------------------------------ */
/* Every native handle crosses this header as a void *, so that sgrt.h needs
 * neither CL/cl.h nor cuda.h: OpenCL objects (cl_device_id, cl_context,
 * cl_command_queue, cl_mem, cl_program, cl_kernel, cl_event) and CUcontext,
 * CUstream, CUmodule, CUfunction, CUevent are pointers and cast directly;
 * a CUdevice is (void *)(intptr_t)ordinal and a CUdeviceptr
 * (void *)(uintptr_t)address.  sgrt_opencl.h and sgrt_cuda.h wrap these
 * calls with the API's own types. */

/* Adopts an application's OpenCL context, device and in-order queue: all
 * three are retained (clRetain*) and released by sgrt_context_free, never
 * destroyed by sgrt.  `cl_queue` may be NULL: sgrt then creates (and owns)
 * an in-order queue with profiling in that context.  INVALID_ARGUMENT for
 * NULL context/device, INVALID_HANDLE for a handle the API rejects or a
 * device sgrt does not list, HANDLE_MISMATCH when the device is not in the
 * context or the queue belongs to another context or device, UNSUPPORTED
 * for an out-of-order queue. */
sgrt_status sgrt_context_create_from_opencl(void *cl_context, void *cl_device, void *cl_queue,
                                            sgrt_context **context);
/* Adopts a CUDA context and a stream of it (NULL: the legacy default
 * stream).  Neither is retained: the application keeps both alive until
 * sgrt_context_free, which destroys neither.  INVALID_HANDLE when CUDA
 * rejects the context, HANDLE_MISMATCH when the stream belongs to another
 * context, NO_DEVICE without a CUDA driver. */
sgrt_status sgrt_context_create_from_cuda(void *cu_context, void *cu_stream,
                                          sgrt_context **context);
/* Wraps an existing cl_mem buffer of the context (retained; released, not
 * freed, by sgrt_buffer_free; size: CL_MEM_SIZE). */
sgrt_status sgrt_buffer_create_from_opencl(sgrt_context *context, void *cl_mem,
                                           sgrt_buffer **buffer);
/* Wraps `size` bytes of existing device memory at a CUdeviceptr of the
 * context's device; sgrt_buffer_free leaves the memory alone, and the
 * application keeps it allocated until then. */
sgrt_status sgrt_buffer_create_from_cuda(sgrt_context *context, void *cu_device_ptr, size_t size,
                                         sgrt_buffer **buffer);

/* The native handle of an sgrt object, for the API the caller names:
 * HANDLE_MISMATCH when the object belongs to the other backend.  The
 * handle stays owned by sgrt (no retain): valid while the object lives;
 * retain it (OpenCL) to keep it longer.
 *   device   cl_device_id           | CUdevice (ordinal, cast as above)
 *   context  cl_context             | CUcontext
 *   queue    cl_command_queue       | CUstream
 *   buffer   cl_mem                 | CUdeviceptr (cast as above)
 *   program  cl_program             | CUmodule (NOT_BUILT before the build)
 *   kernel   cl_kernel              | CUfunction
 *   event    cl_event               | CUevent recorded after the work */
sgrt_status sgrt_device_get_native(const sgrt_device *device, sgrt_backend api, void **handle);
sgrt_status sgrt_context_get_native(const sgrt_context *context, sgrt_backend api,
                                    void **handle);
sgrt_status sgrt_context_get_native_queue(const sgrt_context *context, sgrt_backend api,
                                          void **handle);
sgrt_status sgrt_buffer_get_native(const sgrt_buffer *buffer, sgrt_backend api, void **handle);
sgrt_status sgrt_program_get_native(const sgrt_program *program, sgrt_backend api,
                                    void **handle);
sgrt_status sgrt_kernel_get_native(const sgrt_kernel *kernel, sgrt_backend api, void **handle);
sgrt_status sgrt_event_get_native(const sgrt_event *event, sgrt_backend api, void **handle);

/* ------------------------------------------------------------------ */
/* Deprecated names (sgrt 0.1), kept so that existing hosts compile     */
/* and link; define SGRT_WARN_DEPRECATED to have the compiler point at */
/* them.  Getters are named sgrt_<object>_get_<what>.                  */
/* ------------------------------------------------------------------ */
#if defined(SGRT_WARN_DEPRECATED) && defined(__GNUC__)
#define SGRT_DEPRECATED(use) __attribute__((deprecated("use " use)))
#else
#define SGRT_DEPRECATED(use)
#endif
SGRT_DEPRECATED("sgrt_device_get_count")
sgrt_status sgrt_device_count(size_t *count);
/* The function behind the sgrt_device_get_info macro (the size of this
 * header's struct). */
sgrt_status(sgrt_device_get_info)(const sgrt_device *device, sgrt_device_info *info);
SGRT_DEPRECATED("sgrt_context_get_device")
sgrt_status sgrt_context_device(const sgrt_context *context, sgrt_device **device);
/* 0 for NULL. */
SGRT_DEPRECATED("sgrt_buffer_get_size")
size_t sgrt_buffer_size(const sgrt_buffer *buffer);
SGRT_DEPRECATED("sgrt_event_get_profile")
sgrt_status sgrt_event_profile(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns);
SGRT_DEPRECATED("sgrt_program_get_build_log")
sgrt_status sgrt_program_build_log(const sgrt_program *program, const char **log);
SGRT_DEPRECATED("sgrt_program_get_build_options")
sgrt_status sgrt_program_build_options(const sgrt_program *program, const char **options);
SGRT_DEPRECATED("sgrt_program_get_cache_hit")
sgrt_status sgrt_program_cache_hit(const sgrt_program *program, bool *hit);
SGRT_DEPRECATED("sgrt_kernel_get_desc")
sgrt_status sgrt_kernel_desc_get(const sgrt_kernel *kernel, const sgrt_kernel_desc **desc);
SGRT_DEPRECATED("sgrt_kernel_get_sub_group_size")
sgrt_status sgrt_kernel_sub_group_size(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                       uint32_t *size);

#ifdef __cplusplus
}
#endif

#endif
