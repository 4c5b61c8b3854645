#!/usr/bin/env python3
"""check_minimal.py FILE — runs kernel k of minimal.cl or control.cl on the
Intel CPU runtime (local 16, global 32: Intel picks sub-groups of 16 there)
through tests/diff/intel_hangs/run_minimal.py and compares every output with
the host's value.  Work-items with lane % 3 == 2 set v = 5 and AND their
in[] & 1 with lane 2's, log2(16) times; the others add lane 0's running
value, log2(16) times (lane 0 ends with 16 * in[base], lane j with in[gid] +
15 * in[base]); out = cs * 1000 + v, v = get_group_id(0) on the else side.
From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_generic_branch_value_lost/check_minimal.py \\
        tests/diff/cases/intel_generic_branch_value_lost/minimal.cl    # WRONG [2, 5, ...]
Extra arguments go to run_minimal.py (e.g. --options=-cl-opt-disable)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main, diff_input  # noqa: E402

MASK = (1 << 64) - 1
SUB_GROUP, LOCAL, GLOBAL = 16, 16, 32


def expected(inputs):
    values = []
    for gid in range(GLOBAL):
        lane, base = gid % SUB_GROUP, gid - gid % SUB_GROUP
        if lane % 3 == 2:
            cs, v = (inputs[gid] & 1) & (inputs[base + 2] & 1), 5
        else:
            a0 = inputs[base]
            cs = SUB_GROUP * a0 if lane == 0 else inputs[gid] + (SUB_GROUP - 1) * a0
            v = gid // LOCAL
        values.append((cs * 1000 + v) & MASK)
    return values


def main():
    return check_main(expected([diff_input(i) for i in range(GLOBAL)]), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
