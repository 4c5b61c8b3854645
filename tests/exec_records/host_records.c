/* host_records.c — runs list_walk.cl (sgcc's output) on an OpenCL device:
 * builds NODES_PER_ITEM-node linked lists per work-item as indices (a
 * shuffled order, each list starting at a different place of it), lets the
 * kernel link them into pointers and walk them, and compares each
 * work-item's sum and length with a walk of the same indices here.
 * usage: host_records FILE.cl [PLATFORM]  (PLATFORM: a part of the platform's
 * name, e.g. Portable or Intel; default the loader's first platform)
 * Exit 0 pass, 1 mismatch or build failure, 2 OpenCL error, 77 no device. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODES_PER_ITEM 8 /* list_walk.sgc's NODES_PER_ITEM */
#define ITEMS 64
#define NODES (ITEMS * NODES_PER_ITEM)

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

#define CHECK(call)                                                     \
    do {                                                                \
        cl_int err_ = (call);                                           \
        if (err_ != CL_SUCCESS) {                                       \
            fprintf(stderr, "%s failed: %d\n", #call, err_);             \
            return 2;                                                   \
        }                                                               \
    } while (0)

/* The lists, as indices: links[i] is the node after i (-1: the end). */
typedef struct Lists {
    int links[NODES], heads[ITEMS], values[NODES], weights[ITEMS];
    int sums[ITEMS], lengths[ITEMS]; /* expected */
} Lists;

static void make_lists(Lists *l)
{
    unsigned seed = 12345u;
    for (int w = 0; w < ITEMS; w++) {
        int order[NODES_PER_ITEM];
        for (int k = 0; k < NODES_PER_ITEM; k++)
            order[k] = w * NODES_PER_ITEM + k;
        for (int k = NODES_PER_ITEM - 1; k > 0; k--) { /* Fisher-Yates */
            seed = seed * 1103515245u + 12345u;
            int j = (int)((seed >> 16) % (unsigned)(k + 1)), t = order[k];
            order[k] = order[j];
            order[j] = t;
        }
        for (int k = 0; k < NODES_PER_ITEM; k++)
            l->links[order[k]] = k + 1 < NODES_PER_ITEM ? order[k + 1] : -1;
        l->heads[w] = order[w % NODES_PER_ITEM];
        l->weights[w] = 1000 * w + 7;
    }
    for (int i = 0; i < NODES; i++)
        l->values[i] = (i * 37) % 101 - 50;
    for (int w = 0; w < ITEMS; w++) {
        l->sums[w] = l->weights[w];
        l->lengths[w] = 0;
        for (int i = l->heads[w]; i >= 0; i = l->links[i]) {
            l->sums[w] += l->values[i];
            l->lengths[w]++;
        }
    }
}

/* Records of a pointer and an int, as the device lays them out: the int
 * after the pointer, the size rounded up to the pointer's alignment. */
static size_t record_size(size_t ptr) { return 2 * ptr; }

static cl_mem records_with_ints(cl_context context, size_t ptr, const int *ints, int count,
                                cl_int *err)
{
    size_t size = record_size(ptr) * (size_t)count;
    unsigned char *bytes = calloc(1, size);
    for (int i = 0; i < count; i++)
        memcpy(bytes + record_size(ptr) * (size_t)i + ptr, &ints[i], sizeof ints[i]);
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, bytes, err);
    free(bytes);
    return buf;
}

static int run(cl_context context, cl_command_queue queue, cl_kernel kernel, size_t ptr,
               const Lists *l, int *sums, int *lengths)
{
    cl_int err;
    cl_mem bufs[7];
    bufs[0] = records_with_ints(context, ptr, l->values, NODES, &err);
    CHECK(err);
    bufs[1] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof l->links,
                             (void *)l->links, &err);
    CHECK(err);
    bufs[2] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof l->heads,
                             (void *)l->heads, &err);
    CHECK(err);
    bufs[3] = clCreateBuffer(context, CL_MEM_READ_WRITE, ptr * ITEMS, NULL, &err);
    CHECK(err);
    bufs[4] = records_with_ints(context, ptr, l->weights, ITEMS, &err);
    CHECK(err);
    bufs[5] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, ITEMS * sizeof(int), NULL, &err);
    CHECK(err);
    bufs[6] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, ITEMS * sizeof(int), NULL, &err);
    CHECK(err);
    for (cl_uint i = 0; i < 7; i++)
        CHECK(clSetKernelArg(kernel, i, sizeof bufs[i], &bufs[i]));
    size_t global = ITEMS;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, bufs[5], CL_TRUE, 0, ITEMS * sizeof(int), sums, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, bufs[6], CL_TRUE, 0, ITEMS * sizeof(int), lengths, 0, NULL, NULL));
    for (int i = 0; i < 7; i++)
        clReleaseMemObject(bufs[i]);
    return 0;
}

static bool find_platform(const char *part, cl_platform_id *found)
{
    cl_platform_id platforms[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS)
        return false;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, part)) {
            *found = platforms[i];
            return true;
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: host_records FILE.cl\n", stderr);
        return 2;
    }
    char *source = read_file(argv[1]);
    if (!source) {
        perror(argv[1]);
        return 2;
    }
    cl_platform_id platform;
    cl_device_id device;
    if (!find_platform(argc > 2 ? argv[2] : "", &platform) ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        printf("no OpenCL device%s%s: skipped\n", argc > 2 ? " on a platform named " : "",
               argc > 2 ? argv[2] : "");
        return 77;
    }
    char name[256];
    cl_uint bits = 0;
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(device, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
    cl_int err;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    const char *sources[] = {source};
    cl_program program = clCreateProgramWithSource(context, 1, sources, NULL, &err);
    CHECK(err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        static char log[1 << 16];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel kernel = clCreateKernel(program, "walk", &err);
    CHECK(err);
    static Lists lists;
    make_lists(&lists);
    int sums[ITEMS], lengths[ITEMS];
    int status = run(context, queue, kernel, bits / 8, &lists, sums, lengths);
    if (status)
        return status;
    int bad = 0;
    for (int w = 0; w < ITEMS; w++) {
        if (sums[w] == lists.sums[w] && lengths[w] == lists.lengths[w])
            continue;
        if (bad++ < 10)
            fprintf(stderr, "work-item %d: sum %d length %d, expected %d %d\n", w, sums[w],
                    lengths[w], lists.sums[w], lists.lengths[w]);
    }
    printf("%s: %d of %d lists wrong\n", name, bad, ITEMS);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    free(source);
    return bad ? 1 : 0;
}
