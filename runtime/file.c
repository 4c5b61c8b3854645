/* file.c — reading files that sgrt did not make itself: a source given to
 * sgrt_program_create_from_file, a cache entry, a file a cached translation
 * #included.  Any of them may be a FIFO (fopen would block until a writer
 * comes), a device (/dev/zero never ends) or huge, so files are opened
 * with O_NONBLOCK, kept only when fstat says regular, and read up to a
 * bound. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgrt_internal.h"

/* A descriptor of `path` when it is a regular file, else -1 with *result
 * saying why (errno holds the open's error for SGRT_READ_CANNOT_OPEN). */
static int open_regular(const char *path, SgrtReadResult *result)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *result = SGRT_READ_CANNOT_OPEN;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *result = SGRT_READ_NOT_REGULAR;
        close(fd);
        return -1;
    }
    *result = SGRT_READ_OK;
    return fd;
}

/* read() until the end, at most limit + 1 bytes into a growing buffer (the
 * size fstat gave is only a hint: files under /proc say 0). */
static SgrtReadResult read_all(int fd, size_t limit, unsigned char **data, size_t *size)
{
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size <= limit
                     ? (size_t)st.st_size + 1
                     : 4096;
    size_t len = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (len == cap) {
            size_t grown_cap = cap > limit / 2 ? limit + 1 : 2 * cap;
            unsigned char *grown = grown_cap > cap ? realloc(buf, grown_cap) : NULL;
            if (!grown)
                break;
            buf = grown;
            cap = grown_cap;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(buf);
            return SGRT_READ_FAILED;
        }
        if (n == 0) {
            *data = buf;
            *size = len;
            return SGRT_READ_OK;
        }
        len += (size_t)n;
        if (len > limit) {
            free(buf);
            return SGRT_READ_TOO_LARGE;
        }
    }
    free(buf);
    return SGRT_READ_OUT_OF_MEMORY;
}

SgrtReadResult sgrt_read_regular_file(const char *path, size_t limit, unsigned char **data,
                                      size_t *size)
{
    SgrtReadResult result;
    int fd = open_regular(path, &result);
    if (fd < 0)
        return result;
    int saved;
    result = read_all(fd, limit, data, size);
    saved = errno;
    close(fd);
    errno = saved;
    return result;
}

/* Fills buf (cap bytes) unless the file ends first: the bytes read, or -1. */
static ssize_t read_block(int fd, unsigned char *buf, size_t cap)
{
    size_t len = 0;
    while (len < cap) {
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        len += (size_t)n;
    }
    return (ssize_t)len;
}

bool sgrt_hash_regular_file(const char *path, uint64_t *hash)
{
    SgrtReadResult result;
    int fd = open_regular(path, &result);
    if (fd < 0)
        return false;
    /* Whole blocks, so that the hash does not depend on how read() splits. */
    unsigned char buf[65536];
    uint64_t h = 0;
    ssize_t n;
    while ((n = read_block(fd, buf, sizeof buf)) > 0) {
        h = sgrt_hash64(buf, (size_t)n, h);
        if ((size_t)n < sizeof buf)
            break;
    }
    close(fd);
    *hash = h;
    return n >= 0;
}

bool sgrt_is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
