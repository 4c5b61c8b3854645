/* nvrtcbuild.c — compile-checks a CUDA C file with NVRTC, as sgrt and
 * `sgcc --verify` compile sgcc's output: no include paths, so the file must
 * be self-contained.  Prints the program log; exit 1 when it did not compile.
 *
 *   nvrtcbuild [-D NAME[=VAL]]... [--arch=sm_XX] file.cu      (default sm_90)
 *
 * Exit: 0 compiled, 1 compile errors, 2 usage or I/O. */
#include <nvrtc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

int main(int argc, char **argv)
{
    const char *options[64];
    int count = 0;
    const char *path = NULL, *arch = "--gpu-architecture=sm_90";
    char *joined[64];
    int joined_count = 0;
    for (int i = 1; i < argc && count < 60; i++) {
        if (strcmp(argv[i], "-D") == 0 && i + 1 < argc) {
            char *opt = malloc(strlen(argv[i + 1]) + 3);
            sprintf(opt, "-D%s", argv[++i]);
            options[count++] = joined[joined_count++] = opt;
        } else if (strncmp(argv[i], "-D", 2) == 0) {
            options[count++] = argv[i];
        } else if (strncmp(argv[i], "--arch=", 7) == 0) {
            char *opt = malloc(strlen(argv[i]) + 32);
            sprintf(opt, "--gpu-architecture=%s", argv[i] + 7);
            arch = joined[joined_count++] = opt;
        } else if (!path) {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: nvrtcbuild [-D NAME[=VAL]]... [--arch=sm_XX] file.cu\n");
        return 2;
    }
    options[count++] = arch;
    char *src = read_file(path);
    if (!src) {
        perror(path);
        return 2;
    }
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, src, path, 0, NULL, NULL) != NVRTC_SUCCESS) {
        fprintf(stderr, "nvrtcbuild: nvrtcCreateProgram failed\n");
        return 2;
    }
    nvrtcResult result = nvrtcCompileProgram(prog, count, options);
    size_t size = 0;
    nvrtcGetProgramLogSize(prog, &size);
    char *log = malloc(size + 1);
    nvrtcGetProgramLog(prog, log);
    log[size] = '\0';
    printf("== NVRTC %s: %s\n", path, result == NVRTC_SUCCESS ? "ok" : nvrtcGetErrorString(result));
    if (strspn(log, " \n\r\t") < strlen(log))
        printf("%s\n", log);
    free(log);
    nvrtcDestroyProgram(&prog);
    free(src);
    for (int i = 0; i < joined_count; i++)
        free(joined[i]);
    return result == NVRTC_SUCCESS ? 0 : 1;
}
