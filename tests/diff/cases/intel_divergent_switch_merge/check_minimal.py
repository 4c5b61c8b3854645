#!/usr/bin/env python3
"""check_minimal.py FILE [--platform P] [--options OPTS] - runs kernel k of
minimal.cl or control.cl (local 64, global 64: the case's sizes; the Intel
CPU runtime picks sub-groups of 16, and every output carries
get_sub_group_size() in bits 48 and up) through
tests/diff/intel_hangs/run_minimal.py (default on the Intel CPU runtime) and
compares every output with the host's value: with sgl = gid % 16, cs is
-1 & 5 & 6 & 7 = 4 (plus 4 >> 7 = 0) where sgl % 3 == 2, else 0, then
+ 1000 where sgl is odd and sgl % 3 != 2 (v is 1 only on the else side).
From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_divergent_switch_merge/check_minimal.py \\
        tests/diff/cases/intel_divergent_switch_merge/minimal.cl    # WRONG [5, 11, 21, 27, 37, 43, 53, 59]
    python3 tests/diff/cases/intel_divergent_switch_merge/check_minimal.py \\
        tests/diff/cases/intel_divergent_switch_merge/control.cl    # RIGHT []
    ... minimal.cl --options=-cl-opt-disable    # RIGHT []
(A runtime that picks another sub-group size shows it in the top bits of
every output, and this check, written for 16, then says WRONG.)"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "intel_hangs"))
from run_minimal import check_main  # noqa: E402

LOCAL, GLOBAL = 64, 64
SUB_GROUP = 16


def value(gid):
    sgl = gid % SUB_GROUP
    cs, v = 0, 0
    if sgl % 3 == 2:
        cs = (1 << 64) - 1
        for i in range(sgl >> 6, 3):
            cs &= i + 5
        cs += cs >> 7
    else:
        v = 1  # switch (3): the default arm, no change to cs
    if sgl & v:
        cs += 1000
    return cs | SUB_GROUP << 48


def expected():
    return [value(gid) for gid in range(GLOBAL)]


def main():
    return check_main(expected(), LOCAL, GLOBAL)


if __name__ == "__main__":
    sys.exit(main())
