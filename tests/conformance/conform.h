/* conform.h — the case table of the conformance harness (conform_host.c).
 * See the comment at the top of conform_host.c for how to add a case. */
#ifndef SGCC_CONFORM_H
#define SGCC_CONFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ElemType { E_INT, E_UINT, E_LONG, E_ULONG, E_FLOAT, E_DOUBLE } ElemType;

typedef struct Case Case;

/* Fills out[0 .. out_count) with what the kernel must write, from in[]
 * and the case's shape alone (SPEC rules, plain C loops).  out[] arrives
 * filled with the sentinel the device buffer had, so elements the kernel
 * must not write are left as they are. */
typedef void RefFn(const Case *c, const void *in, void *out);

struct Case {
    const char *name;          /* cases/<name>.sgc, translated to <name>.cl */
    ElemType in_type, out_type;
    size_t in_count, out_count;
    size_t global_size, local_size;   /* one dimension */
    const char *build_options;        /* e.g. "-DSGC_SPEC_0=16"; NULL for none */
    size_t compile_wg_size;           /* when non-zero: CL_KERNEL_COMPILE_WORK_GROUP_SIZE[0]
                                         must equal it (reqd_work_group_size) */
    RefFn *reference;
};

extern const Case conform_cases[];
extern const size_t conform_case_count;

/* The input the harness gives every case: element i of type t, small
 * values (integers in [-40, 40], or [0, 80] for unsigned types, floats
 * exactly integral) so sums and products stay exact in every type. */
double conform_input_value(ElemType t, size_t i);

#endif
