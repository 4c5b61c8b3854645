/* exec_host.c — split barriers end to end (docs/REFERENCE.md "Split barriers"): SGC source in, sgcc
 * out, run, compared with host references.
 *
 * The kernels are the four programs of samples/barriers/ and the two units
 * beside this file, compiled by sgcc --header at build time; the generated
 * module headers carry the OpenCL C and CUDA C sources.  sgrt builds them
 * for the device that SGRT_DEVICE selects (OpenCL or CUDA) and launches
 * them.  The cases, their inputs and their independent sequential
 * references are those of the hand-lowered library test
 * (tests/barrier/cases.h): the same numbers must come out whether the
 * kernel was written by hand or by sgcc.
 *
 * Units whose waits are executed by part of a work-group run only where
 * work-items make independent progress (CUDA, NVIDIA OpenCL); elsewhere
 * their cases are SKIPped (docs/BARRIERS.md "Other OpenCL devices").
 *
 *   exec_barrier [BUILD_OPTIONS]      exit 0: no failure; 77: no usable device */
#include <stdbool.h>

#include "cases.h"

#include "copy_overlap.h"
#include "drop_progressive.h"
#include "phase_rules.h"
#include "ring_exchange.h"
#include "subset_waits.h"
#include "tiled_double_buffer.h"

typedef struct Unit {
    const sgrt_module_desc *module;
    bool subset_waits;     /* some wait is executed by part of a work-group */
    sgrt_program *program; /* NULL until built */
} Unit;

static Unit units[] = {
    {&ring_exchange_module, false, NULL},
    {&copy_overlap_module, false, NULL},
    {&drop_progressive_module, true, NULL},
    {&tiled_double_buffer_module, false, NULL},
    {&phase_rules_module, false, NULL},
    {&subset_waits_module, true, NULL},
};
enum { UNIT_COUNT = sizeof units / sizeof units[0] };

typedef struct Host {
    sgrt_context *context;
    bool subset_waits_ok;
} Host;

static void report(const char *what, sgrt_status st)
{
    fprintf(stderr, "%s: %s: %s\n", what, sgrt_status_name(st), sgrt_last_error());
}

/* The kernel `name` from whichever unit has it; SKIP when none does or when
 * its unit may not run on this device. */
static TestStatus find_kernel(const Host *host, const char *name, sgrt_kernel **kernel)
{
    for (int i = 0; i < UNIT_COUNT; i++) {
        sgrt_status st = sgrt_kernel_get(units[i].program, name, kernel);
        if (st == SGRT_ERROR_KERNEL_NOT_FOUND)
            continue;
        if (st != SGRT_SUCCESS) {
            report(name, st);
            return TEST_FAIL;
        }
        return units[i].subset_waits && !host->subset_waits_ok ? TEST_SKIP : TEST_PASS;
    }
    return TEST_SKIP;
}

static TestStatus host_run(void *self, const char *name, unsigned groups, TestArg *args, int nargs)
{
    Host *host = self;
    sgrt_kernel *kernel = NULL;
    TestStatus status = find_kernel(host, name, &kernel);
    if (status != TEST_PASS)
        return status;
    sgrt_buffer *bufs[8] = {0};
    sgrt_status st = SGRT_SUCCESS;
    for (int i = 0; i < nargs && i < 8 && st == SGRT_SUCCESS; i++) {
        if (!args[i].host) {
            st = sgrt_kernel_set_arg(kernel, (uint32_t)i, sizeof(unsigned), &args[i].value);
            continue;
        }
        st = sgrt_buffer_create(host->context, args[i].bytes, &bufs[i]);
        if (st == SGRT_SUCCESS)
            st = sgrt_buffer_write(bufs[i], 0, args[i].bytes, args[i].host);
        if (st == SGRT_SUCCESS)
            st = sgrt_kernel_set_arg_buffer(kernel, (uint32_t)i, bufs[i]);
    }
    sgrt_launch_dims dims = {1, {(size_t)groups * TEST_WG, 1, 1}, {TEST_WG, 1, 1}};
    if (st == SGRT_SUCCESS)
        st = sgrt_kernel_launch(kernel, &dims, NULL);
    for (int i = 0; i < nargs && i < 8 && st == SGRT_SUCCESS; i++)
        if (args[i].host)
            st = sgrt_buffer_read(bufs[i], 0, args[i].bytes, args[i].host);
    if (st != SGRT_SUCCESS)
        report(name, st);
    for (int i = 0; i < 8; i++)
        sgrt_buffer_free(bufs[i]);
    return st == SGRT_SUCCESS ? TEST_PASS : TEST_FAIL;
}

static bool build_units(sgrt_context *context, const char *options)
{
    for (int i = 0; i < UNIT_COUNT; i++) {
        const char *name = units[i].module->name;
        sgrt_status st = sgrt_program_create(context, units[i].module, &units[i].program);
        if (st == SGRT_SUCCESS)
            st = sgrt_program_build(units[i].program, options);
        if (st != SGRT_SUCCESS) {
            const char *log = NULL;
            report(name, st);
            if (units[i].program && sgrt_program_build_log(units[i].program, &log) == SGRT_SUCCESS && log)
                fprintf(stderr, "%s\n", log);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    const char *options = argc > 1 ? argv[1] : NULL;
    sgrt_device *device;
    sgrt_device_info info;
    sgrt_status st = sgrt_device_select(NULL, &device);
    if (st == SGRT_SUCCESS)
        st = sgrt_device_get_info(device, &info);
    if (st != SGRT_SUCCESS) {
        report("device", st);
        return 77;
    }
    if (!info.split_barriers) {
        printf("SKIP all: %s has no split barriers (CUDA needs sm_80)\n", info.name);
        return 77;
    }
    Host host = {NULL, info.backend == SGRT_BACKEND_CUDA || info.nvptx};
    if (options && strstr(options, "SGC_ASYNC_BARRIER_SPIN"))
        host.subset_waits_ok = true;
    st = sgrt_context_create(device, &host.context);
    if (st != SGRT_SUCCESS) {
        report("context", st);
        return 1;
    }
    int failures = 1;
    if (build_units(host.context, options)) {
        char label[600];
        snprintf(label, sizeof label, "[sgcc | %s %s | %s]",
                 info.backend == SGRT_BACKEND_CUDA ? "CUDA" : "OpenCL", info.name,
                 options ? options : "default options");
        TestBackend be = {&host, host_run};
        failures = test_run_all(&be, label);
    }
    for (int i = 0; i < UNIT_COUNT; i++)
        sgrt_program_free(units[i].program);
    sgrt_context_free(host.context);
    return failures ? 1 : 0;
}
