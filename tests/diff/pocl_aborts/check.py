#!/usr/bin/env python3
"""check.py — runs this directory's plain OpenCL C kernels on one platform
and says, for each, whether the device compiler crashed and, when it ran,
whether its values are the host's (computed here, independently of any
OpenCL implementation).

usage: check.py [--platform P] [--options=OPTS]
  P         platform name substring (default Portable: PoCL)
exit: 0 every kernel ran and was right; 1 otherwise; 2 usage.

Each kernel runs 64 work-items in work-groups of 32 through
tests/diff/intel_hangs/run_minimal.py (a child process per kernel, input
in[i] = diff_input(i) as diffrun's), as the cases' check_minimal.py do.
From the repository root, for the Intel CPU runtime after
eval "$(scripts/intel-ocl-env.sh)".
"""

import argparse
import os
import re
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "intel_hangs"))
from run_minimal import diff_input, run_kernel  # noqa: E402

M64 = (1 << 64) - 1
LOCAL, GLOBAL = 32, 64


def mix(h, v):
    return (((h ^ v) * 0x100000001B3) + (h >> 29)) & M64


def expect_end_of_branch(gid):
    lid, grp = gid % LOCAL, gid // LOCAL
    if grp % 4:
        return mix(0xE42D, lid)
    return mix(0xE42D, diff_input(gid) & M64)


def expect_read_in_branch(gid):
    lid, grp = gid % LOCAL, gid // LOCAL
    return mix(0xE42D, lid) if grp % 4 else mix(0xE42D, 1)


def expect_local_atomics(gid):
    lid, grp = gid % LOCAL, gid // LOCAL
    if (grp ^ 8) % 4:
        return mix(0xE42D, 0 if lid else GLOBAL)
    cs = mix(0xE42D, 1)
    if lid == 2:
        cs = mix(cs, 1)  # atom_cmpxchg's old value
    return mix(cs, 77)


KERNELS = {
    "barrier_end_of_group_branch.cl": expect_end_of_branch,
    "barrier_read_in_group_branch.cl": expect_read_in_branch,
    "local_atomics_in_group_branch.cl": expect_local_atomics,
}


def verdict(path, platform, options, expect):
    status, got, text = run_kernel(path, platform, options, LOCAL, GLOBAL, timeout=120)
    if status == 1:
        return "TIMEOUT"
    died = re.search(r"child died, exit code -(\d+)", text)
    if died:
        return "CRASH (%s)" % signal.Signals(int(died.group(1))).name
    if status != 0:
        return "ERROR: " + text.strip()[-300:]
    bad = [g for g in range(GLOBAL) if got[g] != expect(g)]
    return "RIGHT" if not bad else "WRONG (%d of %d values, first gid %d)" % (len(bad), GLOBAL, bad[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--platform", default="Portable")
    ap.add_argument("--options", default="")
    a = ap.parse_args()
    ok = True
    for name, expect in KERNELS.items():
        result = verdict(os.path.join(HERE, name), a.platform, a.options, expect)
        print("%-36s %s" % (name, result))
        ok = ok and result == "RIGHT"
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
