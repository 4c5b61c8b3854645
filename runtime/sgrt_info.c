/* sgrt_info.c — the `sgrt-info` tool: lists the devices sgrt sees, their
 * capabilities, and which one SGRT_DEVICE (or the default rule) selects. */
#include <stdio.h>

#include "sgrt.h"

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

static void print_device(size_t index, const sgrt_device_info *in)
{
    static const char *const kinds[] = {"gpu", "cpu", "accelerator", "other"};
    printf("%zu: %s:%u  %s  [%s]\n", index, in->backend == SGRT_BACKEND_CUDA ? "cuda" : "opencl",
           in->backend_index, in->name, kinds[in->kind]);
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

int main(void)
{
    size_t count = 0;
    sgrt_device *dev, *chosen = NULL;
    sgrt_device_info info;
    sgrt_device_count(&count);
    for (size_t i = 0; i < count; i++)
        if (sgrt_device_get(i, &dev) == SGRT_SUCCESS && sgrt_device_get_info(dev, &info) == SGRT_SUCCESS)
            print_device(i, &info);
    sgrt_status status = sgrt_device_select(NULL, &chosen);
    if (status != SGRT_SUCCESS) {
        printf("selected: none (%s: %s)\n", sgrt_status_name(status), sgrt_last_error());
        return 1;
    }
    sgrt_device_get_info(chosen, &info);
    printf("selected: %s\n", info.name);
    return 0;
}
