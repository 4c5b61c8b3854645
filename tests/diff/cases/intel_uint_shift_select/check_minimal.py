#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options OPTS] — runs kernel k of
minimal.cl or control.cl (local 64, global 64) through
tests/diff/intel_hangs/run_minimal.py (default on the Intel CPU runtime) and
compares every output with the host's value of safe_shl_uint(6u, gid):
6 when gid >= 32, else (6 << gid) mod 2^32.  From the repository root, after
eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_uint_shift_select/check_minimal.py \\
        tests/diff/cases/intel_uint_shift_select/minimal.cl    # WRONG [16, ..., 31]
    python3 tests/diff/cases/intel_uint_shift_select/check_minimal.py \\
        tests/diff/cases/intel_uint_shift_select/control.cl    # RIGHT []
    ... minimal.cl --options=-cl-opt-disable    # RIGHT []
    ... minimal.cl --platform Portable          # RIGHT [] (PoCL)"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main  # noqa: E402

LOCAL, GLOBAL = 64, 64


def expected():
    return [6 if gid >= 32 else (6 << gid) & 0xFFFFFFFF for gid in range(GLOBAL)]


def main():
    return check_main(expected(), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
