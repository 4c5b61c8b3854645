/* control.c — runs the kernels of race_control.sgc once each on the device
 * SGRT_DEVICE selects (scripts/oclgrind.sh: the Oclgrind simulator), so
 * that the script can check Oclgrind reports their bugs.  Exit 0 when both
 * launches were made; what they compute is not checked. */
#include <stdio.h>

#include "race_control.h"

int main(void)
{
    sgrt_device *device = NULL;
    sgrt_context *context = NULL;
    sgrt_program *program = NULL;
    sgrt_buffer *out = NULL;
    sgrt_launch_dims dims = {1, {16, 1, 1}, {16, 1, 1}};
    sgrt_status s = sgrt_device_select(NULL, &device);
    if (!s)
        s = sgrt_context_create(device, &context);
    if (!s)
        s = sgrt_program_create(context, &race_control_module, &program);
    if (!s)
        s = sgrt_program_build(program, NULL);
    if (!s)
        s = sgrt_buffer_create(context, 16 * sizeof(int), &out);
    if (!s)
        s = race_control_launch_racy(program, &dims, out, NULL);
    if (!s)
        s = race_control_launch_divergent(program, &dims, out, NULL);
    if (!s)
        s = sgrt_finish(context);
    if (s)
        fprintf(stderr, "control: %s: %s\n", sgrt_status_name(s), sgrt_last_error());
    sgrt_buffer_free(out);
    sgrt_program_free(program);
    sgrt_context_free(context);
    return s ? 1 : 0;
}
