/* clprobe.c — what an OpenCL device says about sub-groups: its version,
 * its sub-group extensions, and the sub-group size its compiler picks for a
 * small kernel at several work-group sizes.  A diagnostic aid for the GPU
 * batch (PoCL 5 there is the khr tier with ballot + shuffle only), not a test.
 *
 *   clprobe [PLATFORM-SUBSTRING]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SUB_GROUP_SIZE_FOR_NDRANGE 0x2033
typedef cl_int (*GetKernelSubGroupInfo)(cl_kernel, cl_device_id, cl_uint, size_t, const void *,
                                        size_t, void *, size_t *);

static const char *kernel_source =
    "__kernel void probe(__global uint *out) { out[get_global_id(0)] = 1; }\n";

static void probe_sub_groups(cl_platform_id platform, cl_device_id device)
{
    GetKernelSubGroupInfo query = (GetKernelSubGroupInfo)clGetExtensionFunctionAddressForPlatform(
        platform, "clGetKernelSubGroupInfoKHR");
    if (!query)
        query = (GetKernelSubGroupInfo)clGetExtensionFunctionAddressForPlatform(
            platform, "clGetKernelSubGroupInfo");
    if (!query) {
        printf("  no clGetKernelSubGroupInfo(KHR)\n");
        return;
    }
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_program program = clCreateProgramWithSource(context, 1, &kernel_source, NULL, &err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        printf("  probe kernel did not build\n");
    } else {
        cl_kernel kernel = clCreateKernel(program, "probe", &err);
        static const size_t locals[] = {8, 37, 64, 128, 200, 300};
        for (size_t i = 0; i < sizeof locals / sizeof locals[0]; i++) {
            size_t size = 0;
            err = query(kernel, device, MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(size_t), &locals[i],
                        sizeof size, &size, NULL);
            printf("  local %3zu: sub-group size %zu (err %d)\n", locals[i], size, (int)err);
        }
        clReleaseKernel(kernel);
    }
    clReleaseProgram(program);
    clReleaseContext(context);
}

int main(int argc, char **argv)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    clGetPlatformIDs(16, platforms, &count);
    for (cl_uint p = 0; p < count; p++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (argc > 1 && !strstr(name, argv[1]))
            continue;
        cl_device_id devices[16];
        cl_uint ndev = 0;
        clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &ndev);
        for (cl_uint d = 0; d < ndev; d++) {
            char dev_name[256] = "", version[256] = "", *ext = NULL;
            size_t ext_size = 0;
            clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof dev_name, dev_name, NULL);
            clGetDeviceInfo(devices[d], CL_DEVICE_OPENCL_C_VERSION, sizeof version, version, NULL);
            clGetDeviceInfo(devices[d], CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size);
            ext = calloc(1, ext_size + 1);
            clGetDeviceInfo(devices[d], CL_DEVICE_EXTENSIONS, ext_size, ext, NULL);
            printf("%s / %s (%s)\n  sub-group extensions:", name, dev_name, version);
            for (char *w = strtok(ext, " "); w; w = strtok(NULL, " "))
                if (strstr(w, "subgroup"))
                    printf(" %s", w);
            printf("\n");
            free(ext);
            probe_sub_groups(platforms[p], devices[d]);
        }
    }
    return 0;
}
