#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options OPTS] - runs kernel k of
minimal.cl or control.cl (local 64, global 192: the case's sizes; the Intel
CPU runtime picks sub-groups of 16) through
tests/diff/intel_hangs/run_minimal.py (default on the Intel CPU runtime) and
compares every output with the host's value: the kernel's if,
abs((int)(gid & 1)) == 3, is never taken (abs gives 0 or 1), so every
work-item writes out[gid] = 0x11462 and nothing else.  From the repository
root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_dead_ballot_empty_kernel/check_minimal.py \\
        tests/diff/cases/intel_dead_ballot_empty_kernel/minimal.cl    # WRONG [0, ..., 191] (all 0)
    python3 tests/diff/cases/intel_dead_ballot_empty_kernel/check_minimal.py \\
        tests/diff/cases/intel_dead_ballot_empty_kernel/control.cl    # RIGHT []
    ... minimal.cl --options=-cl-opt-disable    # RIGHT []"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main  # noqa: E402

LOCAL, GLOBAL = 64, 192


def expected():
    want = []
    for gid in range(GLOBAL):
        v = 0x11462
        if abs(gid & 1) == 3:  # never: the store of 1 under !c is dead too
            v = 1
        want.append(v)
    return want


def main():
    return check_main(expected(), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
