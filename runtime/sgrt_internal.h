/* sgrt_internal.h — the runtime's private data model and the backend table.
 *
 * The API layer (device.c, context.c, program.c, kernel.c) validates
 * arguments, keeps the descriptor-driven state (spec values, argument slots,
 * cache) and calls one backend (a folder of runtime/backends) through
 * SgrtBackend, a table of functions and policies in the manner of QBE's
 * Target: the shared files never test which backend they talk to.  Backends
 * only translate to their API and report errors with sgrt_fail(); what only
 * one backend needs lives behind the `priv` pointers. */
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

typedef struct SgrtBackend SgrtBackend;

struct sgrt_device {
    sgrt_device_info info;
    const SgrtBackend *backend; /* set by device.c, with info.backend */
    void *device_handle;     /* the native handle (cl_device_id; CUDA: the ordinal as a pointer) */
    void *priv;              /* the backend's own (OpenCL: the platform, the NVIDIA sm) */
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
    void *priv;               /* the backend's own (CUDA: the profiling epoch event) */
    bool adopted;             /* made from the application's handles (a
                                 backend without reference counts leaves
                                 them alone) */
    bool adopted_queue;       /* the queue is the application's */
    size_t queue_count;       /* live sgrt_queues (guarded by `lock`) */
};

struct sgrt_buffer {
    sgrt_context *context;
    sgrt_buffer *next;        /* in context->buffers */
    size_t size;
    void *api_mem;            /* the native handle: cl_mem; CUDA: the
                                 CUdeviceptr as a pointer */
    bool borrowed;            /* wraps the application's memory (a backend
                                 without reference counts does not free it) */
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
    void *api_event;          /* the native handle: cl_event; CUDA: the end event */
    void *priv;               /* the backend's own (CUDA: the start event) */
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
    void *priv;               /* the backend's own (CUDA: the dynamic shared
                                 size already allowed) */
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

/* One backend: its names, what the shared files would otherwise decide by
 * its name (policy), and its functions.  device.c's registry lists them. */
struct SgrtBackend {
    const char *name;         /* "opencl", "cuda": SGRT_DEVICE selectors, sgcc's target names,
                                 the module description's "backends" keys */
    const char *api;          /* "OpenCL", "CUDA": messages */
    /* libsgcc's numbers for this backend's source (sgcc.h: an sgcc_output
     * kind and an SGCC_TARGET_* bit), for run-time compiles (compile.c). */
    int sgcc_output;
    unsigned sgcc_target;

    /* Policy. */
    /* The emitted source leaves out, under -DSGC_SKIP_UNSUPPORTED_KERNELS,
     * the kernels a device cannot run for want of sub-groups or non-uniform
     * groups (and, on a device with info.nvptx, a sub-group size other than
     * 32), so that the module's other kernels build (program.c). */
    bool skips_unsupported_kernels;
    /* The device compiler may pick a sub-group size wider than the group
     * library's 64-lane masks (outside the nvptx tier): a launch of a kernel
     * with sub-groups checks it first (kernel.c). */
    bool checks_sub_group_width;
    /* Where no device is a GPU, the default device is the first CPU device
     * of a backend that sets this (device.c). */
    bool default_cpu;
    /* What SGRT_WG_BUILTIN needs, in the refusal of that strategy (the
     * device's info.wg_collectives says whether it has it). */
    const char *wg_builtin_needs;
    /* The device's language level for that refusal (" (OpenCL C 2.0)"),
     * at most cap bytes; NULL: none. */
    void (*language_level)(const sgrt_device_info *in, char *buf, size_t cap);

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
    /* Page-locked host memory of `size` bytes (host.c keeps the list):
     * *ptr, and in *priv what host_free needs besides. */
    sgrt_status (*host_alloc)(sgrt_context *ctx, size_t size, void **ptr, void **priv);
    sgrt_status (*host_free)(sgrt_context *ctx, void *ptr, void *priv);
};

static inline const SgrtBackend *sgrt_backend_of(const sgrt_device *dev)
{
    return dev->backend;
}

/* device.c: the registered backend of `id`, NULL for none. */
const SgrtBackend *sgrt_backend_by_id(sgrt_backend id);

/* device.c: the listed device of `backend` whose device_handle is
 * `handle` (cl_device_id; CUDA: the ordinal as a pointer), or NULL. */
sgrt_device *sgrt_device_find(const SgrtBackend *backend, void *handle);

/* device.c: fills wg_strategies and wg_strategy from the other capabilities. */
void sgrt_device_fill_wg_strategies(sgrt_device_info *info);

/* context.c: HANDLE_MISMATCH for a native handle of `object` (an
 * sgrt_<object>) asked for with the other backend's API. */
sgrt_status sgrt_native_mismatch(const char *object, sgrt_backend has, sgrt_backend asked);

/* context.c: the public sgrt_context_create_from_<api> and
 * sgrt_buffer_create_from_<api> of each backend, after their NULL checks.
 * A context adopts the application's handles through `be` (`device`: the
 * listed device they are of, NULL where context_adopt finds it); a buffer
 * wraps `handle` after checking that `context` is a `be` context (`fn`
 * names the call in messages). */
sgrt_status sgrt_context_adopt(const SgrtBackend *be, sgrt_device *device, void *api_context,
                               void *api_device, void *api_queue, sgrt_context **context);
sgrt_status sgrt_buffer_adopt(const SgrtBackend *be, sgrt_context *context, void *handle,
                              size_t size, const char *fn, sgrt_buffer **buffer);

/* host.c: live page-locked allocations of `context` (sgrt_context_free
 * refuses while there are some). */
size_t sgrt_host_alloc_count(const sgrt_context *context);

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
