/* test_abi.c — the ABI rules of sgrt.h (docs/RUNTIME.md "ABI and names"):
 * sgrt_device_info is versioned by size (a host built against an older,
 * shorter struct gets exactly its prefix; struct_size says how much was
 * filled), and the sgrt 0.1 getter names still answer as their
 * sgrt_<object>_get_<what> successors.  Built with SGRT_WARN_DEPRECATED
 * off (the default), as existing hosts are.  Plain TAP, no device work
 * beyond selection. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sgrt.h"

static int tests, failures;

static void check(const char *what, bool ok)
{
    printf("%s %d - %s\n", ok ? "ok" : "not ok", ++tests, what);
    failures += !ok;
}

int main(void)
{
    sgrt_device *dev = NULL;
    if (sgrt_device_select(NULL, &dev) != SGRT_SUCCESS) {
        printf("1..0 # SKIP no device\n");
        return 77;
    }
    sgrt_device_info full, prefix;
    memset(&full, 0xAB, sizeof full);
    check("get_info", sgrt_device_get_info(dev, &full) == SGRT_SUCCESS);
    check("struct_size is the whole struct", full.struct_size == sizeof full);
    check("the name is filled", full.name[0] != '\0');

    /* An older host whose struct ended before `vendor`. */
    size_t old_size = offsetof(sgrt_device_info, vendor);
    memset(&prefix, 0xCD, sizeof prefix);
    check("sized get_info", sgrt_device_get_info_sized(dev, &prefix, old_size) == SGRT_SUCCESS);
    check("struct_size is the caller's size", prefix.struct_size == old_size);
    check("the prefix is filled", strcmp(prefix.name, full.name) == 0 &&
                                      prefix.backend == full.backend);
    const unsigned char *after = (const unsigned char *)&prefix + old_size;
    bool untouched = true;
    for (size_t i = 0; i < sizeof prefix - old_size; i++)
        untouched = untouched && after[i] == 0xCD;
    check("nothing written past the caller's size", untouched);
    check("too small for struct_size is INVALID_ARGUMENT",
          sgrt_device_get_info_sized(dev, &prefix, 2) == SGRT_ERROR_INVALID_ARGUMENT);
    check("the function behind the macro", (sgrt_device_get_info)(dev, &prefix) == SGRT_SUCCESS &&
                                               prefix.struct_size == sizeof prefix);

    size_t count_new = 0, count_old = 1000;
    check("device_get_count", sgrt_device_get_count(&count_new) == SGRT_SUCCESS);
    check("deprecated device_count agrees",
          sgrt_device_count(&count_old) == SGRT_SUCCESS && count_old == count_new);
    sgrt_context *ctx = NULL;
    sgrt_device *a = NULL, *b = NULL;
    sgrt_buffer *buf = NULL;
    size_t size = 0;
    check("context", sgrt_context_create(dev, &ctx) == SGRT_SUCCESS);
    check("context_get_device and context_device agree",
          sgrt_context_get_device(ctx, &a) == SGRT_SUCCESS &&
              sgrt_context_device(ctx, &b) == SGRT_SUCCESS && a == dev && b == dev);
    check("buffer", sgrt_buffer_create(ctx, 48, &buf) == SGRT_SUCCESS);
    check("buffer_get_size and buffer_size agree",
          sgrt_buffer_get_size(buf, &size) == SGRT_SUCCESS && size == 48 &&
              sgrt_buffer_size(buf) == 48);
    check("buffer_get_size(NULL) is INVALID_ARGUMENT",
          sgrt_buffer_get_size(NULL, &size) == SGRT_ERROR_INVALID_ARGUMENT);
    sgrt_buffer_free(buf);
    sgrt_context_free(ctx);
    printf("1..%d\n", tests);
    return failures ? 1 : 0;
}
