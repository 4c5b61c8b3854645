/* verify.c — `sgcc --verify` (docs/CLI.md "--verify"): compile the emitted code with the
 * real device compilers and report what they reject at .sgc locations.
 *
 * OpenCL C goes through libclang on an unsaved in-memory file, twice: as OpenCL C 3.0 and as OpenCL C 1.2, with
 * every extension enabled so that each capability branch we emit is seen by
 * at least one pass.  libclang is loaded with dlopen on the first --verify:
 * linked, its loading and relocation cost every sgcc run 20 ms of CPU, more
 * than translating 5,000 lines.  CUDA C goes through NVRTC, loaded with
 * dlopen so that sgcc runs on machines without a CUDA toolkit (then a
 * warning, not an error).
 *
 * The emitted code carries #line directives, so clang's presumed locations
 * and NVRTC's "file.sgc(12): error: ..." already name .sgc lines.  Columns
 * in the emitted text say nothing about .sgc columns, so mapped problems are
 * reported at column 1 of the .sgc line.  Only errors are reported: a warning
 * about generated code is sgcc's business, not the user's. */
#include "driver/verify.h"
#include "base/mem.h"

#include "emit/emit_internal.h"

#ifndef SGCC_NO_LIBCLANG
#include <clang-c/Index.h>
#endif
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared: spec-constant dummies and reporting ------------------------- */

/* "SGC_SPEC_<id>=0" for each required spec constant: 0 converts to every
 * scalar type, and the emitted block casts it to the declared one. */
static char **spec_defines(const TranslationUnit *tu, int *count)
{
    char **defines = mem_zalloc((size_t)tu->spec_const_count + 1, sizeof *defines);
    *count = 0;
    for (int i = 0; i < tu->spec_const_count; i++) {
        const Symbol *sc = tu->spec_consts[i];
        if (!sc->spec_required)
            continue;
        char buf[64];
        snprintf(buf, sizeof buf, "SGC_SPEC_%u=0", (unsigned)sc->spec_id);
        defines[(*count)++] = mem_strdup(buf);
    }
    return defines;
}

static void free_strings(char **strings, int count)
{
    for (int i = 0; i < count; i++)
        free(strings[i]);
    free(strings);
}

static uint32_t find_source(const SourceManager *sm, const char *name)
{
    for (uint32_t id = 1; id < sm->count; id++)
        if (strcmp(sm->files[id]->name, name) == 0)
            return id;
    return 0;
}

/* Reports `message` at file:line, with the .sgc line and a caret when the
 * file is one we read, else as a bare file:line:1 (generated code). */
static void report_mapped(Diag *diag, const char *file, unsigned line, const char *message)
{
    uint32_t id = file ? find_source(diag->sources, file) : 0;
    const SourceFile *f = srcmgr_file(diag->sources, id);
    if (f && line >= 1 && line <= f->line_count) {
        SrcLoc loc = {id, f->line_starts[line - 1]};
        diag_error(diag, loc, "%s", message);
        return;
    }
    diag_report_at(diag, DIAG_ERROR, file ? file : "sgcc", line, line ? 1 : 0, message);
}

/* ---- OpenCL C through libclang ------------------------------------------ */

#ifdef SGCC_NO_LIBCLANG
/* Built without libclang's headers (meson found no libclang): the OpenCL
 * half of --verify reports that it cannot run. */
static void verify_opencl(const TranslationUnit *tu, const char *name, const EmitBuffer *code,
                          Diag *diag)
{
    (void)tu, (void)code;
    diag_report_at(diag, DIAG_ERROR, name, 0, 0,
                   "OpenCL C: --verify is not available: this sgcc was built without libclang "
                   "(install libclang-19-dev, or set -Dllvm_dir, and rebuild)");
}
#else

/* The libclang entry points we use, written once: X(name, return, params). */
#define LIBCLANG_FUNCTIONS(X)                                                              \
    X(clang_createIndex, CXIndex, (int, int))                                              \
    X(clang_disposeIndex, void, (CXIndex))                                                 \
    X(clang_parseTranslationUnit2, enum CXErrorCode,                                       \
      (CXIndex, const char *, const char *const *, int, struct CXUnsavedFile *, unsigned,  \
       unsigned, CXTranslationUnit *))                                                     \
    X(clang_disposeTranslationUnit, void, (CXTranslationUnit))                             \
    X(clang_getNumDiagnostics, unsigned, (CXTranslationUnit))                              \
    X(clang_getDiagnostic, CXDiagnostic, (CXTranslationUnit, unsigned))                    \
    X(clang_disposeDiagnostic, void, (CXDiagnostic))                                       \
    X(clang_getDiagnosticSeverity, enum CXDiagnosticSeverity, (CXDiagnostic))              \
    X(clang_getDiagnosticSpelling, CXString, (CXDiagnostic))                               \
    X(clang_getDiagnosticLocation, CXSourceLocation, (CXDiagnostic))                       \
    X(clang_getPresumedLocation, void, (CXSourceLocation, CXString *, unsigned *, unsigned *)) \
    X(clang_getCString, const char *, (CXString))                                          \
    X(clang_disposeString, void, (CXString))                                              \
    X(clang_getTranslationUnitCursor, CXCursor, (CXTranslationUnit))                       \
    X(clang_visitChildren, unsigned, (CXCursor, CXCursorVisitor, CXClientData))            \
    X(clang_getCursorKind, enum CXCursorKind, (CXCursor))                                  \
    X(clang_getCursorSpelling, CXString, (CXCursor))                                       \
    X(clang_getCursorLocation, CXSourceLocation, (CXCursor))

typedef struct Libclang {
    void *handle;
#define X(name, ret, params) ret(*name) params;
    LIBCLANG_FUNCTIONS(X)
#undef X
} Libclang;

#ifndef SGCC_LIBCLANG
#define SGCC_LIBCLANG "libclang.so"
#endif

/* The library the build found (meson passes its path), else the loader's
 * libclang.so.  NULL, with the reason in `why`, when neither loads. */
static const Libclang *libclang_open(char *why, size_t why_size)
{
    static Libclang lib;
    if (lib.handle)
        return &lib;
    const char *names[] = {SGCC_LIBCLANG, "libclang.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib.handle; i++)
        lib.handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) {
        snprintf(why, why_size, "%s", dlerror());
        return NULL;
    }
    bool ok = true;
#define X(name, ret, params) ok = ok && (*(void **)&lib.name = dlsym(lib.handle, #name));
    LIBCLANG_FUNCTIONS(X)
#undef X
    if (!ok) {
        snprintf(why, why_size, "%s lacks a libclang function sgcc uses", SGCC_LIBCLANG);
        dlclose(lib.handle);
        lib.handle = NULL;
        return NULL;
    }
    return &lib;
}

/* Passes, written once: the language version, the extensions the device
 * compiler is told about, and the suffix that marks an error seen only in
 * that pass (the first pass reports plainly).  clang declares the
 * cl_intel_subgroups built-ins only for OpenCL C 2.0+, while it still defines
 * the macro in 1.2 mode; real 1.2 drivers with that extension declare them,
 * so the 1.2 pass checks the portable (khr) path instead. */
/* The 1.2 pass is the `wg` tier (clang defines no sub-group extension for
 * OpenCL C 1.2 once cl_intel_subgroups is off), so it is skipped for units
 * that need sub-groups: there the emitted #error is the intended result. */
#define OPENCL_PASSES(X)                                                           \
    X("-cl-std=CL3.0", "-cl-ext=+all", "", false)                                 \
    X("-cl-std=CL1.2", "-cl-ext=+all,-cl_intel_subgroups,-cl_intel_subgroups_char,"  \
                       "-cl_intel_subgroups_short,-cl_intel_subgroups_long",       \
      " (OpenCL C 1.2)", true)

typedef struct Seen {
    char **keys;
    int count, capacity;
} Seen;

/* True if `key` was already reported; remembers it otherwise. */
static bool seen_before(Seen *seen, const char *key)
{
    for (int i = 0; i < seen->count; i++)
        if (strcmp(seen->keys[i], key) == 0)
            return true;
    if (seen->count == seen->capacity) {
        seen->capacity = seen->capacity ? seen->capacity * 2 : 16;
        seen->keys = mem_realloc(seen->keys, sizeof(char *) * (size_t)seen->capacity);
    }
    seen->keys[seen->count++] = mem_strdup(key);
    return false;
}

static void report_clang_diagnostic(const Libclang *lc, Diag *diag, CXDiagnostic cd,
                                    const char *name, const char *suffix, Seen *seen)
{
    if (lc->clang_getDiagnosticSeverity(cd) < CXDiagnostic_Error)
        return;
    CXString spelling = lc->clang_getDiagnosticSpelling(cd);
    CXString file;
    unsigned line, col;
    lc->clang_getPresumedLocation(lc->clang_getDiagnosticLocation(cd), &file, &line, &col);
    const char *fname = lc->clang_getCString(file);
    if (!fname || !*fname)
        fname = name;
    const char *text = lc->clang_getCString(spelling);
    char *key = NULL, *message = NULL;
    if (asprintf(&key, "%s:%u:%s", fname, line, text) >= 0 && !seen_before(seen, key)
        && asprintf(&message, "OpenCL C: %s%s", text, suffix) >= 0)
        report_mapped(diag, fname, line, message);
    free(key);
    free(message);
    lc->clang_disposeString(spelling);
    lc->clang_disposeString(file);
}

/* What the device compilers reject but clang accepts: a function of the
 * user's code (a #line names a source sgcc read) with the name of an OpenCL C
 * built-in.  clang lets one non-overloadable function join the built-in
 * overloads; Intel's compiler and PoCL (which renames built-ins with
 * macros) do not.  sgcc renames such names (emit_names.c); this catches an
 * output where that did not happen. */
typedef struct BuiltinAudit {
    const Libclang *lc;
    Diag *diag;
    const char *suffix;
    Seen *seen;
} BuiltinAudit;

static enum CXChildVisitResult audit_declaration(CXCursor cursor, CXCursor parent,
                                                 CXClientData data)
{
    (void)parent;
    const BuiltinAudit *a = data;
    const Libclang *lc = a->lc;
    if (lc->clang_getCursorKind(cursor) != CXCursor_FunctionDecl)
        return CXChildVisit_Continue;
    CXString spelling = lc->clang_getCursorSpelling(cursor), file;
    unsigned line, col;
    lc->clang_getPresumedLocation(lc->clang_getCursorLocation(cursor), &file, &line, &col);
    const char *fname = lc->clang_getCString(file), *fn = lc->clang_getCString(spelling);
    bool user_code = fname && *fname && find_source(a->diag->sources, fname) != 0;
    if (user_code && fn && emit_reserved_lookup(emit_opencl_hooks.reserved, fn) != RESERVED_NONE) {
        char *key = NULL, *message = NULL;
        if (asprintf(&key, "%s:%u:builtin %s", fname, line, fn) >= 0 && !seen_before(a->seen, key) &&
            asprintf(&message, "OpenCL C: function '%s' has the name of an OpenCL C built-in, "
                               "which Intel's and PoCL's compilers reject%s", fn, a->suffix) >= 0)
            report_mapped(a->diag, fname, line, message);
        free(key);
        free(message);
    }
    lc->clang_disposeString(spelling);
    lc->clang_disposeString(file);
    return CXChildVisit_Continue;
}

static void verify_opencl_pass(const Libclang *lc, const char *std, const char *extensions,
                               const char *suffix,
                               const char *name,
                               const EmitBuffer *code, char **defines, int define_count,
                               Diag *diag, Seen *seen)
{
    const char *fixed[] = {
        "-x", "cl", std, "--target=spir64-unknown-unknown",
        "-Xclang", "-finclude-default-header", "-Xclang", "-fdeclare-opencl-builtins",
        "-Xclang", extensions, "-fsyntax-only",
    };
    int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
    const char **args = mem_zalloc((size_t)(nfixed + 2 * define_count), sizeof *args);
    int argc = 0;
    for (int i = 0; i < nfixed; i++)
        args[argc++] = fixed[i];
    for (int i = 0; i < define_count; i++) {
        args[argc++] = "-D";
        args[argc++] = defines[i];
    }
    struct CXUnsavedFile unsaved = {name, code->data ? code->data : "",
                                    (unsigned long)code->len};
    CXIndex index = lc->clang_createIndex(0, 0);
    CXTranslationUnit unit = NULL;
    enum CXErrorCode rc = lc->clang_parseTranslationUnit2(index, name, args, argc, &unsaved, 1,
                                                      CXTranslationUnit_None, &unit);
    if (rc != CXError_Success) {
        char message[128];
        snprintf(message, sizeof message, "OpenCL C: libclang could not parse the output (code %d)",
                 (int)rc);
        diag_report_at(diag, DIAG_ERROR, name, 0, 0, message);
    } else {
        unsigned n = lc->clang_getNumDiagnostics(unit);
        for (unsigned i = 0; i < n; i++) {
            CXDiagnostic cd = lc->clang_getDiagnostic(unit, i);
            report_clang_diagnostic(lc, diag, cd, name, suffix, seen);
            lc->clang_disposeDiagnostic(cd);
        }
        BuiltinAudit audit = {lc, diag, suffix, seen};
        lc->clang_visitChildren(lc->clang_getTranslationUnitCursor(unit), audit_declaration,
                                &audit);
        lc->clang_disposeTranslationUnit(unit);
    }
    lc->clang_disposeIndex(index);
    free(args);
}

static void verify_opencl(const TranslationUnit *tu, const char *name, const EmitBuffer *code,
                          Diag *diag)
{
    char why[512];
    const Libclang *lc = libclang_open(why, sizeof why);
    if (!lc) {
        char message[700];
        snprintf(message, sizeof message, "OpenCL C: cannot load libclang for --verify: %s", why);
        diag_report_at(diag, DIAG_ERROR, name, 0, 0, message);
        return;
    }
    int define_count;
    char **defines = spec_defines(tu, &define_count);
    Seen seen = {0};
#define X(std, extensions, suffix, wg_tier_only)                                         \
    if (!(wg_tier_only && tu->uses_sub_groups))                                         \
        verify_opencl_pass(lc, std, extensions, suffix, name, code, defines, define_count, \
                           diag, &seen);
    OPENCL_PASSES(X)
#undef X
    free_strings(seen.keys, seen.count);
    free_strings(defines, define_count);
}
#endif /* SGCC_NO_LIBCLANG */

/* ---- CUDA C through NVRTC (dlopen) ---------------------------------------- */

typedef int nvrtcResult; /* NVRTC_SUCCESS == 0 */
typedef struct _nvrtcProgram *nvrtcProgram;

/* The NVRTC entry points we use, written once: X(name, return, params). */
#define NVRTC_FUNCTIONS(X)                                                              \
    X(nvrtcCreateProgram, nvrtcResult, (nvrtcProgram *, const char *, const char *, int, \
                                        const char *const *, const char *const *))      \
    X(nvrtcCompileProgram, nvrtcResult, (nvrtcProgram, int, const char *const *))       \
    X(nvrtcGetProgramLogSize, nvrtcResult, (nvrtcProgram, size_t *))                    \
    X(nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram, char *))                          \
    X(nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram *))                               \
    X(nvrtcGetErrorString, const char *, (nvrtcResult))

typedef struct Nvrtc {
    void *handle;
#define X(name, ret, params) ret(*name) params;
    NVRTC_FUNCTIONS(X)
#undef X
} Nvrtc;

static const char *const nvrtc_library_names[] = {
    "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
    "/usr/local/cuda/lib64/libnvrtc.so",
};

/* $SGCC_NVRTC names the library to use instead of the usual names (a CUDA
 * installed off the loader path; tests use it to simulate a missing one). */
static bool nvrtc_open(Nvrtc *nv)
{
    memset(nv, 0, sizeof *nv);
    const char *chosen = getenv("SGCC_NVRTC");
    if (chosen && *chosen)
        nv->handle = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    size_t n = sizeof nvrtc_library_names / sizeof nvrtc_library_names[0];
    for (size_t i = 0; i < n && !nv->handle && !(chosen && *chosen); i++)
        nv->handle = dlopen(nvrtc_library_names[i], RTLD_NOW | RTLD_LOCAL);
    if (!nv->handle)
        return false;
    bool ok = true;
    /* POSIX blesses this cast from dlsym's void * to a function pointer. */
#define X(name, ret, params) ok = ok && (*(void **)&nv->name = dlsym(nv->handle, #name));
    NVRTC_FUNCTIONS(X)
#undef X
    if (!ok) {
        dlclose(nv->handle);
        nv->handle = NULL;
    }
    return ok;
}

/* Parses one log line "file(12): error: message"; false for other lines
 * (source excerpts, carets, the summary, warnings). */
static bool parse_nvrtc_error(char *line, char **file, unsigned *lineno, char **message)
{
    static const char *const markers[] = {"): error: ", "): catastrophic error: "};
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        char *hit = strstr(line, markers[i]);
        if (!hit)
            continue;
        char *open = hit;
        while (open > line && *open != '(')
            open--;
        if (*open != '(')
            return false;
        *open = '\0';
        *file = line;
        *lineno = (unsigned)strtoul(open + 1, NULL, 10);
        *message = hit + strlen(markers[i]);
        return true;
    }
    if (strncmp(line, "error: ", 7) == 0) {
        *file = NULL;
        *lineno = 0;
        *message = line + 7;
        return true;
    }
    return false;
}

static int report_nvrtc_log(Diag *diag, const char *name, char *log)
{
    int reported = 0;
    for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
        char *file, *text;
        unsigned lineno;
        if (!parse_nvrtc_error(line, &file, &lineno, &text))
            continue;
        char *message = NULL;
        if (asprintf(&message, "CUDA C: %s", text) >= 0)
            report_mapped(diag, file ? file : name, lineno, message);
        free(message);
        reported++;
    }
    return reported;
}

static void nvrtc_compile(Nvrtc *nv, const TranslationUnit *tu, const char *name,
                          const EmitBuffer *code, Diag *diag)
{
    int define_count;
    char **defines = spec_defines(tu, &define_count);
    const char **options = mem_zalloc((size_t)define_count + 3, sizeof *options);
    int nopt = 0;
    options[nopt++] = "--gpu-architecture=sm_90";
    options[nopt++] = "-default-device";
    /* NVRTC only warns about a jump past an initialisation (C++ forbids
     * it; nvcc reports an error): make it the error nvcc gives. */
    options[nopt++] = "--diag-error=546";
    char **dashed = mem_zalloc((size_t)define_count + 1, sizeof *dashed);
    for (int i = 0; i < define_count; i++) {
        dashed[i] = mem_alloc(strlen(defines[i]) + 3);
        sprintf(dashed[i], "-D%s", defines[i]);
        options[nopt++] = dashed[i];
    }
    char *source = mem_strndup(code->data ? code->data : "", code->len);
    nvrtcProgram prog = NULL;
    nvrtcResult rc = nv->nvrtcCreateProgram(&prog, source, name, 0, NULL, NULL);
    if (rc == 0) {
        nvrtcResult crc = nv->nvrtcCompileProgram(prog, nopt, options);
        size_t log_size = 0;
        char *log = NULL;
        if (nv->nvrtcGetProgramLogSize(prog, &log_size) == 0 && log_size > 0) {
            log = mem_zalloc(1, log_size + 1);
            nv->nvrtcGetProgramLog(prog, log);
        }
        int reported = log ? report_nvrtc_log(diag, name, log) : 0;
        if (crc != 0 && reported == 0) {
            char message[256];
            snprintf(message, sizeof message, "CUDA C: NVRTC failed: %s",
                     nv->nvrtcGetErrorString(crc));
            diag_report_at(diag, DIAG_ERROR, name, 0, 0, message);
        }
        free(log);
        nv->nvrtcDestroyProgram(&prog);
    } else {
        char message[256];
        snprintf(message, sizeof message, "CUDA C: NVRTC failed: %s", nv->nvrtcGetErrorString(rc));
        diag_report_at(diag, DIAG_ERROR, name, 0, 0, message);
    }
    free(source);
    free_strings(dashed, define_count);
    free(options);
    free_strings(defines, define_count);
}

static void verify_cuda(const TranslationUnit *tu, const char *name, const EmitBuffer *code,
                        Diag *diag)
{
    Nvrtc nv;
    if (!nvrtc_open(&nv)) {
        diag_warning_at(diag, WARN_VERIFY, "sgcc", 0, 0,
                        "cannot verify CUDA output: NVRTC not found");
        return;
    }
    nvrtc_compile(&nv, tu, name, code, diag);
    /* No dlclose: NVRTC's static constructors allocate memory its unload
     * never frees; staying loaded until exit keeps that "reachable" (and
     * valgrind quiet) and costs nothing in a one-shot process. */
}

/* ---- dispatch ------------------------------------------------------------- */

void verify_output(EmitTargetKind kind, const TranslationUnit *tu, const char *name,
                   const EmitBuffer *code, Diag *diag)
{
    switch (kind) {
    case TARGET_OPENCL: verify_opencl(tu, name, code, diag); break;
    case TARGET_CUDA: verify_cuda(tu, name, code, diag); break;
    case TARGET_COUNT: break;
    }
}
