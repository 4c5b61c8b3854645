/* test_abi.c — the ABI rules of sgrt.h (docs/RUNTIME.md "ABI and names"):
 * sgrt_device_info is versioned by size (a host built against an older,
 * shorter struct gets exactly its prefix; struct_size says how much was
 * filled), and the sgrt 0.1 getter names still answer as their
 * sgrt_<object>_get_<what> successors; sgrt_backend_name.  Built with SGRT_WARN_DEPRECATED
 * off (the default), as existing hosts are.  Plain TAP, no device work
 * beyond selection. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sgrt.h"

static int tests, failures;

static void check(const char *what, bool ok)
{
    printf("%s %d - %s\n", ok ? "ok" : "not ok", ++tests, what);
    failures += !ok;
}

/* Issue 35.15: descriptors with the right ABI whose tables do not hold
 * together are refused at create with INVALID_MODULE, a message naming
 * the fault, and no program (before, they were accepted and dereferenced
 * later).  Each case is one fault on an otherwise good descriptor. */
static void check_refused(sgrt_context *ctx, const char *what, const sgrt_module_desc *m,
                          const char *message)
{
    sgrt_program *p = NULL;
    sgrt_status st = sgrt_program_create(ctx, m, &p);
    char text[200];
    snprintf(text, sizeof text, "INVALID_MODULE: %s", what);
    check(text, st == SGRT_ERROR_INVALID_MODULE && p == NULL &&
                    strstr(sgrt_last_error(), message) != NULL);
    if (st == SGRT_SUCCESS)
        sgrt_program_free(p);
}

static void check_descriptors(sgrt_context *ctx)
{
    static const sgrt_param_desc params[] = {
        {"out", SGRT_PARAM_GLOBAL, SGRT_TYPE_INT, 4},
        {"n", SGRT_PARAM_SCALAR, SGRT_TYPE_INT, 4},
    };
    static const sgrt_spec_desc specs[] = {{"block", 0, SGRT_TYPE_UINT, false, {.ui = 8}}};
    sgrt_kernel_desc kernel = {.name = "k", .param_count = 2, .params = params};
    const sgrt_module_desc good = {.abi = SGRT_MODULE_ABI, .name = "m", .source_file = "m.sgc",
                                   .spec_count = 1, .specs = specs,
                                   .kernel_count = 1, .kernels = &kernel};
    sgrt_program *p = NULL;
    check("a good descriptor is accepted", sgrt_program_create(ctx, &good, &p) == SGRT_SUCCESS);
    sgrt_program_free(p);

    sgrt_module_desc m = good;
    m.name = NULL;
    check_refused(ctx, "no module name", &m, "no name");
    m = good;
    m.kernels = NULL;
    check_refused(ctx, "NULL kernel table", &m, "NULL kernels table");
    m = good;
    m.specs = NULL;
    check_refused(ctx, "NULL spec table", &m, "NULL specs table");
    m = good;
    m.kernel_count = SGRT_MODULE_MAX_COUNT + 1;
    check_refused(ctx, "kernel count out of bounds", &m, "kernels (at most 65536)");
    m = good;
    m.spec_count = UINT32_MAX;
    check_refused(ctx, "spec count out of bounds", &m, "at most 65536");

    sgrt_spec_desc bad_spec = specs[0];
    m = good;
    m.specs = &bad_spec;
    bad_spec.name = NULL;
    check_refused(ctx, "spec constant without a name", &m, "specialization constant 0 has no name");
    bad_spec = specs[0];
    bad_spec.type = SGRT_TYPE_COUNT;
    check_refused(ctx, "spec constant type out of range", &m, "'block' has type");

    sgrt_kernel_desc bad_kernel = kernel;
    m = good;
    m.kernels = &bad_kernel;
    bad_kernel.name = NULL;
    check_refused(ctx, "kernel without a name", &m, "kernel 0 has no name");
    bad_kernel = kernel;
    bad_kernel.params = NULL;
    check_refused(ctx, "NULL parameter table", &m, "NULL params table");
    bad_kernel.param_count = SGRT_MODULE_MAX_COUNT + 1;
    check_refused(ctx, "parameter count out of bounds", &m, "parameters (at most");
    sgrt_param_desc bad_params[2] = {params[0], params[1]};
    bad_kernel = kernel;
    bad_kernel.params = bad_params;
    bad_params[1].name = NULL;
    check_refused(ctx, "parameter without a name", &m, "parameter 1 of kernel 'k' has no name");
    bad_params[1] = params[1];
    bad_params[1].kind = (sgrt_param_kind)7;
    check_refused(ctx, "parameter kind out of range", &m, "'n' of kernel 'k' has kind 7");
    bad_params[1] = params[1];
    bad_params[1].type = (sgrt_type)-1;
    check_refused(ctx, "parameter type out of range", &m, "(out of range)");
    /* Counts of zero need no table. */
    m = good;
    m.spec_count = 0;
    m.specs = NULL;
    m.kernel_count = 0;
    m.kernels = NULL;
    check("empty tables may be NULL", sgrt_program_create(ctx, &m, &p) == SGRT_SUCCESS);
    sgrt_program_free(p);
}

int main(void)
{
    sgrt_device *dev = NULL;
    if (sgrt_device_select(NULL, &dev) != SGRT_SUCCESS) {
        printf("1..0 # SKIP no device\n");
        return 77;
    }
    sgrt_device_info full, prefix;
    memset(&full, 0xAB, sizeof full);
    check("get_info", sgrt_device_get_info(dev, &full) == SGRT_SUCCESS);
    check("struct_size is the whole struct", full.struct_size == sizeof full);
    check("the name is filled", full.name[0] != '\0');

    /* An older host whose struct ended before `vendor`. */
    size_t old_size = offsetof(sgrt_device_info, vendor);
    memset(&prefix, 0xCD, sizeof prefix);
    check("sized get_info", sgrt_device_get_info_sized(dev, &prefix, old_size) == SGRT_SUCCESS);
    check("struct_size is the caller's size", prefix.struct_size == old_size);
    check("the prefix is filled", strcmp(prefix.name, full.name) == 0 &&
                                      prefix.backend == full.backend);
    const unsigned char *after = (const unsigned char *)&prefix + old_size;
    bool untouched = true;
    for (size_t i = 0; i < sizeof prefix - old_size; i++)
        untouched = untouched && after[i] == 0xCD;
    check("nothing written past the caller's size", untouched);
    check("too small for struct_size is INVALID_ARGUMENT",
          sgrt_device_get_info_sized(dev, &prefix, 2) == SGRT_ERROR_INVALID_ARGUMENT);
    check("the function behind the macro", (sgrt_device_get_info)(dev, &prefix) == SGRT_SUCCESS &&
                                               prefix.struct_size == sizeof prefix);

    /* The registry's names (runtime/device.c), as SGRT_DEVICE spells them;
     * "<name>:<backend_index>" selects the device back. */
    check("backend names", strcmp(sgrt_backend_name(SGRT_BACKEND_OPENCL), "opencl") == 0 &&
                               strcmp(sgrt_backend_name(SGRT_BACKEND_CUDA), "cuda") == 0 &&
                               sgrt_backend_name(SGRT_BACKEND_COUNT) == NULL);
    char selector[64];
    sgrt_device *again = NULL;
    snprintf(selector, sizeof selector, "%s:%u", sgrt_backend_name(full.backend),
             full.backend_index);
    check("the backend's name and index select the device",
          sgrt_device_select(selector, &again) == SGRT_SUCCESS && again == dev);

    size_t count_new = 0, count_old = 1000;
    check("device_get_count", sgrt_device_get_count(&count_new) == SGRT_SUCCESS);
    check("deprecated device_count agrees",
          sgrt_device_count(&count_old) == SGRT_SUCCESS && count_old == count_new);
    sgrt_context *ctx = NULL;
    sgrt_device *a = NULL, *b = NULL;
    sgrt_buffer *buf = NULL;
    size_t size = 0;
    check("context", sgrt_context_create(dev, &ctx) == SGRT_SUCCESS);
    check("context_get_device and context_device agree",
          sgrt_context_get_device(ctx, &a) == SGRT_SUCCESS &&
              sgrt_context_device(ctx, &b) == SGRT_SUCCESS && a == dev && b == dev);
    check("buffer", sgrt_buffer_create(ctx, 48, &buf) == SGRT_SUCCESS);
    check("buffer_get_size and buffer_size agree",
          sgrt_buffer_get_size(buf, &size) == SGRT_SUCCESS && size == 48 &&
              sgrt_buffer_size(buf) == 48);
    check("buffer_get_size(NULL) is INVALID_ARGUMENT",
          sgrt_buffer_get_size(NULL, &size) == SGRT_ERROR_INVALID_ARGUMENT);
    sgrt_buffer_free(buf);
    check_descriptors(ctx);
    sgrt_context_free(ctx);
    printf("1..%d\n", tests);
    return failures ? 1 : 0;
}
