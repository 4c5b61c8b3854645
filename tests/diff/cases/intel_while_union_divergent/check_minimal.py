#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options=OPTS] [--local-size N] —
runs kernel k of minimal.cl or control.cl (global 192, local 64 unless
--local-size says otherwise) through tests/diff/intel_hangs/run_minimal.py
and compares every out[g] with the host's value (5 << g for g <= 28, else
5).  From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_while_union_divergent/check_minimal.py \\
        tests/diff/cases/intel_while_union_divergent/minimal.cl   # WRONG [16, ..., 28]
    ... minimal.cl --local-size 16     # RIGHT []"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main  # noqa: E402

LOCAL, GLOBAL = 64, 192


def expected():
    return [(5 << g) if g <= 28 else 5 for g in range(GLOBAL)]


def main():
    return check_main(expected(), LOCAL, GLOBAL, timeout=50)


if __name__ == "__main__":
    sys.exit(main())
