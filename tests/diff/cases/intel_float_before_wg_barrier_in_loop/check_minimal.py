#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options OPTS] — runs kernel k of
minimal.cl or control.cl (local 24, global 72) through
tests/diff/intel_hangs/run_minimal.py (default on the Intel CPU runtime) and
compares every output with the host's value: group g = gid / 24 runs the loop
g times; no input is 12345, so d = 1 - gid * -16 = 1 + 16 * gid (exact in
float) in groups 1 and 2, and stays -1 (0xffffffffffffffff) in group 0.  From
the repository root, after
eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_float_before_wg_barrier_in_loop/check_minimal.py \\
        tests/diff/cases/intel_float_before_wg_barrier_in_loop/minimal.cl    # WRONG [24, ..., 71]
    python3 tests/diff/cases/intel_float_before_wg_barrier_in_loop/check_minimal.py \\
        tests/diff/cases/intel_float_before_wg_barrier_in_loop/control.cl    # RIGHT []
    ... minimal.cl --options=-cl-opt-disable    # RIGHT []
    ... minimal.cl --platform Portable          # RIGHT [] (PoCL)"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main, diff_input  # noqa: E402

LOCAL, GLOBAL = 24, 72
MASK = (1 << 64) - 1


def expected(inputs):
    values = []
    for gid in range(GLOBAL):
        d = -1
        for _ in range(gid // LOCAL):
            if inputs[gid] != 12345:
                d = 1 + 16 * gid
        values.append(d & MASK)
    return values


def main():
    return check_main(expected([diff_input(i) for i in range(GLOBAL)]), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
