/* fuzz_pp.c — libFuzzer harness for the preprocessor alone (`sgcc -E`).
 *
 * One input is one main file, preprocessed as `sgcc -E -DN=4 -UNDEBUG`
 * would.  Seeds are macro-heavy (tests/fuzz/seed_pp: X-macros, token
 * pasting and stringizing, variadic macros, painted-blue self references,
 * deep #if arithmetic), so that mutations stay inside the directive and
 * expansion code instead of dying in the parser as fuzz_sgcc's do.
 *
 * Besides crashes and sanitizer reports, the harness checks a round trip
 * that holds for every input without errors: the `-E` text, preprocessed
 * again, gives the same tokens as the first expansion, spelling by
 * spelling.  It fails when the printer glues two tokens into one ("+" "+"
 * printed as "++"), splits or loses one, prints a linemarker the
 * preprocessor cannot read back, or when an expansion result is not stable
 * under rescanning.  The second pass undefines the predefined object-like
 * macros, because a first pass that #undef'ed one leaves its name in the
 * text.  Text with a stray '#' token is not checked (see below).
 * #include resolves next to "fuzz.sgc" in the current directory,
 * which scripts/fuzz.sh makes an empty temporary directory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "emit/emit.h"
#include "pp/preprocess.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

/* One preprocessor over an in-memory main file "fuzz.sgc". */
typedef struct PPRun {
    SourceManager sources;
    Diag diag;
    Arena arena;
    uint32_t main_file;
    Preprocessor *pp;
} PPRun;

static void run_open(PPRun *r, const char *text, size_t size, const PPOptions *options)
{
    srcmgr_init(&r->sources);
    diag_init(&r->diag, &r->sources, sink);
    arena_init(&r->arena);
    r->main_file = srcmgr_add(&r->sources, "fuzz.sgc", text, size);
    r->pp = pp_new(&r->arena, &r->diag, r->main_file, options);
}

/* Frees the run; returns false when it reported errors. */
static bool run_close(PPRun *r)
{
    bool ok = !diag_has_errors(&r->diag);
    diag_finish(&r->diag);
    pp_free(r->pp);
    arena_free(&r->arena);
    srcmgr_free(&r->sources);
    return ok;
}

/* `text` as `sgcc -E` prints it, in `printed`; false when it erred. */
static bool preprocess_text(const char *text, size_t size, const PPOptions *options,
                            EmitBuffer *printed)
{
    PPRun r;
    run_open(&r, text, size, options);
    emit_buffer_init(printed);
    pp_print(r.pp, &r.sources, r.main_file, printed);
    return run_close(&r);
}

/* The spellings of the tokens of `text` after preprocessing, each followed
 * by a newline, in `out`; *stray_hash tells whether one of them is a '#'
 * outside any directive.  Returns false when preprocessing reported errors. */
static bool token_spellings(const char *text, size_t size, const PPOptions *options,
                            EmitBuffer *out, bool *stray_hash)
{
    PPRun r;
    run_open(&r, text, size, options);
    *stray_hash = false;
    for (Token *t = pp_next(r.pp); t->kind != TK_EOF; t = pp_next(r.pp)) {
        if (t->kind == TK_PUNCT && (tok_is(t, "#") || tok_is(t, "%:")))
            *stray_hash = true;
        emit_write(out, t->text, t->len);
        emit_write(out, "\n", 1);
    }
    return run_close(&r);
}

/* With FUZZ_PP_DUMP=PREFIX set, a failed round trip leaves the -E text and
 * both token lists in PREFIX.i, PREFIX.first and PREFIX.second (triage). */
static void dump_round_trip(const EmitBuffer *printed, const EmitBuffer *first,
                            const EmitBuffer *second)
{
    const char *prefix = getenv("FUZZ_PP_DUMP");
    const EmitBuffer *buffers[] = {printed, first, second};
    const char *suffixes[] = {".i", ".first", ".second"};
    for (int i = 0; prefix && i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s", prefix, suffixes[i]);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(buffers[i]->data ? buffers[i]->data : "", 1, buffers[i]->len, f);
            fclose(f);
        }
    }
}

static bool same_buffer(const EmitBuffer *a, const EmitBuffer *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    const char *first_defines[] = {"N=4", "NDEBUG"};
    bool first_undef[] = {false, true};
    PPOptions first = {.defines = first_defines, .define_is_undef = first_undef,
                       .define_count = sizeof first_defines / sizeof *first_defines};
    EmitBuffer printed;
    if (preprocess_text((const char *)data, size, &first, &printed)) {
        /* The predefined object-like macros (preprocess.h), off for the
         * second pass; the built-ins (__FILE__, __LINE__, __COUNTER__)
         * cannot be #undef'ed, so the first pass expanded them all. */
        const char *second_defines[] = {"__SGC__", "__SGC_VERSION__", "__STDC__",
                                        "__STDC_VERSION__", "NULL", "CLK_LOCAL_MEM_FENCE",
                                        "CLK_GLOBAL_MEM_FENCE"};
        bool second_undef[] = {true, true, true, true, true, true, true};
        PPOptions second = {.defines = second_defines, .define_is_undef = second_undef,
                            .define_count = sizeof second_defines / sizeof *second_defines};
        EmitBuffer expanded, reread;
        emit_buffer_init(&expanded);
        emit_buffer_init(&reread);
        bool stray_hash, reread_stray_hash;
        bool first_ok = token_spellings((const char *)data, size, &first, &expanded, &stray_hash);
        /* A stray '#' (no C program has one: the parser rejects it) that the
         * printer puts first on a line reads back as a directive, as with
         * GCC's -E; such text has no round trip to check. */
        if (first_ok && !stray_hash) {
            bool second_ok = token_spellings(printed.data ? printed.data : "", printed.len,
                                             &second, &reread, &reread_stray_hash);
            if (!second_ok || !same_buffer(&expanded, &reread)) {
                dump_round_trip(&printed, &expanded, &reread);
                abort();
            }
        }
        emit_buffer_free(&expanded);
        emit_buffer_free(&reread);
    }
    emit_buffer_free(&printed);
    return 0;
}
