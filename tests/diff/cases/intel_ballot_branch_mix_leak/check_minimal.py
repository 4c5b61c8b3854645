#!/usr/bin/env python3
"""check_minimal.py FILE — runs kernel k of minimal.cl or control.cl on the
Intel CPU runtime (local 8, global 16) through
tests/diff/intel_hangs/run_minimal.py and compares every output with the
host's value: work-item 0 alone takes the else side (mix of the scan -504,
then of the float sum -249 of w[5..14]); gids 1..7 (one partition of 7) get
mix(0x11445, -3129), gids 8..15 (whole sub-group) mix(0x11445, -3576).
From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_ballot_branch_mix_leak/check_minimal.py \\
        tests/diff/cases/intel_ballot_branch_mix_leak/minimal.cl"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(CASES, "..", "intel_hangs"))
from run_minimal import check_main  # noqa: E402

MASK = (1 << 64) - 1
SUB_GROUP, GLOBAL = 8, 16


def mix(h, v):
    v &= MASK
    return ((h ^ v) * 0x100000001b3 + (v >> 7)) & MASK


def expected():
    values = []
    for gid in range(GLOBAL):
        if gid == 0:
            values.append(mix(mix(0x11445, -504), -249))
        else:
            members = SUB_GROUP - 1 if gid < SUB_GROUP else SUB_GROUP
            values.append(mix(0x11445, -447 * members))
    return values


def main():
    return check_main(expected(), SUB_GROUP, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
