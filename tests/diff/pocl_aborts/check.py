#!/usr/bin/env python3
"""check.py — runs this directory's plain OpenCL C kernels on one platform
and says, for each, whether the device compiler crashed and, when it ran,
whether its values are the host's (computed here, independently of any
OpenCL implementation).

usage: check.py DIFFRUN [--platform P] [--options=OPTS]
  DIFFRUN   the diffrun binary (build/tests/diff/diffrun, or cc diffrun.c -lOpenCL)
  P         platform name substring (default Portable: PoCL)
exit: 0 every kernel ran and was right; 1 otherwise; 2 usage.

Each kernel runs 64 work-items in work-groups of 32 (as `k` in a diffrun
manifest), with diffrun's input in[i] (diff_input.h, repeated below).
"""

import argparse
import os
import signal
import struct
import subprocess
import sys
import tempfile

M64 = (1 << 64) - 1
LOCAL, GLOBAL = 32, 64


def diff_input(i):
    """diff_input.h's in[i]."""
    m32 = 0xFFFFFFFF
    x = (i * 2654435761 + 0x9E3779B9) & m32
    x ^= x >> 15
    x = (x * 0x85EBCA6B) & m32
    x ^= x >> 13
    kind = x % 8
    if kind == 0:
        return x - (1 << 32) if x >= 1 << 31 else x
    if kind == 1:
        return x % 7 - 3
    if kind == 2:
        return 2**31 - 1 if x & 1 else -(2**31)
    return x % 2001 - 1000


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


def run_one(diffrun, platform, options, path, expect, work):
    manifest = os.path.join(work, "k.manifest")
    with open(manifest, "w") as f:
        f.write("options \nflavour wg\nkernel k %d %d 1\n" % (LOCAL, GLOBAL))
    out = os.path.join(work, "out")
    os.makedirs(out, exist_ok=True)
    try:
        p = subprocess.run([diffrun, "-p", platform, "-o", options, manifest, path, out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    except subprocess.TimeoutExpired:
        return "TIMEOUT"
    if p.returncode < 0:
        return "CRASH (%s)" % signal.Signals(-p.returncode).name
    if p.returncode != 0:
        return "ERROR (diffrun exit %d): %s" % (p.returncode, p.stdout.decode(errors="replace")[-300:])
    with open(os.path.join(out, "k.bin"), "rb") as f:
        got = struct.unpack("<%dQ" % GLOBAL, f.read())
    bad = [g for g in range(GLOBAL) if got[g] != expect(g)]
    return "RIGHT" if not bad else "WRONG (%d of %d values, first gid %d)" % (len(bad), GLOBAL, bad[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("diffrun")
    ap.add_argument("--platform", default="Portable")
    ap.add_argument("--options", default="")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    ok = True
    for name, expect in KERNELS.items():
        with tempfile.TemporaryDirectory() as work:
            verdict = run_one(a.diffrun, a.platform, a.options, os.path.join(here, name), expect, work)
        print("%-36s %s" % (name, verdict))
        ok = ok and verdict == "RIGHT"
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
