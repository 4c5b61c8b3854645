/* replay.c — runs a libFuzzer harness over files without libFuzzer, so
 * that every crasher the fuzzers found stays a regression test of the
 * ordinary build (meson test --suite fuzz) and of the sanitizer build.
 *
 *   replay FILE|DIR...    each file (each file of each directory, sorted)
 *                         is one input; exit 0 when none crashed. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, n;
    do {
        if (size == cap && !(data = realloc(data, cap = cap ? cap * 2 : 4096)))
            abort();
        n = fread(data + size, 1, cap - size, f);
        size += n;
    } while (n > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int failed = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= replay_file(argv[i]);
            count++;
            continue;
        }
        struct dirent **list;
        int n = scandir(argv[i], &list, NULL, NULL);
        if (n < 0) {
            perror(argv[i]);
            return 1;
        }
        char **names = malloc(sizeof(char *) * (size_t)(n ? n : 1));
        int m = 0;
        for (int j = 0; j < n; j++) {
            if (list[j]->d_name[0] != '.') {
                size_t len = strlen(argv[i]) + strlen(list[j]->d_name) + 2;
                names[m] = malloc(len);
                snprintf(names[m++], len, "%s/%s", argv[i], list[j]->d_name);
            }
            free(list[j]);
        }
        free(list);
        qsort(names, (size_t)m, sizeof *names, by_name);
        for (int j = 0; j < m; j++) {
            failed |= replay_file(names[j]);
            count++;
            free(names[j]);
        }
        free(names);
    }
    printf("replayed %d inputs\n", count);
    return failed;
}
