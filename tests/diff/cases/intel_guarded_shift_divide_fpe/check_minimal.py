#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options OPTS] - runs kernel k of
minimal.cl or control.cl (local 32, global 32: the case's sizes) through
tests/diff/intel_hangs/run_minimal.py (default on the Intel CPU runtime) and
compares every output with the host's value: d = shl(1, s) is 1 or 1 << s,
never 0, so out[gid] = 2 / d.  From the repository root, after
eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_guarded_shift_divide_fpe/check_minimal.py \\
        tests/diff/cases/intel_guarded_shift_divide_fpe/minimal.cl   # ERROR child died, exit code -8 (SIGFPE)
    python3 tests/diff/cases/intel_guarded_shift_divide_fpe/check_minimal.py \\
        tests/diff/cases/intel_guarded_shift_divide_fpe/control.cl   # RIGHT []
    ... minimal.cl --options=-cl-opt-disable    # RIGHT []"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main, diff_input  # noqa: E402

LOCAL, GLOBAL = 32, 32


def shl(a, b):
    b &= (1 << 64) - 1  # the kernel's ulong parameter
    return a if b >= 32 or a > (2147483647 >> b) else a << b


def expected():
    want = []
    for gid in range(GLOBAL):
        d = shl(1, diff_input((gid + 5) % 32) + diff_input(gid))
        want.append(2 if d == 0 else 2 // d)
    return want


def main():
    return check_main(expected(), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
