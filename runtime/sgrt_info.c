/* sgrt_info.c — the `sgrt-info` tool: lists the devices sgrt sees, their
 * capabilities, and which one SGRT_DEVICE (or the default rule, or -d)
 * selects; --json writes the same as one JSON document (docs/sgrt-info.1.scd).
 * Exit: 0 a device is selected, 1 none is (no device, or the selector
 * matches none), 2 bad usage. */
#include <stdio.h>
#include <string.h>

#include "sgrt.h"

static const char *const kind_names[] = {"gpu", "cpu", "accelerator", "other"};

static const char *yes_no(bool b) { return b ? "yes" : "no"; }
static const char *true_false(bool b) { return b ? "true" : "false"; }
/* SGRT_DEVICE's spelling of each backend (docs/RUNTIME.md "Devices"). */
static const char *backend_name(sgrt_backend b)
{
    const char *name = sgrt_backend_name(b);
    return name ? name : "?";
}

static void usage(FILE *to)
{
    fputs("usage: sgrt-info [-d SELECTOR] [--json]\n"
          "Lists the devices sgrt sees (OpenCL, then CUDA), their capabilities, and the\n"
          "device that SELECTOR, else $SGRT_DEVICE, else the default rule (first GPU,\n"
          "else first OpenCL CPU device) selects.\n"
          "  -d, --device SELECTOR  select as SGRT_DEVICE would (cuda:0, opencl:1, intel, cpu...)\n"
          "  --json                 one JSON document: {\"devices\": [...], \"selected\": N or null}\n"
          "  -h, --help             this text\n"
          "  --version              sgrt's version\n"
          "Exit status: 0 a device is selected, 1 none (no device, or no match), 2 bad usage.\n",
          to);
}

static void print_device(size_t index, const sgrt_device_info *in)
{
    printf("%zu: %s:%u  %s  [%s]\n", index, backend_name(in->backend), in->backend_index, in->name,
           kind_names[in->kind]);
    printf("   platform %s, vendor %s, version %s, driver %s\n", in->platform, in->vendor,
           in->version, in->driver_version);
    printf("   sub-groups %s, non-uniform groups %s, split barriers %s, fp64 %s%s\n",
           yes_no(in->sub_groups), yes_no(in->non_uniform_groups), yes_no(in->split_barriers),
           yes_no(in->fp64), in->nvptx ? ", nvptx tier" : "");
    printf("   sub-group sizes:");
    for (uint32_t i = 0; i < in->sub_group_size_count; i++)
        printf(" %u", in->sub_group_sizes[i]);
    printf("%s\n   max work-group %zu, local memory %llu bytes\n",
           in->sub_group_size_count ? "" : " unknown", in->max_work_group_size,
           (unsigned long long)in->local_mem_size);
    printf("   work-group strategies:");
    for (int s = SGRT_WG_TREE; s < SGRT_WG_STRATEGY_COUNT; s++)
        if (in->wg_strategies & (1u << s))
            printf(" %s", sgrt_wg_strategy_name((sgrt_wg_strategy)s));
    printf(" (default %s)\n", sgrt_wg_strategy_name(in->wg_strategy));
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void json_field(const char *key, const char *value, const char *after)
{
    printf("\"%s\": ", key);
    json_string(value);
    fputs(after, stdout);
}

/* One device object; the keys are sgrt_device_info's fields (RUNTIME.md). */
static void json_device(size_t index, const sgrt_device_info *in)
{
    char selector[32];
    snprintf(selector, sizeof selector, "%s:%u", backend_name(in->backend), in->backend_index);
    printf("    {\"index\": %zu, ", index);
    json_field("selector", selector, ", ");
    json_field("backend", backend_name(in->backend), ", ");
    json_field("kind", kind_names[in->kind], ",\n     ");
    json_field("name", in->name, ", ");
    json_field("vendor", in->vendor, ", ");
    json_field("platform", in->platform, ",\n     ");
    json_field("version", in->version, ", ");
    json_field("driver_version", in->driver_version, ",\n     ");
    printf("\"sub_groups\": %s, \"non_uniform_groups\": %s, \"split_barriers\": %s, "
           "\"fp64\": %s, \"nvptx\": %s,\n     \"sub_group_sizes\": [",
           true_false(in->sub_groups), true_false(in->non_uniform_groups),
           true_false(in->split_barriers), true_false(in->fp64), true_false(in->nvptx));
    for (uint32_t i = 0; i < in->sub_group_size_count; i++)
        printf("%s%u", i ? ", " : "", in->sub_group_sizes[i]);
    printf("], \"max_work_group_size\": %zu, \"local_mem_size\": %llu, \"global_mem_size\": %llu,\n",
           in->max_work_group_size, (unsigned long long)in->local_mem_size,
           (unsigned long long)in->global_mem_size);
    printf("     \"opencl_c_version\": \"%u.%u\", \"cuda_compute_capability\": \"%u.%u\", "
           "\"wg_collectives\": %s,\n     \"wg_strategies\": [",
           in->opencl_c_major, in->opencl_c_minor, in->cuda_cc_major, in->cuda_cc_minor,
           true_false(in->wg_collectives));
    const char *sep = "";
    for (int s = SGRT_WG_TREE; s < SGRT_WG_STRATEGY_COUNT; s++)
        if (in->wg_strategies & (1u << s)) {
            printf("%s\"%s\"", sep, sgrt_wg_strategy_name((sgrt_wg_strategy)s));
            sep = ", ";
        }
    printf("], \"wg_strategy\": \"%s\"}", sgrt_wg_strategy_name(in->wg_strategy));
}

/* The index of `device` in sgrt's list, or -1. */
static long index_of(const sgrt_device *device, size_t count)
{
    sgrt_device *d;
    for (size_t i = 0; i < count; i++)
        if (sgrt_device_get(i, &d) == SGRT_SUCCESS && d == device)
            return (long)i;
    return -1;
}

int main(int argc, char **argv)
{
    const char *selector = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if ((!strcmp(argv[i], "-d") || !strcmp(argv[i], "--device")) && i + 1 < argc) {
            selector = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--version")) {
            printf("sgrt-info (sgrt) %d.%d\n", SGRT_VERSION_MAJOR, SGRT_VERSION_MINOR);
            return 0;
        } else {
            fprintf(stderr, "sgrt-info: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    size_t count = 0;
    sgrt_device_get_count(&count);
    if (json)
        printf("{\n  \"devices\": [\n");
    for (size_t i = 0; i < count; i++) {
        sgrt_device *dev;
        sgrt_device_info info;
        if (sgrt_device_get(i, &dev) != SGRT_SUCCESS || sgrt_device_get_info(dev, &info) != SGRT_SUCCESS)
            continue;
        if (json) {
            json_device(i, &info);
            fputs(i + 1 < count ? ",\n" : "\n", stdout);
        } else {
            print_device(i, &info);
        }
    }
    sgrt_device *chosen = NULL;
    sgrt_status status = sgrt_device_select(selector, &chosen);
    long selected = status == SGRT_SUCCESS ? index_of(chosen, count) : -1;
    if (json) {
        printf("  ],\n  \"selected\": ");
        if (selected >= 0)
            printf("%ld,\n  \"error\": null\n}\n", selected);
        else {
            printf("null,\n  \"error\": ");
            json_string(sgrt_last_error());
            printf("\n}\n");
        }
    } else if (selected >= 0) {
        sgrt_device_info info;
        sgrt_device_get_info(chosen, &info);
        printf("selected: %ld: %s\n", selected, info.name);
    } else {
        printf("selected: none (%s: %s)\n", sgrt_status_name(status), sgrt_last_error());
    }
    if (selected < 0 && count == 0 && !json)
        puts("sgrt sees no device: is an OpenCL driver (ICD) or the CUDA driver installed?");
    return selected >= 0 ? 0 : 1;
}
