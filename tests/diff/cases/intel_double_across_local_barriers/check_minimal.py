#!/usr/bin/env python3
"""check_minimal.py FILE [OPTIONS] -- runs kernel k of minimal.cl or control.cl
on the Intel CPU runtime (local 32, global 64, diffrun's inputs) through
tests/diff/intel_hangs/run_minimal.py and compares every output with the
host's value of
    f = -10.0 - (double)((int)(in[gid] & 31) - 16) * -15.0
    out[gid] = (ulong)(long)f
(exact in double: -10 + 15 * ((in[gid] & 31) - 16)).  minimal.cl is wrong on
gids 0..15 and 32..47 (each gets the value of gid + 16); control.cl is right.
From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_double_across_local_barriers/check_minimal.py \\
        tests/diff/cases/intel_double_across_local_barriers/minimal.cl    # WRONG [0, 1, ...]
(OPTIONS, e.g. --options=-cl-opt-disable, go to run_minimal.py)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main, diff_input  # noqa: E402

MASK = (1 << 64) - 1
LOCAL, GLOBAL = 32, 64


def expected(inputs):
    values = []
    for gid in range(GLOBAL):
        values.append((-10 + 15 * ((inputs[gid] & 31) - 16)) & MASK)
    return values


def main():
    return check_main(expected([diff_input(i) for i in range(GLOBAL)]), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
