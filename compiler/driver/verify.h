/* verify.h — `sgcc --verify`: compile the emitted code in-process with the
 * device compilers (libclang for OpenCL C, NVRTC for CUDA C) and report their
 * errors at .sgc locations through the Diag sink. */
#ifndef SGCC_VERIFY_H
#define SGCC_VERIFY_H

#include "emit/emit.h"

/* Compiles `code` (the output of emit_targets[kind]) the way a host would
 * build it, with every required spec constant bound to a dummy value so its
 * #error does not fire.  `name` is the output's file name, used for problems
 * in code that has no #line back to the source.  Device-compiler errors
 * become diagnostics "OpenCL C: ..." / "CUDA C: ..." (so they count as
 * input errors); a missing NVRTC is only a warning. */
void verify_output(EmitTargetKind kind, const TranslationUnit *tu, const char *name,
                   const EmitBuffer *code, Diag *diag);

#endif
