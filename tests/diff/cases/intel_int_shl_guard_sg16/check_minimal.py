#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options OPTS] - runs kernel k of
minimal.cl or control.cl (local 48, global 144: the case's sizes; the Intel
CPU runtime picks sub-groups of 16) through
tests/diff/intel_hangs/run_minimal.py (default on the Intel CPU runtime) and
compares every output with the host's value of safe_shl_int(3, gid):
3 << gid when gid <= 29 (3 <= 0x7fffffff >> gid), else 3.  From the
repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_int_shl_guard_sg16/check_minimal.py \\
        tests/diff/cases/intel_int_shl_guard_sg16/minimal.cl    # WRONG [16, ..., 29]
    python3 tests/diff/cases/intel_int_shl_guard_sg16/check_minimal.py \\
        tests/diff/cases/intel_int_shl_guard_sg16/control.cl    # RIGHT []
    ... minimal.cl --options=-cl-opt-disable    # RIGHT []"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main  # noqa: E402

LOCAL, GLOBAL = 48, 144


def expected():
    return [3 << gid if gid < 32 and 3 <= (0x7FFFFFFF >> gid) else 3 for gid in range(GLOBAL)]


def main():
    return check_main(expected(), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
