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
 * concurrent writers of the same key are harmless.  A writer killed between
 * its write and its rename leaves "<key>.bin.tmp.<pid>.<n>": the first store
 * of a process into a directory removes such files whose writer is gone
 * (and older than a minute) or that are older than an hour.  Entries are
 * read only when they are regular files of at most 1 GiB.
 *
 * Location: $SGRT_CACHE_DIR, else $XDG_CACHE_HOME/sgrt, else ~/.cache/sgrt.
 * SGRT_CACHE=0 disables the cache. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sgrt_internal.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define SEED_HI 0x9e3779b97f4a7c15ull
#define HASH_MUL 0xff51afd7ed558ccdull

/* The largest entry read back (docs/RUNTIME.md "Binary cache"): a device
 * binary is a few MiB at most; a larger file there is not one of ours. */
#define CACHE_ENTRY_MAX ((size_t)1 << 30)

/* Stale temporaries (sweep_temporaries): a writer that is gone and the file
 * older than this many seconds, or any temporary older than an hour. */
enum { TEMP_DEAD_WRITER_AGE = 60, TEMP_MAX_AGE = 3600 };

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

/* The whole entry file; NULL when it is absent, not a regular file (a FIFO
 * put there must not block the load), larger than CACHE_ENTRY_MAX or
 * unreadable: each is a miss. */
static unsigned char *read_file(const char *path, size_t *size)
{
    unsigned char *data = NULL;
    return sgrt_read_regular_file(path, CACHE_ENTRY_MAX, &data, size) == SGRT_READ_OK ? data
                                                                                      : NULL;
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

/* A temporary of sgrt_cache_store, "<key>.bin.tmp.<pid>.<n>": *pid gets
 * the process that wrote it. */
static bool parse_temporary(const char *name, long *pid)
{
    const char *tag = strstr(name, ".bin.tmp.");
    if (!tag)
        return false;
    const char *digits = tag + strlen(".bin.tmp.");
    char *end;
    long p = strtol(digits, &end, 10);
    if (end == digits || *end != '.' || p <= 0)
        return false;
    *pid = p;
    return true;
}

/* No such process on this host.  A process of another PID namespace
 * sharing the directory looks gone too: the age bound keeps its file while
 * it is being written. */
static bool writer_gone(long pid)
{
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the temporaries a writer killed between its write and its rename
 * left behind (they would stay forever: nothing else deletes them). */
static void sweep_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    int fd = dirfd(d);
    if (fd < 0) {
        closedir(d);
        return;
    }
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long pid;
        struct stat st;
        if (!parse_temporary(e->d_name, &pid) ||
            fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        double age = difftime(now, st.st_mtime);
        if (age > TEMP_MAX_AGE || (age > TEMP_DEAD_WRITER_AGE && writer_gone(pid)))
            unlinkat(fd, e->d_name, 0);
    }
    closedir(d);
}

/* Once per process and cache directory, before the first store there. */
static void sweep_once(const char *dir)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char swept[4096];
    pthread_mutex_lock(&lock);
    if (strcmp(swept, dir) != 0) {
        snprintf(swept, sizeof swept, "%s", dir);
        sweep_temporaries(dir);
    }
    pthread_mutex_unlock(&lock);
}

void sgrt_cache_store(SgrtCacheKey key, const char *log, const unsigned char *binary,
                      size_t binary_size)
{
    static atomic_uint counter;
    char dir[4096], path[4200], tmp[4300];
    if (!binary || binary_size == 0 || !sgrt_cache_dir(dir, sizeof dir) || !make_dirs(dir) ||
        !entry_path(key, path, sizeof path))
        return;
    sweep_once(dir);
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
