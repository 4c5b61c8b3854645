/* fuzz_sgcc.c — libFuzzer harness for the whole sgcc front end.
 *
 * One input is one .sgc main file, given to the same pipeline as the sgcc
 * command (compiler/driver/main.c: translate()): preprocess -> parse -> sema ->
 * the OpenCL C and CUDA C emitters -> the --header emitter, with --verify
 * off.  Diagnostics are printed (source line, caret) to /dev/null so that
 * the printer sees every odd byte too.  Besides crashes and sanitizer
 * reports, the harness checks two properties that hold for every input:
 * errors and outputs exclude each other (an error means no stage after it
 * ran), and a unit without errors yields non-empty outputs.
 *
 * Built only by the fuzz configuration (meson option `fuzz`, clang);
 * scripts/fuzz.sh builds and runs it.  #include in an input is resolved
 * next to "fuzz.sgc" in the current directory, which scripts/fuzz.sh makes
 * an empty temporary directory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "emit/emit.h"
#include "module/emit_header.h"
#include "parse/parse.h"
#include "pp/preprocess.h"
#include "sema/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    SourceManager sources;
    Diag diag;
    Arena arena;
    srcmgr_init(&sources);
    diag_init(&diag, &sources, sink);
    arena_init(&arena);
    uint32_t main_file = srcmgr_add(&sources, "fuzz.sgc", (const char *)data, size);
    /* -DN=4 -UNDEBUG, as a command line might give them. */
    const char *defines[] = {"N=4", "NDEBUG"};
    bool undef[] = {false, true};
    PPOptions pp_options = {.defines = defines, .define_is_undef = undef, .define_count = 2};
    Preprocessor *pp = pp_new(&arena, &diag, main_file, &pp_options);

    TranslationUnit tu;
    memset(&tu, 0, sizeof tu);
    EmitBuffer code[TARGET_COUNT], header;
    for (int t = 0; t < TARGET_COUNT; t++)
        emit_buffer_init(&code[t]);
    emit_buffer_init(&header);

    Node *root = parse_translation_unit(&arena, &diag, pp);
    bool emitted = false;
    if (!diag_has_errors(&diag)) {
        SemaOptions sema = {.max_sub_group_size = 64, .narrowest_sub_group_size = 32};
        tu.main_file = "fuzz.sgc";
        sema_run(&arena, &diag, root, &sema, &tu);
    }
    if (!diag_has_errors(&diag)) {
        EmitOptions emit = {.line_directives = true, .sgcc_version = "fuzz"};
        emitted = true;
        for (int t = 0; t < TARGET_COUNT && emitted; t++)
            emitted = emit_targets[t].emit_unit(&tu, &sources, &emit, &diag, &code[t]);
        if (emitted) {
            const EmitBuffer *outputs[TARGET_COUNT];
            for (int t = 0; t < TARGET_COUNT; t++)
                outputs[t] = &code[t];
            emitted = emit_header(&tu, NULL, outputs, &diag, &header);
        }
        /* An emitter that gives up must say why (main.c turns silence into
         * an internal error). */
        if (!emitted && !diag_has_errors(&diag))
            abort();
        if (emitted && (code[TARGET_OPENCL].len == 0 || code[TARGET_CUDA].len == 0 ||
                        header.len == 0))
            abort();
    }
    diag_finish(&diag);

    for (int t = 0; t < TARGET_COUNT; t++)
        emit_buffer_free(&code[t]);
    emit_buffer_free(&header);
    pp_free(pp);
    arena_free(&arena);
    srcmgr_free(&sources);
    return 0;
}
