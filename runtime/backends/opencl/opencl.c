/* opencl.c — the OpenCL backend, through the ICD loader.
 *
 * Compiled against the OpenCL 1.2 API so that it runs on every ICD; newer
 * features (OpenCL C 2.0/3.0, sub-group extensions) are discovered through
 * version and extension strings at run time.  Capability tiers follow
 * docs/DESIGN.md "OpenCL C": NVIDIA's platform gets SGC_NV_PTX=1 (inline PTX), devices with
 * cl_khr_subgroups / cl_intel_subgroups / __opencl_c_subgroups get the khr
 * tier (chosen by the device compiler's own macros), others the wg tier. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgcc.h"
#include "sgrt_internal.h"

/* Queries that 1.2 headers lack. */
#define SGRT_CL_DEVICE_OPENCL_C_FEATURES 0x106F
#define SGRT_CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#define SGRT_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define SGRT_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

/* X(code name) for the error names in messages. */
#define CL_ERRORS(X)                                                                       \
    X(CL_DEVICE_NOT_FOUND) X(CL_DEVICE_NOT_AVAILABLE) X(CL_COMPILER_NOT_AVAILABLE)         \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE) X(CL_OUT_OF_RESOURCES) X(CL_OUT_OF_HOST_MEMORY)    \
    X(CL_PROFILING_INFO_NOT_AVAILABLE) X(CL_BUILD_PROGRAM_FAILURE) X(CL_MAP_FAILURE)       \
    X(CL_INVALID_VALUE) X(CL_INVALID_DEVICE_TYPE) X(CL_INVALID_PLATFORM)                   \
    X(CL_INVALID_DEVICE) X(CL_INVALID_CONTEXT) X(CL_INVALID_QUEUE_PROPERTIES)              \
    X(CL_INVALID_COMMAND_QUEUE) X(CL_INVALID_HOST_PTR) X(CL_INVALID_MEM_OBJECT)            \
    X(CL_INVALID_BINARY) X(CL_INVALID_BUILD_OPTIONS) X(CL_INVALID_PROGRAM)                 \
    X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL_NAME)                             \
    X(CL_INVALID_KERNEL_DEFINITION) X(CL_INVALID_KERNEL) X(CL_INVALID_ARG_INDEX)           \
    X(CL_INVALID_ARG_VALUE) X(CL_INVALID_ARG_SIZE) X(CL_INVALID_KERNEL_ARGS)               \
    X(CL_INVALID_WORK_DIMENSION) X(CL_INVALID_WORK_GROUP_SIZE)                             \
    X(CL_INVALID_WORK_ITEM_SIZE) X(CL_INVALID_GLOBAL_OFFSET) X(CL_INVALID_EVENT_WAIT_LIST) \
    X(CL_INVALID_EVENT) X(CL_INVALID_OPERATION) X(CL_INVALID_BUFFER_SIZE)                  \
    X(CL_INVALID_GLOBAL_WORK_SIZE) X(CL_COMPILE_PROGRAM_FAILURE) X(CL_LINK_PROGRAM_FAILURE)

static const char *cl_error_name(cl_int err)
{
    switch (err) {
#define X(code) case code: return #code;
        CL_ERRORS(X)
#undef X
    default: return "CL_UNKNOWN_ERROR";
    }
}

static sgrt_status cl_fail(const char *call, cl_int err)
{
    sgrt_status status = SGRT_ERROR_BACKEND;
    if (err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        status = SGRT_ERROR_OUT_OF_MEMORY;
    return sgrt_fail(status, "%s failed: %s (%d)", call, cl_error_name(err), (int)err);
}

#define CL_CHECK(call, expr)                  \
    do {                                      \
        cl_int err_ = (expr);                 \
        if (err_ != CL_SUCCESS)               \
            return cl_fail(call, err_);       \
    } while (0)

static cl_device_id dev_id(const sgrt_device *dev) { return (cl_device_id)dev->device_handle; }

/* What an OpenCL device keeps besides its sgrt_device (its `priv`): one
 * slot per listed device, filled once by cl_enumerate. */
typedef struct ClDevice {
    cl_platform_id platform;
    uint32_t nv_sm;          /* NVIDIA OpenCL: compute capability x 10 (0: unknown) */
} ClDevice;
static ClDevice cl_devices[SGRT_MAX_DEVICES];

static ClDevice *cl_device(const sgrt_device *dev) { return dev->priv; }

/* String query into a fixed buffer; "" on failure. */
static void dev_string(cl_device_id id, cl_device_info what, char *buf, size_t cap)
{
    if (clGetDeviceInfo(id, what, cap, buf, NULL) != CL_SUCCESS)
        buf[0] = '\0';
    buf[cap - 1] = '\0';
}

/* Extensions are long: heap copy, caller frees. */
static char *dev_extensions(cl_device_id id, cl_device_info what)
{
    size_t size = 0;
    if (clGetDeviceInfo(id, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return sgrt_strdup("");
    char *buf = calloc(1, size + 1);
    if (buf && clGetDeviceInfo(id, what, size, buf, NULL) != CL_SUCCESS)
        buf[0] = '\0';
    return buf;
}

static void fill_capabilities(sgrt_device_info *in, cl_device_id id)
{
    char *ext = dev_extensions(id, CL_DEVICE_EXTENSIONS);
    char *features = NULL;
    size_t features_size = 0;
    if (!ext)
        return;
    if (in->opencl_c_major >= 3) {
        /* OpenCL 3.0 reports optional features as name/version pairs. */
        if (clGetDeviceInfo(id, SGRT_CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &features_size) ==
                CL_SUCCESS &&
            features_size > 0 && (features = calloc(1, features_size + 1)) != NULL &&
            clGetDeviceInfo(id, SGRT_CL_DEVICE_OPENCL_C_FEATURES, features_size, features,
                            NULL) != CL_SUCCESS)
            features_size = 0;
    }
    /* The result is an array of cl_name_version {cl_version; char name[64]}:
     * compare each NUL-terminated name (the bytes after a name's NUL are
     * whatever the driver had, uninitialised under valgrind). */
    typedef struct { uint32_t version; char name[64]; } NameVersion;
    bool feature_subgroups = false, feature_collectives = false;
    for (size_t off = 0; features && off + sizeof(NameVersion) <= features_size;
         off += sizeof(NameVersion)) {
        const NameVersion *nv = (const NameVersion *)(features + off);
        feature_subgroups |= strncmp(nv->name, "__opencl_c_subgroups", sizeof nv->name) == 0;
        feature_collectives |= strncmp(nv->name, "__opencl_c_work_group_collective_functions",
                                       sizeof nv->name) == 0;
    }
    in->wg_collectives = in->opencl_c_major == 2 || feature_collectives;
    bool khr = sgrt_contains_word(ext, "cl_khr_subgroups") ||
               sgrt_contains_word(ext, "cl_intel_subgroups") || feature_subgroups;
    bool ballot = sgrt_contains_word(ext, "cl_khr_subgroup_ballot");
    bool shuffle = sgrt_contains_word(ext, "cl_khr_subgroup_shuffle") ||
                   sgrt_contains_word(ext, "cl_intel_subgroups");
    in->sub_groups = khr || in->nvptx;
    /* OpenCL defines sub_group_ballot and sub_group_shuffle only where the
     * whole sub-group takes part; the non-uniform extensions are the
     * device's promise that sub-group operations work in divergent control
     * flow, which ballot, tangle and opportunistic groups need.  PoCL 5
     * maps a sub-group onto the whole work-group and has ballot and shuffle
     * but neither extension: its results in divergent flow are wrong. */
    bool divergent_ok = sgrt_contains_word(ext, "cl_khr_subgroup_non_uniform_vote") ||
                        sgrt_contains_word(ext, "cl_khr_subgroup_non_uniform_arithmetic");
    in->non_uniform_groups = in->nvptx || (khr && ballot && shuffle && divergent_ok);
    in->split_barriers = true;   /* emulated with local memory on OpenCL */
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    in->fp64 = fp64 != 0 || sgrt_contains_word(ext, "cl_khr_fp64");
    if (in->nvptx) {
        in->sub_group_sizes[in->sub_group_size_count++] = 32;
    } else if (sgrt_contains_word(ext, "cl_intel_required_subgroup_size")) {
        size_t sizes[SGRT_MAX_SUB_GROUP_SIZES], bytes = 0;
        if (clGetDeviceInfo(id, SGRT_CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes,
                            &bytes) == CL_SUCCESS)
            for (size_t i = 0; i < bytes / sizeof(size_t); i++)
                in->sub_group_sizes[in->sub_group_size_count++] = (uint32_t)sizes[i];
    }
    free(features);
    free(ext);
}

/* What clEnqueueNDRangeKernel accepts: per-dimension work-group sizes,
 * and global sizes the device's size_t holds (their product too, so that
 * get_global_linear_id cannot wrap). */
static void fill_launch_limits(sgrt_device *dev, cl_device_id id)
{
    cl_uint dims = 0, bits = 0;
    size_t sizes[16] = {0};
    if (clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL) ==
            CL_SUCCESS &&
        dims >= 1 && dims <= 16 &&
        clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof *sizes, sizes, NULL) ==
            CL_SUCCESS)
        for (cl_uint d = 0; d < 3; d++)
            dev->max_work_item_sizes[d] = d < dims ? sizes[d] : 1;
    if (clGetDeviceInfo(id, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL) == CL_SUCCESS &&
        bits >= 16)
        dev->max_global_items = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

static void fill_info(sgrt_device *dev, ClDevice *cl, cl_platform_id platform, cl_device_id id,
                      uint32_t index)
{
    sgrt_device_info *in = &dev->info;
    memset(dev, 0, sizeof *dev);
    cl->platform = platform;
    dev->priv = cl;
    dev->device_handle = id;
    in->backend_index = index;
    if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof in->platform, in->platform, NULL))
        in->platform[0] = '\0';
    dev_string(id, CL_DEVICE_NAME, in->name, sizeof in->name);
    dev_string(id, CL_DEVICE_VENDOR, in->vendor, sizeof in->vendor);
    dev_string(id, CL_DEVICE_VERSION, in->version, sizeof in->version);
    dev_string(id, CL_DRIVER_VERSION, in->driver_version, sizeof in->driver_version);
    char cver[128];
    dev_string(id, CL_DEVICE_OPENCL_C_VERSION, cver, sizeof cver);
    unsigned major = 1, minor = 2;
    sscanf(cver, "OpenCL C %u.%u", &major, &minor);
    in->opencl_c_major = major;
    in->opencl_c_minor = minor;
    cl_device_type type = 0;
    clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    in->kind = (type & CL_DEVICE_TYPE_GPU)           ? SGRT_DEVICE_GPU
               : (type & CL_DEVICE_TYPE_CPU)         ? SGRT_DEVICE_CPU
               : (type & CL_DEVICE_TYPE_ACCELERATOR) ? SGRT_DEVICE_ACCELERATOR
                                                     : SGRT_DEVICE_OTHER;
    in->nvptx = strstr(in->platform, "NVIDIA") != NULL || strstr(in->vendor, "NVIDIA") != NULL;
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof in->max_work_group_size,
                    &in->max_work_group_size, NULL);
    fill_launch_limits(dev, id);
    cl_ulong mem = 0;
    clGetDeviceInfo(id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof mem, &mem, NULL);
    in->local_mem_size = mem;
    clGetDeviceInfo(id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
    in->global_mem_size = mem;
    fill_capabilities(in, id);
    if (in->nvptx) {
        /* cl_nv_device_attribute_query: the compute capability, passed as
         * SGC_NV_SM so the nvptx tier may use redux.sync (sm_80+). */
        cl_uint major = 0, minor = 0;
        if (clGetDeviceInfo(id, SGRT_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                            NULL) == CL_SUCCESS &&
            clGetDeviceInfo(id, SGRT_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                            NULL) == CL_SUCCESS && major < 100 && minor < 10)
            cl->nv_sm = major * 10 + minor;
    }
}

static void cl_enumerate(sgrt_device *out, size_t cap, size_t *count)
{
    cl_platform_id platforms[16];
    cl_uint nplat = 0;
    uint32_t index = 0;
    if (clGetPlatformIDs(16, platforms, &nplat) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < nplat && p < 16; p++) {
        cl_device_id ids[16];
        cl_uint ndev = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, ids, &ndev) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < ndev && d < 16 && *count < cap && index < SGRT_MAX_DEVICES; d++) {
            fill_info(&out[(*count)++], &cl_devices[index], platforms[p], ids[d], index);
            index++;
        }
    }
}

static sgrt_status cl_context_create(sgrt_context *ctx)
{
    cl_int err;
    cl_device_id id = dev_id(ctx->device);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)cl_device(ctx->device)->platform, 0};
    cl_context c = clCreateContext(props, 1, &id, NULL, NULL, &err);
    if (!c)
        return cl_fail("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(c, id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q) {
        clReleaseContext(c);
        return cl_fail("clCreateCommandQueue", err);
    }
    ctx->api_context = c;
    ctx->api_queue = q;
    return SGRT_SUCCESS;
}

static void cl_context_free(sgrt_context *ctx)
{
    clReleaseCommandQueue(ctx->api_queue);
    clReleaseContext(ctx->api_context);
}

/* A handle query that the API refuses means the handle is not an object
 * of this kind (released, or another type): INVALID_HANDLE. */
static sgrt_status invalid_handle(const char *what, const char *call, cl_int err)
{
    return sgrt_fail(SGRT_ERROR_INVALID_HANDLE, "the %s is not valid: %s failed: %s (%d)", what,
                     call, cl_error_name(err), (int)err);
}

static bool context_has_device(cl_context c, cl_device_id id, sgrt_status *status)
{
    cl_device_id ids[64];
    size_t size = 0;
    cl_int err = clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof ids, ids, &size);
    if (err != CL_SUCCESS) {
        *status = invalid_handle("cl_context", "clGetContextInfo", err);
        return false;
    }
    for (size_t i = 0; i < size / sizeof *ids; i++)
        if (ids[i] == id)
            return true;
    *status = sgrt_fail(SGRT_ERROR_HANDLE_MISMATCH,
                        "sgrt_context_create_from_opencl: the cl_device_id is not a device of "
                        "the cl_context");
    return false;
}

/* The application's queue must be of the context and device, and in order
 * (sgrt's blocking copies rely on the order of the queue). */
static sgrt_status check_queue(cl_command_queue q, cl_context c, cl_device_id id)
{
    cl_context qc = NULL;
    cl_device_id qd = NULL;
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (err != CL_SUCCESS)
        return invalid_handle("cl_command_queue", "clGetCommandQueueInfo", err);
    if (qc != c || qd != id)
        return sgrt_fail(SGRT_ERROR_HANDLE_MISMATCH,
                         "sgrt_context_create_from_opencl: the cl_command_queue belongs to "
                         "another %s",
                         qc != c ? "cl_context" : "device");
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "sgrt_context_create_from_opencl: the cl_command_queue is out of "
                         "order; sgrt needs an in-order queue");
    return SGRT_SUCCESS;
}

static sgrt_status cl_context_adopt(sgrt_context *ctx, void *api_context, void *api_device,
                                    void *api_queue)
{
    cl_context c = api_context;
    cl_device_id id = api_device;
    cl_command_queue q = api_queue;
    sgrt_status status = SGRT_SUCCESS;
    if (!context_has_device(c, id, &status))
        return status;
    if (q && (status = check_queue(q, c, id)) != SGRT_SUCCESS)
        return status;
    cl_int err = CL_SUCCESS;
    if (q)
        err = clRetainCommandQueue(q);
    else
        q = clCreateCommandQueue(c, id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS)
        return cl_fail(api_queue ? "clRetainCommandQueue" : "clCreateCommandQueue", err);
    clRetainContext(c);
    ctx->api_context = c;
    ctx->api_queue = q;
    ctx->adopted = true;
    ctx->adopted_queue = api_queue != NULL;
    return SGRT_SUCCESS;
}

static sgrt_status cl_finish(sgrt_context *ctx)
{
    CL_CHECK("clFinish", clFinish(ctx->api_queue));
    return SGRT_SUCCESS;
}

static sgrt_status cl_buffer_create(sgrt_buffer *buf)
{
    cl_int err;
    buf->api_mem = clCreateBuffer(buf->context->api_context, CL_MEM_READ_WRITE, buf->size, NULL,
                                  &err);
    return buf->api_mem ? SGRT_SUCCESS : cl_fail("clCreateBuffer", err);
}

static void cl_buffer_free(sgrt_buffer *buf) { clReleaseMemObject(buf->api_mem); }

static sgrt_status cl_buffer_adopt(sgrt_buffer *buf, void *handle, size_t size)
{
    (void)size;
    cl_mem mem = handle;
    cl_context c = NULL;
    cl_mem_object_type type = 0;
    size_t bytes = 0;
    cl_int err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof c, &c, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    if (err != CL_SUCCESS)
        return invalid_handle("cl_mem", "clGetMemObjectInfo", err);
    if (c != buf->context->api_context)
        return sgrt_fail(SGRT_ERROR_HANDLE_MISMATCH,
                         "sgrt_buffer_create_from_opencl: the cl_mem belongs to another "
                         "cl_context than the sgrt context's");
    if (type != CL_MEM_OBJECT_BUFFER)
        return sgrt_fail(SGRT_ERROR_INVALID_HANDLE,
                         "sgrt_buffer_create_from_opencl: the cl_mem is an image or pipe, not "
                         "a buffer");
    CL_CHECK("clRetainMemObject", clRetainMemObject(mem));
    buf->api_mem = mem;
    buf->size = bytes;
    return SGRT_SUCCESS;
}

static sgrt_status cl_buffer_write(sgrt_buffer *buf, size_t offset, size_t size, const void *src)
{
    CL_CHECK("clEnqueueWriteBuffer", clEnqueueWriteBuffer(buf->context->api_queue, buf->api_mem,
                                                          CL_TRUE, offset, size, src, 0, NULL,
                                                          NULL));
    return SGRT_SUCCESS;
}

static sgrt_status cl_buffer_read(sgrt_buffer *buf, size_t offset, size_t size, void *dst)
{
    CL_CHECK("clEnqueueReadBuffer", clEnqueueReadBuffer(buf->context->api_queue, buf->api_mem,
                                                        CL_TRUE, offset, size, dst, 0, NULL,
                                                        NULL));
    return SGRT_SUCCESS;
}

/* Appends " opt" (no leading space when buf is empty). */
static void append_option(char *buf, size_t cap, const char *opt)
{
    size_t len = strlen(buf);
    if (len < cap)
        snprintf(buf + len, cap - len, "%s%s", len ? " " : "", opt);
}

/* The newest OpenCL C the device compiles (else the 1.2 default), the
 * NVIDIA defines of docs/DESIGN.md "OpenCL C" (tier and compute capability), and the CPU
 * define that gives the tree strategy its CPU shape. */
static void cl_device_options(const sgrt_device *dev, char *buf, size_t cap)
{
    const sgrt_device_info *in = &dev->info;
    buf[0] = '\0';
    if (in->opencl_c_major >= 3)
        append_option(buf, cap, SGRT_OPT_CL_STD_3);
    else if (in->opencl_c_major == 2)
        append_option(buf, cap, SGRT_OPT_CL_STD_2);
    if (in->nvptx) {
        append_option(buf, cap, SGRT_OPT_NV_PTX);
        if (cl_device(dev)->nv_sm) {
            char sm[32];
            snprintf(sm, sizeof sm, SGRT_OPT_NV_SM "%u", cl_device(dev)->nv_sm);
            append_option(buf, cap, sm);
        }
    }
    append_option(buf, cap, SGRT_OPT_SKIP_UNSUPPORTED);
    /* compiler/emit/opencl/opencl_workgroup.cl says why. */
    if (in->kind == SGRT_DEVICE_CPU)
        append_option(buf, cap, SGRT_OPT_DEVICE_CPU);
    if (in->max_work_group_size > 0) {
        char items[48];
        snprintf(items, sizeof items, SGRT_OPT_WG_MAX_ITEMS "%zu", in->max_work_group_size);
        append_option(buf, cap, items);
    }
}

static char *build_log(cl_program program, cl_device_id id)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, id, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
        return NULL;
    char *log = calloc(1, size + 1);
    if (log && clGetProgramBuildInfo(program, id, CL_PROGRAM_BUILD_LOG, size, log, NULL))
        log[0] = '\0';
    return log;
}

static sgrt_status fetch_binary(cl_program program, SgrtBuildResult *result)
{
    size_t size = 0;
    CL_CHECK("clGetProgramInfo", clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size,
                                                  &size, NULL));
    if (size == 0)
        return SGRT_SUCCESS;   /* nothing to cache; not an error */
    unsigned char *binary = malloc(size);
    if (!binary)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory reading a program binary");
    cl_int err = clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL);
    if (err != CL_SUCCESS) {
        free(binary);
        return cl_fail("clGetProgramInfo(CL_PROGRAM_BINARIES)", err);
    }
    result->binary = binary;
    result->binary_size = size;
    return SGRT_SUCCESS;
}

static sgrt_status cl_build_source(sgrt_program *prog, const char *source, const char *options,
                                   SgrtBuildResult *result)
{
    cl_int err;
    cl_device_id id = dev_id(prog->context->device);
    cl_program program =
        clCreateProgramWithSource(prog->context->api_context, 1, &source, NULL, &err);
    if (!program)
        return cl_fail("clCreateProgramWithSource", err);
    err = clBuildProgram(program, 1, &id, options, NULL, NULL);
    result->log = build_log(program, id);
    if (err != CL_SUCCESS) {
        clReleaseProgram(program);
        if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_COMPILE_PROGRAM_FAILURE)
            return sgrt_fail(SGRT_ERROR_BUILD_FAILED,
                             "building module '%s' for '%s' failed:\n%s", prog->module->name,
                             prog->context->device->info.name,
                             result->log ? result->log : "(no log)");
        return cl_fail("clBuildProgram", err);
    }
    prog->api_program = program;
    return fetch_binary(program, result);
}

static sgrt_status cl_build_binary(sgrt_program *prog, const unsigned char *binary, size_t size,
                                   const char *options)
{
    cl_int err, binary_status = CL_SUCCESS;
    cl_device_id id = dev_id(prog->context->device);
    cl_program program = clCreateProgramWithBinary(prog->context->api_context, 1, &id, &size,
                                                   &binary, &binary_status, &err);
    if (!program)
        return cl_fail("clCreateProgramWithBinary", err);
    err = clBuildProgram(program, 1, &id, options, NULL, NULL);
    if (err != CL_SUCCESS || binary_status != CL_SUCCESS) {
        clReleaseProgram(program);
        return cl_fail("clBuildProgram(binary)", err != CL_SUCCESS ? err : binary_status);
    }
    prog->api_program = program;
    return SGRT_SUCCESS;
}

static void cl_program_free(sgrt_program *prog) { clReleaseProgram(prog->api_program); }

static sgrt_status cl_kernel_create(sgrt_kernel *kernel)
{
    cl_int err;
    kernel->api_kernel = clCreateKernel(kernel->program->api_program, kernel->desc->name, &err);
    if (!kernel->api_kernel) {
        if (err == CL_INVALID_KERNEL_NAME)
            return sgrt_fail(SGRT_ERROR_KERNEL_NOT_FOUND,
                             "kernel '%s' is in the descriptor but not in the built program",
                             kernel->desc->name);
        return cl_fail("clCreateKernel", err);
    }
    return SGRT_SUCCESS;
}

static void cl_kernel_free(sgrt_kernel *kernel) { clReleaseKernel(kernel->api_kernel); }

static sgrt_status cl_kernel_wg_info(sgrt_kernel *kernel, sgrt_kernel_info *info)
{
    cl_device_id id = dev_id(kernel->program->context->device);
    size_t max = 0, multiple = 0;
    cl_ulong local = 0;
    cl_int err = clGetKernelWorkGroupInfo(kernel->api_kernel, id, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof max, &max, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(kernel->api_kernel, id,
                                       CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                       sizeof multiple, &multiple, NULL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(kernel->api_kernel, id, CL_KERNEL_LOCAL_MEM_SIZE,
                                       sizeof local, &local, NULL);
    if (err != CL_SUCCESS)
        return cl_fail("clGetKernelWorkGroupInfo", err);
    info->max_work_group_size = max;
    info->preferred_multiple = multiple ? multiple : 1;
    info->suggested_work_group_size = max;
    info->local_mem_size = local;
    return SGRT_SUCCESS;
}

/* clGetKernelSubGroupInfo(KHR) is not in the 1.2 headers: OpenCL 2.1 made
 * the cl_khr_subgroups entry point core under another name, and a platform
 * may offer either, so it is looked up by name on the kernel's platform. */
#define SGRT_CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE 0x2033
typedef cl_int (*SgrtGetKernelSubGroupInfo)(cl_kernel, cl_device_id, cl_uint, size_t,
                                            const void *, size_t, void *, size_t *);

static sgrt_status cl_sub_group_size(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                     uint32_t *size)
{
    const sgrt_device *dev = kernel->program->context->device;
    if (dev->info.nvptx) {
        *size = 32; /* the warp: the nvptx tier works on %laneid */
        return SGRT_SUCCESS;
    }
    SgrtGetKernelSubGroupInfo query = NULL;
    static const char *const names[] = {"clGetKernelSubGroupInfoKHR", "clGetKernelSubGroupInfo"};
    for (size_t i = 0; i < 2 && !query; i++)
        query = (SgrtGetKernelSubGroupInfo)clGetExtensionFunctionAddressForPlatform(
            cl_device(dev)->platform, names[i]);
    if (!query)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "device '%s' has no clGetKernelSubGroupInfo to ask for the sub-group "
                         "size of '%s'",
                         dev->info.name, kernel->desc->name);
    size_t sub_group = 0;
    cl_int err = query(kernel->api_kernel, dev->device_handle,
                       SGRT_CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                       dims->dims * sizeof(size_t), dims->local, sizeof sub_group, &sub_group,
                       NULL);
    if (err != CL_SUCCESS)
        return cl_fail("clGetKernelSubGroupInfo", err);
    *size = (uint32_t)sub_group;
    return SGRT_SUCCESS;
}

/* A cl_kernel keeps its arguments between enqueues, so only the ones set
 * since the last launch are passed again: clSetKernelArg was most of
 * sgrt's launch overhead on the Intel CPU runtime (bench/launch_overhead.c). */
static sgrt_status set_args(sgrt_kernel *kernel)
{
    for (uint32_t i = 0; i < kernel->desc->param_count; i++) {
        const sgrt_param_desc *p = &kernel->desc->params[i];
        SgrtArg *a = &kernel->args[i];
        if (!a->dirty)
            continue;
        cl_int err;
        if (p->kind == SGRT_PARAM_LOCAL)
            err = clSetKernelArg(kernel->api_kernel, i, a->local_bytes, NULL);
        else if (p->kind == SGRT_PARAM_SCALAR)
            err = clSetKernelArg(kernel->api_kernel, i, p->size, a->value);
        else
            err = clSetKernelArg(kernel->api_kernel, i, sizeof(cl_mem), &a->buffer->api_mem);
        if (err != CL_SUCCESS)
            return sgrt_fail(SGRT_ERROR_BACKEND, "clSetKernelArg(%s, %u '%s') failed: %s (%d)",
                             kernel->desc->name, i, p->name, cl_error_name(err), (int)err);
        a->dirty = false;
    }
    return SGRT_SUCCESS;
}

/* The cl_events of a wait list: on the stack for short lists (a launch
 * that waits for nothing, the common case, costs nothing here). */
typedef struct WaitList {
    cl_event stack[16];
    cl_event *events;
    cl_uint count;
} WaitList;

static sgrt_status wait_list(const SgrtSubmit *submit, WaitList *w)
{
    w->count = (cl_uint)submit->wait_count;
    w->events = w->count <= 16 ? w->stack : malloc(w->count * sizeof *w->events);
    if (!w->events)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory for a wait list");
    for (cl_uint i = 0; i < w->count; i++)
        w->events[i] = submit->wait[i]->api_event;
    return SGRT_SUCCESS;
}

static void wait_list_free(WaitList *w)
{
    if (w->events != w->stack)
        free(w->events);
}

static sgrt_status cl_launch(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                             const SgrtSubmit *submit)
{
    sgrt_status status = set_args(kernel);
    WaitList w;
    if (status != SGRT_SUCCESS || (status = wait_list(submit, &w)) != SGRT_SUCCESS)
        return status;
    bool any_local = dims->local[0] || dims->local[1] || dims->local[2];
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(submit->api_queue, kernel->api_kernel, dims->dims, NULL,
                                        dims->global, any_local ? dims->local : NULL, w.count,
                                        w.count ? w.events : NULL, submit->event ? &ev : NULL);
    wait_list_free(&w);
    if (err != CL_SUCCESS)
        return cl_fail("clEnqueueNDRangeKernel", err);
    if (submit->event)
        submit->event->api_event = ev;
    return SGRT_SUCCESS;
}

static sgrt_status cl_queue_create(sgrt_context *ctx, void **api_queue)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(ctx->api_context, dev_id(ctx->device),
                                              CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q)
        return cl_fail("clCreateCommandQueue", err);
    *api_queue = q;
    return SGRT_SUCCESS;
}

static void cl_queue_free(sgrt_context *ctx, void *api_queue)
{
    (void)ctx;
    clFinish(api_queue);
    clReleaseCommandQueue(api_queue);
}

static sgrt_status cl_queue_finish(sgrt_context *ctx, void *api_queue)
{
    (void)ctx;
    CL_CHECK("clFinish", clFinish(api_queue));
    return SGRT_SUCCESS;
}

static cl_int enqueue_command(const SgrtCommand *c, cl_command_queue q, const WaitList *w,
                              cl_event *ev)
{
    const cl_event *list = w->count ? w->events : NULL;
    switch (c->kind) {
    case SGRT_CMD_WRITE:
        return clEnqueueWriteBuffer(q, c->dst->api_mem, c->blocking, c->dst_offset, c->size,
                                    c->host_src, w->count, list, ev);
    case SGRT_CMD_READ:
        return clEnqueueReadBuffer(q, c->src->api_mem, c->blocking, c->src_offset, c->size,
                                   c->host_dst, w->count, list, ev);
    case SGRT_CMD_FILL:
        return clEnqueueFillBuffer(q, c->dst->api_mem, c->pattern, c->pattern_size, c->dst_offset,
                                   c->size, w->count, list, ev);
    case SGRT_CMD_COPY:
        return clEnqueueCopyBuffer(q, c->src->api_mem, c->dst->api_mem, c->src_offset,
                                   c->dst_offset, c->size, w->count, list, ev);
    }
    return CL_INVALID_VALUE;
}

static sgrt_status cl_enqueue(const SgrtCommand *command, const SgrtSubmit *submit)
{
    static const char *const calls[] = {"clEnqueueWriteBuffer", "clEnqueueReadBuffer",
                                        "clEnqueueFillBuffer", "clEnqueueCopyBuffer"};
    WaitList w;
    sgrt_status status = wait_list(submit, &w);
    if (status != SGRT_SUCCESS)
        return status;
    cl_event ev = NULL;
    cl_int err = command->size ? enqueue_command(command, submit->api_queue, &w,
                                                 submit->event ? &ev : NULL)
                               : clEnqueueMarkerWithWaitList(submit->api_queue, w.count,
                                                             w.count ? w.events : NULL,
                                                             submit->event ? &ev : NULL);
    wait_list_free(&w);
    if (err != CL_SUCCESS)
        return cl_fail(command->size ? calls[command->kind] : "clEnqueueMarkerWithWaitList", err);
    if (submit->event)
        submit->event->api_event = ev;
    return SGRT_SUCCESS;
}

static sgrt_status cl_event_wait(sgrt_event *event)
{
    cl_event ev = event->api_event;
    CL_CHECK("clWaitForEvents", clWaitForEvents(1, &ev));
    return SGRT_SUCCESS;
}

static sgrt_status cl_event_profile(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns)
{
    cl_ulong start = 0, end = 0;
    CL_CHECK("clGetEventProfilingInfo",
             clGetEventProfilingInfo(event->api_event, CL_PROFILING_COMMAND_START, sizeof start,
                                     &start, NULL));
    CL_CHECK("clGetEventProfilingInfo",
             clGetEventProfilingInfo(event->api_event, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                     NULL));
    *start_ns = start;
    *end_ns = end;
    return SGRT_SUCCESS;
}

static void cl_event_free(sgrt_event *event)
{
    if (event->api_event)
        clReleaseEvent(event->api_event);
}

/* Page-locked host memory (host.c).  OpenCL has no call for it; the
 * portable recipe (NVIDIA's and AMD's guides) is a buffer made with
 * CL_MEM_ALLOC_HOST_PTR, mapped once: the driver backs it with pinned
 * memory, and the mapped pointer is ordinary host memory that
 * clEnqueueRead/WriteBuffer of any buffer copy from and to by DMA.  On CPU
 * runtimes it is plain memory (nothing to pin).  *priv is the buffer. */
static sgrt_status cl_host_fail(const char *call, cl_int err)
{
    sgrt_status status = err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE
                             ? SGRT_ERROR_OUT_OF_MEMORY
                             : SGRT_ERROR_BACKEND;
    return sgrt_fail(status, "sgrt_host_alloc: %s failed (OpenCL error %d)", call, (int)err);
}

static sgrt_status cl_host_alloc(sgrt_context *ctx, size_t size, void **ptr, void **priv)
{
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(ctx->api_context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size,
                                NULL, &err);
    if (!mem)
        return cl_host_fail("clCreateBuffer", err);
    *ptr = clEnqueueMapBuffer(ctx->api_queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size,
                              0, NULL, NULL, &err);
    if (!*ptr) {
        clReleaseMemObject(mem);
        return cl_host_fail("clEnqueueMapBuffer", err);
    }
    *priv = mem;
    return SGRT_SUCCESS;
}

static sgrt_status cl_host_free(sgrt_context *ctx, void *ptr, void *priv)
{
    cl_mem mem = priv;
    cl_int err = clEnqueueUnmapMemObject(ctx->api_queue, mem, ptr, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(ctx->api_queue);
    clReleaseMemObject(mem);
    return err == CL_SUCCESS ? SGRT_SUCCESS : cl_host_fail("clEnqueueUnmapMemObject", err);
}

static void cl_language_level(const sgrt_device_info *in, char *buf, size_t cap)
{
    snprintf(buf, cap, " (OpenCL C %u.%u)", in->opencl_c_major, in->opencl_c_minor);
}

const SgrtBackend sgrt_opencl_backend = {
    .name = "opencl",
    .api = "OpenCL",
    .sgcc_output = SGCC_OUTPUT_OPENCL,
    .sgcc_target = SGCC_TARGET_OPENCL,
    .skips_unsupported_kernels = true,
    .checks_sub_group_width = true,
    .default_cpu = true,
    .wg_builtin_needs = "OpenCL C 2.0 work-group collective functions (work_group_reduce_*; "
                        "OpenCL C 2.x, or 3.x with __opencl_c_work_group_collective_functions)",
    .language_level = cl_language_level,
    .enumerate = cl_enumerate,
    .context_create = cl_context_create,
    .context_free = cl_context_free,
    .finish = cl_finish,
    .buffer_create = cl_buffer_create,
    .buffer_free = cl_buffer_free,
    .buffer_write = cl_buffer_write,
    .buffer_read = cl_buffer_read,
    .context_adopt = cl_context_adopt,
    .buffer_adopt = cl_buffer_adopt,
    .device_options = cl_device_options,
    .build_source = cl_build_source,
    .build_binary = cl_build_binary,
    .program_free = cl_program_free,
    .kernel_create = cl_kernel_create,
    .kernel_free = cl_kernel_free,
    .sub_group_size = cl_sub_group_size,
    .kernel_info = cl_kernel_wg_info,
    .launch = cl_launch,
    .queue_create = cl_queue_create,
    .queue_free = cl_queue_free,
    .queue_finish = cl_queue_finish,
    .enqueue = cl_enqueue,
    .event_wait = cl_event_wait,
    .event_profile = cl_event_profile,
    .event_free = cl_event_free,
    .host_alloc = cl_host_alloc,
    .host_free = cl_host_free,
};

/* sgrt.h's interop entry points that take OpenCL handles. */
sgrt_status sgrt_context_create_from_opencl(void *cl_context, void *cl_device, void *cl_queue,
                                            sgrt_context **context)
{
    if (!cl_context || !cl_device || !context)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_context_create_from_opencl: NULL %s",
                         !cl_context ? "cl_context" : !cl_device ? "cl_device_id" : "context");
    sgrt_device *device = sgrt_device_find(&sgrt_opencl_backend, cl_device);
    if (!device)
        return sgrt_fail(SGRT_ERROR_INVALID_HANDLE,
                         "sgrt_context_create_from_opencl: cl_device_id %p is not one of the "
                         "OpenCL devices sgrt lists (a sub-device, or not a device)",
                         cl_device);
    return sgrt_context_adopt(&sgrt_opencl_backend, device, cl_context, cl_device, cl_queue,
                              context);
}

sgrt_status sgrt_buffer_create_from_opencl(sgrt_context *context, void *cl_mem,
                                           sgrt_buffer **buffer)
{
    if (!context || !cl_mem || !buffer)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_buffer_create_from_opencl: NULL %s",
                         !context ? "context" : !cl_mem ? "cl_mem" : "buffer");
    return sgrt_buffer_adopt(&sgrt_opencl_backend, context, cl_mem, 0,
                             "sgrt_buffer_create_from_opencl", buffer);
}
