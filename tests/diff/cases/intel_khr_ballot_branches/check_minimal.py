#!/usr/bin/env python3
"""check_minimal.py FILE — runs kernel k of minimal.cl or control.cl on the
Intel CPU runtime (local 8, global 16) through
tests/diff/intel_hangs/run_minimal.py and compares every output with the
host's value: each side of `in[gid] < 7` is a partition of its sub-group of
8; the then side gets the sum of in[lane] over its members with lane < 3,
the else side any(gid == 0) over its members plus the minimum of in[lane]
(lane < 5, else 1e30) converted as f2u does.  From the repository root,
after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_khr_ballot_branches/check_minimal.py \\
        tests/diff/cases/intel_khr_ballot_branches/minimal.cl    # WRONG [1, 2, ...]"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main, diff_input  # noqa: E402

MASK = (1 << 64) - 1
SUB_GROUP, GLOBAL = 8, 16


def f2u(x):
    return 11 if x > 1e18 else 13 if x < -1e18 else int(x) & MASK


def expected(inputs):
    values = []
    for gid in range(GLOBAL):
        base, then = gid - gid % SUB_GROUP, inputs[gid] < 7
        members = [lane for lane in range(SUB_GROUP) if (inputs[base + lane] < 7) == then]
        if then:
            values.append(sum(inputs[lane] for lane in members if lane < 3) & MASK)
        else:
            any_zero = int(any(base + lane == 0 for lane in members))
            low = min(float(inputs[lane]) if lane < 5 else 1e30 for lane in members)
            values.append((any_zero + f2u(low)) & MASK)
    return values


def main():
    return check_main(expected([diff_input(i) for i in range(GLOBAL)]), SUB_GROUP, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
