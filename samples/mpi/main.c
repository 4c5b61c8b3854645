/* mpi_saxpy — the SAXPY + checksum job of samples/multidevice under MPI:
 * each rank makes only its own share of the inputs, runs it through sgrt
 * on its device, checks its elements against the host, and the ranks
 * combine the checksums with MPI_Reduce (rank 0 compares the total with a
 * host reference) and the error counts with MPI_Allreduce (so every rank
 * exits with the same status).
 *
 *   mpirun -np R mpi_saxpy [-n ELEMENTS] [SELECTOR...]
 *
 * Rank r's device: SELECTOR number r % (number of selectors) when some are
 * given, else $SGRT_DEVICE when set (every rank the same), else sgrt's
 * device r % (number of devices).  Exit status 0 when correct, 1 when a
 * result is wrong, 2 on an error.
 *
 * With CUDA devices and a CUDA-aware MPI a rank could pass device memory
 * to MPI directly: docs/RUNTIME.md "Several devices and MPI". */
#include <mpi.h>
#include <string.h>

#include "saxpy_share.h"

/* The device this rank runs on (see the comment above). */
static sgrt_device *rank_device(int rank, int selector_count, char **selectors)
{
    sgrt_device *device = NULL;
    if (selector_count > 0) {
        SAMPLE_CHECK(sgrt_device_select(selectors[rank % selector_count], &device));
    } else if (getenv("SGRT_DEVICE")) {
        SAMPLE_CHECK(sgrt_device_select(NULL, &device));
    } else {
        size_t count = 0;
        SAMPLE_CHECK(sgrt_device_get_count(&count));
        if (count == 0) {
            fprintf(stderr, "rank %d: no device\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        SAMPLE_CHECK(sgrt_device_get((size_t)rank % count, &device));
    }
    return device;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);

    uint64_t n = 1u << 22;
    int first_selector = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        n = strtoull(argv[2], NULL, 0);
        first_selector = 3;
    }
    if (n == 0 || n > UINT32_MAX || (first_selector < argc && argv[first_selector][0] == '-')) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np R %s [-n ELEMENTS] [SELECTOR...]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }

    sgrt_device *device = rank_device(rank, argc - first_selector, argv + first_selector);
    uint64_t first;
    size_t count;
    job_part(n, (size_t)ranks, (size_t)rank, &first, &count);
    const int32_t a = 3;
    share s;
    share_open(&s, device, first, count);
    share_start(&s, a);
    int64_t partial = share_finish(&s);
    uint64_t wrong = share_count_wrong(&s, first, a);

    sgrt_device_info info;
    SAMPLE_CHECK(sgrt_device_get_info(device, &info));
    printf("rank %d/%d: %s (%s): elements [%llu, %llu), kernel %.3f ms, %llu wrong\n", rank,
           ranks, info.name, info.platform, (unsigned long long)first,
           (unsigned long long)(first + count), share_kernel_ms(&s), (unsigned long long)wrong);
    fflush(stdout);

    int64_t checksum = 0;
    uint64_t wrong_total = 0;
    MPI_Reduce(&partial, &checksum, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int64_t reference = job_reference_sum(0, n, a);
        if (checksum != reference)
            wrong++; /* counted once, on rank 0 */
        printf("mpi_saxpy: n = %llu over %d rank(s): checksum %lld (host %lld)\n",
               (unsigned long long)n, ranks, (long long)checksum, (long long)reference);
    }
    MPI_Allreduce(&wrong, &wrong_total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_saxpy: %s (%llu wrong)\n", wrong_total ? "FAILED" : "correct",
               (unsigned long long)wrong_total);

    share_close(&s);
    MPI_Finalize();
    return wrong_total ? 1 : 0;
}
