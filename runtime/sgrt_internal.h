/* sgrt_internal.h — the runtime's private data model and the backend table.
 *
 * The API layer (device.c, context.c, program.c, kernel.c) validates
 * arguments, keeps the descriptor-driven state (spec values, argument slots,
 * cache) and calls one backend (opencl.c, cuda.c) through SgrtBackend, a
 * table of functions in the manner of QBE's Target.  Backends only translate
 * to their API and report errors with sgrt_fail(). */
#ifndef SGRT_INTERNAL_H
#define SGRT_INTERNAL_H

#include <pthread.h>

#include "sgrt.h"
#include "sgrt_options.h"

#define SGRT_MAX_DEVICES 64

/* Records the message for sgrt_last_error(). */
void sgrt_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records the message and is `status`.  A macro, so that the status each
 * failing path returns is visible where it returns (clang's analyzer sees
 * no function body in another file, and then assumes a failed call may
 * have returned SGRT_SUCCESS). */
#define sgrt_fail(status, ...) (sgrt_set_error(__VA_ARGS__), (status))
/* Returns SGRT_SUCCESS (the last message is kept, as errno is). */
sgrt_status sgrt_ok(void);

struct sgrt_device {
    sgrt_device_info info;
    void *platform_handle;   /* cl_platform_id; unused on CUDA */
    void *device_handle;     /* cl_device_id; CUDA: the ordinal as a pointer */
    uint32_t nv_sm;          /* NVIDIA OpenCL: compute capability x 10 (0: unknown) */
    /* Launch limits (kernel.c check_dims), 0 where unknown: work-items of a
     * work-group per dimension (CL_DEVICE_MAX_WORK_ITEM_SIZES, CUDA block
     * dimensions), work-items in all (OpenCL: what the device's size_t
     * holds, CL_DEVICE_ADDRESS_BITS), work-groups per dimension (CUDA grid). */
    size_t max_work_item_sizes[3];
    uint64_t max_global_items;
    uint64_t max_groups[3];
};

typedef struct SgrtBuffer SgrtBuffer;

/* compile.c: the descriptor of a program compiled at run time, and the
 * memory behind it. */
typedef struct SgrtOwnedModule SgrtOwnedModule;
void sgrt_owned_module_free(SgrtOwnedModule *module);

struct sgrt_context {
    sgrt_device *device;
    pthread_mutex_t lock;     /* guards `buffers` */
    sgrt_buffer *buffers;     /* live buffers, to validate arguments */
    void *api_context;        /* cl_context / CUcontext */
    void *api_queue;          /* cl_command_queue / CUstream */
    void *api_epoch;          /* CUDA: event recorded at creation (profiling base) */
    bool adopted;             /* made from the application's handles: CUDA
                                 leaves its context alone (OpenCL releases
                                 the references it took, as always) */
    bool adopted_queue;       /* CUDA: the stream is the application's */
    size_t queue_count;       /* live sgrt_queues (guarded by `lock`) */
};

struct sgrt_buffer {
    sgrt_context *context;
    sgrt_buffer *next;        /* in context->buffers */
    size_t size;
    void *api_mem;            /* cl_mem */
    unsigned long long device_ptr; /* CUdeviceptr */
    bool borrowed;            /* wraps the application's memory: CUDA does
                                 not free it (OpenCL releases its reference) */
};

/* One more in-order queue/stream of a context (sgrt_queue_create). */
struct sgrt_queue {
    sgrt_context *context;
    void *api_queue;          /* cl_command_queue / CUstream, owned */
};

/* Where and after what a command runs: the queue (the context's own or an
 * sgrt_queue's), the events it waits for (checked to be of the context),
 * and the event to fill in (NULL: none asked for). */
typedef struct SgrtSubmit {
    sgrt_context *context;
    void *api_queue;
    sgrt_event *const *wait;
    size_t wait_count;
    sgrt_event *event;
} SgrtSubmit;

/* A transfer: WRITE host_src -> dst, READ src -> host_dst, FILL dst with
 * `pattern_size` bytes of `pattern`, COPY src -> dst.  Ranges are checked. */
typedef enum SgrtCommandKind {
    SGRT_CMD_WRITE, SGRT_CMD_READ, SGRT_CMD_FILL, SGRT_CMD_COPY
} SgrtCommandKind;

typedef struct SgrtCommand {
    SgrtCommandKind kind;
    sgrt_buffer *dst, *src;
    size_t dst_offset, src_offset, size;
    const void *host_src;
    void *host_dst;
    const void *pattern;
    size_t pattern_size;
    bool blocking;            /* WRITE/READ: return after the copy */
} SgrtCommand;

struct sgrt_event {
    sgrt_context *context;
    void *api_event;          /* cl_event / CUevent (start) */
    void *api_event_end;      /* CUDA: end event */
};

/* One argument slot of a kernel, filled by sgrt_kernel_set_arg*. */
typedef struct SgrtArg {
    bool set;
    bool dirty;               /* changed since the backend last passed it on
                                 (OpenCL: clSetKernelArg only for these) */
    sgrt_buffer *buffer;      /* GLOBAL / CONSTANT */
    size_t local_bytes;       /* LOCAL */
    unsigned char *value;     /* SCALAR: desc->params[i].size bytes */
} SgrtArg;

struct sgrt_kernel {
    sgrt_program *program;
    sgrt_kernel *next;        /* in program->kernels */
    const sgrt_kernel_desc *desc;
    SgrtArg *args;            /* desc->param_count slots */
    void *api_kernel;         /* cl_kernel / CUfunction */
    size_t max_dynamic_local; /* CUDA: dynamic shared size already allowed */
    size_t sub_group_checked[3]; /* local size whose sub-group size passed the
                                    64-lane check (all 0: none yet) */
};

struct sgrt_program {
    sgrt_context *context;
    const sgrt_module_desc *module;
    bool *spec_set;           /* per module->specs entry */
    sgrt_value *spec_values;
    bool built;
    bool cache_hit;
    sgrt_wg_strategy wg_strategy; /* SGRT_WG_DEFAULT: the device's best */
    char *options;            /* final device-compiler options */
    char *log;                /* build log ("" when none) */
    void *api_program;        /* cl_program / CUmodule */
    pthread_mutex_t lock;     /* guards `kernels` */
    sgrt_kernel *kernels;
    SgrtOwnedModule *owned_module; /* run-time compiles: `module` lives here */
    char **refused;           /* per module->kernels entry: why this device cannot run it
                                 (the build left it out), or NULL; NULL before a build */
};

/* The result of compiling from source or loading a binary. */
typedef struct SgrtBuildResult {
    char *log;                /* malloc'ed, may be NULL */
    unsigned char *binary;    /* malloc'ed binary to cache, may be NULL */
    size_t binary_size;
} SgrtBuildResult;

typedef struct SgrtBackend {
    const char *name;         /* "opencl", "cuda": SGRT_DEVICE selectors, sgcc's target names */
    const char *api;          /* "OpenCL", "CUDA": messages */
    /* Appends devices to out[*count..cap).  Failing to find the API at all
     * is not an error: it yields no devices. */
    void (*enumerate)(sgrt_device *out, size_t cap, size_t *count);
    sgrt_status (*context_create)(sgrt_context *ctx);
    void (*context_free)(sgrt_context *ctx);
    sgrt_status (*finish)(sgrt_context *ctx);
    sgrt_status (*buffer_create)(sgrt_buffer *buf);
    void (*buffer_free)(sgrt_buffer *buf);
    sgrt_status (*buffer_write)(sgrt_buffer *buf, size_t offset, size_t size, const void *src);
    sgrt_status (*buffer_read)(sgrt_buffer *buf, size_t offset, size_t size, void *dst);
    /* Interop (context.c has checked for NULL).  context_adopt checks and
     * takes the application's handles into ctx and sets ctx->device
     * (OpenCL: from api_device; CUDA: the context's device, api_device
     * unused); buffer_adopt checks `handle` against buf->context and sets
     * buf->size (OpenCL: CL_MEM_SIZE; CUDA: `size`, checked against the
     * allocation). */
    sgrt_status (*context_adopt)(sgrt_context *ctx, void *api_context, void *api_device,
                                 void *api_queue);
    sgrt_status (*buffer_adopt)(sgrt_buffer *buf, void *handle, size_t size);
    /* Extra options the device needs (capability defines, language level);
     * written into buf, at most cap bytes. */
    void (*device_options)(const sgrt_device *dev, char *buf, size_t cap);
    sgrt_status (*build_source)(sgrt_program *prog, const char *source, const char *options,
                                SgrtBuildResult *result);
    sgrt_status (*build_binary)(sgrt_program *prog, const unsigned char *binary, size_t size,
                                const char *options);
    void (*program_free)(sgrt_program *prog);
    sgrt_status (*kernel_create)(sgrt_kernel *kernel);
    void (*kernel_free)(sgrt_kernel *kernel);
    /* dims are validated, local[] given; only called on devices whose
     * info.sub_groups is set. */
    sgrt_status (*sub_group_size)(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                  uint32_t *size);
    sgrt_status (*kernel_info)(sgrt_kernel *kernel, sgrt_kernel_info *info);
    /* dims are validated and local[] filled in. */
    sgrt_status (*launch)(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                          const SgrtSubmit *submit);
    /* Asynchronous work (queue.c validates): another queue of ctx, its
     * release and finish; one transfer. */
    sgrt_status (*queue_create)(sgrt_context *ctx, void **api_queue);
    void (*queue_free)(sgrt_context *ctx, void *api_queue);
    sgrt_status (*queue_finish)(sgrt_context *ctx, void *api_queue);
    sgrt_status (*enqueue)(const SgrtCommand *command, const SgrtSubmit *submit);
    sgrt_status (*event_wait)(sgrt_event *event);
    sgrt_status (*event_profile)(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns);
    void (*event_free)(sgrt_event *event);
} SgrtBackend;

extern const SgrtBackend sgrt_opencl_backend;
extern const SgrtBackend sgrt_cuda_backend;

/* The backend registry (device.c), indexed by sgrt_backend: a new backend
 * is its file and a row there. */
extern const SgrtBackend *const sgrt_backends[SGRT_BACKEND_COUNT];

static inline const SgrtBackend *sgrt_backend_of(const sgrt_device *dev)
{
    return sgrt_backends[dev->info.backend];
}

/* device.c: the listed device of `backend` whose device_handle is
 * `handle` (cl_device_id; CUDA: the ordinal as a pointer), or NULL. */
sgrt_device *sgrt_device_find(sgrt_backend backend, void *handle);

/* device.c: fills wg_strategies and wg_strategy from the other capabilities. */
void sgrt_device_fill_wg_strategies(sgrt_device_info *info);

/* context.c: HANDLE_MISMATCH for a native handle of `object` (an
 * sgrt_<object>) asked for with the other backend's API. */
sgrt_status sgrt_native_mismatch(const char *object, sgrt_backend has, sgrt_backend asked);

/* queue.c: fills `submit` for `queue` (NULL: the context's own) of
 * `context` after checking the wait list; `fn` names the call in messages. */
sgrt_status sgrt_submit_prepare(SgrtSubmit *submit, sgrt_context *context, sgrt_queue *queue,
                                sgrt_event *const *wait, size_t wait_count, const char *fn);
/* queue.c: allocates *event (when asked for) into submit->event. */
sgrt_status sgrt_submit_event(SgrtSubmit *submit, sgrt_event **event);

/* context.c: whether `buffer` is a live buffer of `context`. */
bool sgrt_buffer_is_live(sgrt_context *context, const sgrt_buffer *buffer);

/* program.c: rewrites "<kernel>:LINE:" locations of a device compiler's
 * build log through the #line directives of `source`, so that the log names
 * .sgc lines.  Returns a malloc'ed string, NULL when out of memory. */
char *sgrt_map_log(const char *source, const char *log);

/* kernel.c: SGRT_ERROR_WORK_SIZE unless every global[i] / local[i] (all
 * non-zero) is within the device's max_groups (the CUDA grid); cuda.c
 * calls it for the local size it picks itself. */
sgrt_status sgrt_check_groups(const sgrt_kernel *kernel, const size_t global[3],
                              const size_t local[3]);

/* file.c: reading files sgrt did not write, never blocking on a FIFO nor
 * reading a device without end. */
typedef enum SgrtReadResult {
    SGRT_READ_OK,
    SGRT_READ_CANNOT_OPEN,   /* errno says why */
    SGRT_READ_NOT_REGULAR,   /* a FIFO, a device, a directory, a socket */
    SGRT_READ_TOO_LARGE,     /* more than the caller's limit */
    SGRT_READ_FAILED,        /* read() failed; errno says why */
    SGRT_READ_OUT_OF_MEMORY,
} SgrtReadResult;
/* The whole of `path` when it is a regular file of at most `limit` bytes:
 * *data (malloc'ed, *size bytes) on SGRT_READ_OK. */
SgrtReadResult sgrt_read_regular_file(const char *path, size_t limit, unsigned char **data,
                                      size_t *size);
/* sgrt_hash64 over a regular file's contents (64 KiB blocks chained);
 * false when it is not one or cannot be read. */
bool sgrt_hash_regular_file(const char *path, uint64_t *hash);
/* stat() says regular file (what the include search looks for). */
bool sgrt_is_regular_file(const char *path);

/* cache.c: the on-disk binary cache. */
typedef struct SgrtCacheKey {
    uint64_t lo, hi;
} SgrtCacheKey;

uint64_t sgrt_hash64(const void *data, size_t size, uint64_t seed);
/* Key over the parts; each part is hashed with its length so that
 * ("ab","c") and ("a","bc") differ. */
SgrtCacheKey sgrt_cache_key(const char *const *parts, size_t count);
/* Whether caching is enabled and where ($SGRT_CACHE, $SGRT_CACHE_DIR, ...). */
bool sgrt_cache_dir(char *buf, size_t cap);
/* Loads an entry; false when absent or corrupt.  Outputs are malloc'ed. */
bool sgrt_cache_load(SgrtCacheKey key, char **log, unsigned char **binary, size_t *binary_size);
/* Stores atomically (temporary file + rename); failures are silent. */
void sgrt_cache_store(SgrtCacheKey key, const char *log, const unsigned char *binary,
                      size_t binary_size);

/* Small helpers shared by the backends. */
char *sgrt_strdup(const char *s);
bool sgrt_contains_word(const char *list, const char *word); /* space-separated list */

#endif
