/* device.c — the backend registry, device enumeration (every backend, once
 * per process) and selection by the SGRT_DEVICE syntax:
 *
 *   [BACKEND:]WHAT    BACKEND = a backend's name: cuda | opencl (restricts the search)
 *   WHAT = N          the N-th device (of BACKEND, or of all devices)
 *        | gpu | cpu | accelerator   the first device of that kind
 *        | TEXT       the first device whose name, vendor or platform
 *                     contains TEXT, ignoring case ("pocl", "intel")
 *        | (empty)    the first device of BACKEND
 *
 * CUDA devices are listed first, so that on an NVIDIA machine the default
 * (first GPU) is the CUDA device rather than the same GPU through OpenCL. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sgrt_internal.h"

static sgrt_device devices[SGRT_MAX_DEVICES];
static size_t device_count;
static pthread_once_t enumerate_once = PTHREAD_ONCE_INIT;

/* The backend registry: a backend is its folder under runtime/backends
 * (its SgrtBackend table) and a row here, with its sgrt_backend number
 * (sgrt.h).  Devices are listed backend by backend in the order of the
 * rows, CUDA's first (docs/RUNTIME.md "Devices"), so that an index keeps
 * naming one device. */
extern const SgrtBackend sgrt_cuda_backend, sgrt_opencl_backend;
static const struct BackendRow {
    sgrt_backend id;
    const SgrtBackend *backend;
} registry[] = {
    {SGRT_BACKEND_CUDA, &sgrt_cuda_backend},
    {SGRT_BACKEND_OPENCL, &sgrt_opencl_backend},
};
_Static_assert(sizeof registry / sizeof *registry == SGRT_BACKEND_COUNT,
               "one registry row per sgrt_backend");
#define REGISTRY_ROWS (sizeof registry / sizeof *registry)

const SgrtBackend *sgrt_backend_by_id(sgrt_backend id)
{
    for (size_t r = 0; r < REGISTRY_ROWS; r++)
        if (registry[r].id == id)
            return registry[r].backend;
    return NULL;
}

const char *sgrt_backend_name(sgrt_backend backend)
{
    const SgrtBackend *be = sgrt_backend_by_id(backend);
    return be ? be->name : NULL;
}

static void enumerate_all(void)
{
    for (size_t r = 0; r < REGISTRY_ROWS; r++) {
        size_t first = device_count;
        registry[r].backend->enumerate(devices, SGRT_MAX_DEVICES, &device_count);
        for (size_t i = first; i < device_count; i++) {
            devices[i].backend = registry[r].backend;
            devices[i].info.backend = registry[r].id;
        }
    }
    for (size_t i = 0; i < device_count; i++)
        sgrt_device_fill_wg_strategies(&devices[i].info);
}

/* The same policy as the default in compiler/emit/opencl/opencl_workgroup.cl:
 * tree everywhere, built-ins with OpenCL C 2.0 collectives (only the
 * backends that have them set wg_collectives), sub-groups
 * where the device has them (CUDA warps, khr, nvptx); best first: builtin,
 * subgroup, tree, except that a CPU device's best is never subgroup (its
 * shuffles go through memory there; the tree takes its serial CPU shape). */
void sgrt_device_fill_wg_strategies(sgrt_device_info *in)
{
    in->wg_strategies = 1u << SGRT_WG_TREE;
    if (in->wg_collectives)
        in->wg_strategies |= 1u << SGRT_WG_BUILTIN;
    if (in->sub_groups)
        in->wg_strategies |= 1u << SGRT_WG_SUBGROUP;
    bool subgroup_best = (in->wg_strategies & (1u << SGRT_WG_SUBGROUP)) &&
                         in->kind != SGRT_DEVICE_CPU;
    in->wg_strategy = (in->wg_strategies & (1u << SGRT_WG_BUILTIN)) ? SGRT_WG_BUILTIN
                      : subgroup_best                                 ? SGRT_WG_SUBGROUP
                                                                      : SGRT_WG_TREE;
}

static const char *const wg_strategy_names[SGRT_WG_STRATEGY_COUNT] = {
    "default", "tree", "builtin", "subgroup",
};

const char *sgrt_wg_strategy_name(sgrt_wg_strategy strategy)
{
    return (unsigned)strategy < SGRT_WG_STRATEGY_COUNT ? wg_strategy_names[strategy] : NULL;
}

sgrt_status sgrt_wg_strategy_parse(const char *name, sgrt_wg_strategy *strategy)
{
    if (!name || !strategy)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_wg_strategy_parse: NULL argument");
    for (unsigned i = 0; i < SGRT_WG_STRATEGY_COUNT; i++)
        if (strcmp(name, wg_strategy_names[i]) == 0) {
            *strategy = (sgrt_wg_strategy)i;
            return sgrt_ok();
        }
    return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                     "unknown work-group strategy '%s' (expected default, tree, builtin or "
                     "subgroup)",
                     name);
}

static void ensure_enumerated(void) { pthread_once(&enumerate_once, enumerate_all); }

sgrt_status sgrt_device_get_count(size_t *count)
{
    if (!count)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_device_get_count: count is NULL");
    ensure_enumerated();
    *count = device_count;
    return sgrt_ok();
}

sgrt_status sgrt_device_get(size_t index, sgrt_device **device)
{
    if (!device)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_device_get: device is NULL");
    ensure_enumerated();
    if (index >= device_count)
        return sgrt_fail(SGRT_ERROR_NO_DEVICE, "no device %zu (%zu devices)", index, device_count);
    *device = &devices[index];
    return sgrt_ok();
}

sgrt_status sgrt_device_get_info_sized(const sgrt_device *device, sgrt_device_info *info,
                                       size_t info_size)
{
    if (!device || !info)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_device_get_info: NULL argument");
    if (info_size < sizeof info->struct_size)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_device_get_info: a struct of %zu bytes has no room for "
                         "struct_size", info_size);
    sgrt_device_info full = device->info;
    size_t filled = info_size < sizeof full ? info_size : sizeof full;
    full.struct_size = (uint32_t)filled;
    memcpy(info, &full, filled);
    return sgrt_ok();
}

static bool contains_nocase(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; haystack++)
        if (strncasecmp(haystack, needle, n) == 0)
            return true;
    return n == 0;
}

static bool is_number(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

static bool matches(const sgrt_device *dev, const char *what, size_t ordinal)
{
    static const char *const kind_names[] = {"gpu", "cpu", "accelerator", "other"};
    const sgrt_device_info *in = &dev->info;
    if (*what == '\0')
        return true;
    if (is_number(what))
        return strtoul(what, NULL, 10) == ordinal;
    for (size_t k = 0; k < sizeof kind_names / sizeof *kind_names; k++)
        if (strcasecmp(what, kind_names[k]) == 0)
            return in->kind == (sgrt_device_kind)k;
    return contains_nocase(in->name, what) || contains_nocase(in->vendor, what) ||
           contains_nocase(in->platform, what);
}

static sgrt_status select_by(const char *selector, sgrt_device **device)
{
    const char *what = selector;
    const SgrtBackend *backend = NULL;
    for (size_t r = 0; r < REGISTRY_ROWS && !backend; r++) {
        const char *name = registry[r].backend->name;
        size_t n = strlen(name);
        if (strncasecmp(selector, name, n) == 0 && (selector[n] == ':' || !selector[n])) {
            backend = registry[r].backend;
            what = selector[n] ? selector + n + 1 : selector + n;
        }
    }
    size_t ordinal = 0;
    for (size_t i = 0; i < device_count; i++) {
        if (backend && devices[i].backend != backend)
            continue;
        if (matches(&devices[i], what, ordinal++)) {
            *device = &devices[i];
            return sgrt_ok();
        }
    }
    return sgrt_fail(SGRT_ERROR_NO_DEVICE, "no device matches '%s' (%zu devices found)",
                     selector, device_count);
}

sgrt_status sgrt_device_select(const char *selector, sgrt_device **device)
{
    if (!device)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_device_select: device is NULL");
    ensure_enumerated();
    if (!selector)
        selector = getenv("SGRT_DEVICE");
    if (selector && *selector)
        return select_by(selector, device);
    for (size_t i = 0; i < device_count; i++)
        if (devices[i].info.kind == SGRT_DEVICE_GPU)
            return *device = &devices[i], sgrt_ok();
    for (size_t i = 0; i < device_count; i++)
        if (devices[i].info.kind == SGRT_DEVICE_CPU && devices[i].backend->default_cpu)
            return *device = &devices[i], sgrt_ok();
    return sgrt_fail(SGRT_ERROR_NO_DEVICE, "no GPU and no OpenCL CPU device found");
}

sgrt_device *sgrt_device_find(const SgrtBackend *backend, void *handle)
{
    ensure_enumerated();
    for (size_t i = 0; i < device_count; i++)
        if (devices[i].backend == backend && devices[i].device_handle == handle)
            return &devices[i];
    return NULL;
}

sgrt_status sgrt_device_get_native(const sgrt_device *device, sgrt_backend api, void **handle)
{
    if (!device || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_device_get_native: NULL argument");
    if (device->info.backend != api)
        return sgrt_native_mismatch("device", device->info.backend, api);
    *handle = device->device_handle;
    return sgrt_ok();
}
