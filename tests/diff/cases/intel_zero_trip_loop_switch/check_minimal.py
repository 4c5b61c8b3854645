#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options=OPTS] — runs kernel k of
minimal.cl or control.cl on the Intel CPU runtime (global 32, local 32;
Intel picks sub-groups of 16) through tests/diff/intel_hangs/run_minimal.py
and compares every output with the host's value.  The first loop's trip count min(a[inx & 3] == gid, 0) & 3 is
0 (a is zeroed), so its body never runs; the work-items with in[gid] >> 1
nonzero then mix two bytes derived from the input of the lane of rank 2 of
their set.  From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_zero_trip_loop_switch/check_minimal.py \\
        tests/diff/cases/intel_zero_trip_loop_switch/minimal.cl     # WRONG [0, ..., 31]"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main, diff_input  # noqa: E402

MASK = (1 << 64) - 1
SUB_GROUP, GLOBAL = 16, 32


def mix(h, v):
    return (((h ^ v) * 0x100000001b3) + (v >> 7)) & MASK


def expected():
    inputs = [diff_input(i) for i in range(GLOBAL)]
    values = []
    for gid in range(GLOBAL):
        base = gid - gid % SUB_GROUP
        taken = [(inputs[base + lane] >> 1) != 0 for lane in range(SUB_GROUP)]
        cs = 0x111af
        if taken[gid % SUB_GROUP]:
            source = [lane for lane in range(SUB_GROUP) if taken[lane]][2] + base
            iny = inputs[(source + 5) % GLOBAL] * 65536 + inputs[source]
            for j in range(2):
                cs = mix(cs, (j * (iny != 0)) & 0xff)
        values.append(cs)
    return values


def main():
    return check_main(expected(), 32, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
