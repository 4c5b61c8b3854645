/* cuda_target.h — what the CUDA C target's files share: emit_cuda.c (the
 * printer hooks) and groups_cuda.c (the group library's spellings). */
#ifndef SGCC_CUDA_TARGET_H
#define SGCC_CUDA_TARGET_H

#include "emit/emit_lowering.h"

extern const EmitLowering emit_cuda_lowering;

#endif
