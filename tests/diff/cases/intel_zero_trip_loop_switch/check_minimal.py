#!/usr/bin/env python3
"""check_minimal.py FILE... — runs kernel k of minimal.cl or control.cl on the
Intel CPU runtime (global 32, local 32; Intel picks sub-groups of 16) through
tests/diff/intel_hangs/run_minimal.py and compares every output with the
host's value.  The first loop's trip count min(a[inx & 3] == gid, 0) & 3 is
0 (a is zeroed), so its body never runs; the work-items with in[gid] >> 1
nonzero then mix two bytes derived from the input of the lane of rank 2 of
their set.  From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_zero_trip_loop_switch/check_minimal.py \\
        tests/diff/cases/intel_zero_trip_loop_switch/minimal.cl     # WRONG ... got 0x0"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "..", "..", "intel_hangs", "run_minimal.py")
sys.path.insert(0, os.path.dirname(RUNNER))
from run_minimal import diff_input  # noqa: E402

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
    want, status = expected(), 0
    for src in sys.argv[1:]:
        run = subprocess.run(["python3", RUNNER, "Intel", "--src", src, "--kernel", "k",
                              "--local-size", "32", "--global-size", str(GLOBAL), "--nout", "1",
                              "--timeout", "30", "--show"], capture_output=True, text=True)
        got = [int(x, 16) for x in run.stdout.strip().split("\n")[-1].split()]
        wrong = [i for i in range(GLOBAL) if got[i] != want[i]]
        if wrong:
            status = 1
            print("%s WRONG on %d work-items, e.g. %d: expected %#x got %#x"
                  % (src, len(wrong), wrong[0], want[wrong[0]], got[wrong[0]]))
        else:
            print(src, "RIGHT")
    return status


if __name__ == "__main__":
    sys.exit(main())
