/* cache.c — the on-disk cache of built device binaries.
 *
 * Key: a 128-bit hash (two independently seeded 64-bit passes, 8 bytes per
 * step, with a splitmix finaliser) over the backend, source text, compiler
 * options (which hold every spec-constant value), device name, driver
 * version and platform.
 * Entry: one file <key>.bin holding a small header, the build log and the
 * binary; the header's checksum detects truncated or corrupt files, which
 * are then ignored and rebuilt.  Writes go to a unique temporary file that
 * is renamed into place, so readers never see a partial entry and
 * concurrent writers of the same key are harmless.
 *
 * Location: $SGRT_CACHE_DIR, else $XDG_CACHE_HOME/sgrt, else ~/.cache/sgrt.
 * SGRT_CACHE=0 disables the cache. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgrt_internal.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define SEED_HI 0x9e3779b97f4a7c15ull
#define HASH_MUL 0xff51afd7ed558ccdull

static const char cache_magic[8] = {'S', 'G', 'R', 'T', 'C', 'A', 'C', '2'};

typedef struct CacheHeader {
    char magic[8];
    uint64_t log_size;
    uint64_t binary_size;
    uint64_t checksum;   /* sgrt_hash64 of log then binary */
} CacheHeader;

/* Eight bytes per step (the tail one by one): a cached build hashes its
 * source for the key and its whole binary for the checksum, and the byte-wise
 * FNV-1a this replaces took most of sgrt's share of a cached build
 * (bench/build_cache.c).  Multiply by an odd constant, then fold the high
 * half down so that every input bit reaches every state bit. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (; size >= 8; p += 8, size -= 8) {
        uint64_t word;
        memcpy(&word, p, sizeof word);
        h = (h ^ word) * HASH_MUL;
        h ^= h >> 29;
    }
    for (; size > 0; p++, size--) {
        h = (h ^ *p) * HASH_MUL;
        h ^= h >> 29;
    }
    return h;
}

/* splitmix64's finaliser: the steps alone mix their last bytes poorly. */
static uint64_t mix(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

uint64_t sgrt_hash64(const void *data, size_t size, uint64_t seed)
{
    return mix(hash_bytes(FNV_OFFSET ^ seed, data, size));
}

SgrtCacheKey sgrt_cache_key(const char *const *parts, size_t count)
{
    uint64_t lo = FNV_OFFSET, hi = FNV_OFFSET ^ SEED_HI;
    for (size_t i = 0; i < count; i++) {
        const char *part = parts[i] ? parts[i] : "";
        uint64_t len = strlen(part);
        lo = hash_bytes(hash_bytes(lo, &len, sizeof len), part, len);
        hi = hash_bytes(hash_bytes(hi, &len, sizeof len), part, len);
    }
    return (SgrtCacheKey){mix(lo), mix(hi ^ SEED_HI)};
}

/* mkdir -p; existing directories are fine. */
static bool make_dirs(const char *path)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, path, len + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

bool sgrt_cache_dir(char *buf, size_t cap)
{
    const char *enabled = getenv("SGRT_CACHE");
    if (enabled && strcmp(enabled, "0") == 0)
        return false;
    const char *dir = getenv("SGRT_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (dir && *dir)
        n = snprintf(buf, cap, "%s", dir);
    else if (xdg && *xdg)
        n = snprintf(buf, cap, "%s/sgrt", xdg);
    else if (home && *home)
        n = snprintf(buf, cap, "%s/.cache/sgrt", home);
    else
        return false;
    return n > 0 && (size_t)n < cap;
}

static bool entry_path(SgrtCacheKey key, char *buf, size_t cap)
{
    char dir[4096];
    if (!sgrt_cache_dir(dir, sizeof dir))
        return false;
    int n = snprintf(buf, cap, "%s/%016llx%016llx.bin", dir, (unsigned long long)key.hi,
                     (unsigned long long)key.lo);
    return n > 0 && (size_t)n < cap;
}

static uint64_t entry_checksum(const char *log, size_t log_size, const unsigned char *bin,
                               size_t bin_size)
{
    return mix(hash_bytes(hash_bytes(FNV_OFFSET, log, log_size), bin, bin_size));
}

/* Reads the whole file; NULL on any error. */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *data = NULL;
    long len;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)len + 1);
        if (data && fread(data, 1, (size_t)len, f) != (size_t)len) {
            free(data);
            data = NULL;
        }
        *size = (size_t)len;
    }
    fclose(f);
    return data;
}

bool sgrt_cache_load(SgrtCacheKey key, char **log, unsigned char **binary, size_t *binary_size)
{
    char path[4200];
    size_t size = 0;
    unsigned char *data;
    if (!entry_path(key, path, sizeof path) || !(data = read_file(path, &size)))
        return false;
    CacheHeader h = {0};
    bool ok = size >= sizeof h;
    if (ok) {
        memcpy(&h, data, sizeof h);
        ok = memcmp(h.magic, cache_magic, sizeof cache_magic) == 0 && h.binary_size > 0 &&
             h.log_size <= size && h.binary_size <= size &&
             sizeof h + h.log_size + h.binary_size == size;
    }
    const char *log_src = (const char *)data + sizeof h;
    const unsigned char *bin_src = data + sizeof h + (ok ? h.log_size : 0);
    ok = ok && entry_checksum(log_src, h.log_size, bin_src, h.binary_size) == h.checksum;
    if (ok) {
        /* Both sizes add up to the size of the file read above.  The analyzer
         * takes only a constant bound for one on a value read from a file. */
        *log = malloc(h.log_size + 1);       /* NOLINT(clang-analyzer-optin.taint.TaintedAlloc) */
        *binary = malloc(h.binary_size);     /* NOLINT(clang-analyzer-optin.taint.TaintedAlloc) */
        if (*log && *binary) {
            memcpy(*log, log_src, h.log_size);
            (*log)[h.log_size] = '\0';
            memcpy(*binary, bin_src, h.binary_size);
            *binary_size = h.binary_size;
        } else {
            free(*log);
            free(*binary);
            ok = false;
        }
    }
    free(data);
    return ok;
}

void sgrt_cache_store(SgrtCacheKey key, const char *log, const unsigned char *binary,
                      size_t binary_size)
{
    static atomic_uint counter;
    char dir[4096], path[4200], tmp[4300];
    if (!binary || binary_size == 0 || !sgrt_cache_dir(dir, sizeof dir) || !make_dirs(dir) ||
        !entry_path(key, path, sizeof path))
        return;
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(),
             atomic_fetch_add(&counter, 1));
    CacheHeader h;
    memcpy(h.magic, cache_magic, sizeof cache_magic);
    h.log_size = log ? strlen(log) : 0;
    h.binary_size = binary_size;
    h.checksum = entry_checksum(log ? log : "", h.log_size, binary, binary_size);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    bool ok = fwrite(&h, sizeof h, 1, f) == 1 &&
              fwrite(log ? log : "", 1, h.log_size, f) == h.log_size &&
              fwrite(binary, 1, binary_size, f) == binary_size;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}
