/* fuzz_module.c — libFuzzer harness for what sgrt reads when it loads a
 * module: the build log it maps back to .sgc lines through the module
 * source's #line directives (sgrt_map_log), and the on-disk cache entries
 * it loads instead of building (sgrt_cache_load), which may be truncated,
 * corrupt or written by someone else.
 *
 * Input layout: SOURCE '\0' LOG '\0' ENTRY (missing parts are empty).
 *  1. sgrt_map_log(SOURCE, LOG) must succeed and keep LOG's line count.
 *  2. ENTRY written verbatim as a cache file must load or be refused, with
 *     no crash; a loaded entry has a non-empty binary.
 *  3. sgrt_cache_store(LOG, ENTRY) then sgrt_cache_load must give back the
 *     same log and binary bytes.
 * The cache lives in a fresh temporary directory (SGRT_CACHE_DIR). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgrt_internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char cache_dir[] = "/tmp/sgrt-fuzz-XXXXXX";

/* The cache holds at most the two entries below; remove them and the
 * directory at exit. */
static void remove_cache(void)
{
    DIR *dir = opendir(cache_dir);
    if (dir) {
        char path[512];
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
            unlink(path);
        }
        closedir(dir);
    }
    rmdir(cache_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (!mkdtemp(cache_dir))
        abort();
    atexit(remove_cache);
    setenv("SGRT_CACHE_DIR", cache_dir, 1);
    unsetenv("SGRT_CACHE");
    return 0;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The next NUL-terminated part of the input, copied; advances *pos. */
static char *take_part(const uint8_t *data, size_t size, size_t *pos)
{
    const uint8_t *start = data + *pos;
    const uint8_t *nul = memchr(start, 0, size - *pos);
    size_t len = nul ? (size_t)(nul - start) : size - *pos;
    char *part = malloc(len + 1);
    memcpy(part, start, len);
    part[len] = '\0';
    *pos += len + (nul ? 1 : 0);
    return part;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    char *source = take_part(data, size, &pos);
    char *log = take_part(data, size, &pos);
    const uint8_t *entry = data + pos;
    size_t entry_size = size - pos;

    char *mapped = sgrt_map_log(source, log);
    if (!mapped || count_lines(mapped) != count_lines(log))
        abort();
    free(mapped);

    SgrtCacheKey raw_key = {0x1234, 0x5678}, round_key = {0x9abc, 0xdef0};
    char path[512];
    snprintf(path, sizeof path, "%s/%016llx%016llx.bin", cache_dir,
             (unsigned long long)raw_key.hi, (unsigned long long)raw_key.lo);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(entry, 1, entry_size, f) != entry_size || fclose(f) != 0)
        abort();
    char *got_log = NULL;
    unsigned char *got_bin = NULL;
    size_t got_size = 0;
    if (sgrt_cache_load(raw_key, &got_log, &got_bin, &got_size)) {
        if (got_size == 0 || !got_log || !got_bin)
            abort();
        free(got_log);
        free(got_bin);
    }

    if (entry_size > 0) {
        sgrt_cache_store(round_key, log, entry, entry_size);
        got_log = NULL, got_bin = NULL, got_size = 0;
        if (!sgrt_cache_load(round_key, &got_log, &got_bin, &got_size) ||
            strcmp(got_log, log) != 0 || got_size != entry_size ||
            memcmp(got_bin, entry, entry_size) != 0)
            abort();
        free(got_log);
        free(got_bin);
    }
    free(source);
    free(log);
    return 0;
}
