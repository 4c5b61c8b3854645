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
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LOCAL, GLOBAL = 64, 64


def expected():
    return [6 if gid >= 32 else (6 << gid) & 0xFFFFFFFF for gid in range(GLOBAL)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--platform", default="Intel")
    ap.add_argument("--options", default="")
    a = ap.parse_args()
    runner = os.path.join(HERE, "..", "..", "intel_hangs", "run_minimal.py")
    run = subprocess.run(["python3", runner, a.platform, "--src", a.src, "--kernel", "k",
                          "--options=" + a.options,
                          "--local-size", str(LOCAL), "--global-size", str(GLOBAL),
                          "--nout", "1", "--timeout", "30", "--show"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        return 2
    got = [int(x, 16) for x in run.stdout.strip().split("\n")[-1].split()]
    want = expected()
    wrong = [i for i in range(GLOBAL) if got[i] != want[i]]
    print("expected", [hex(x) for x in want])
    print("got     ", [hex(x) for x in got])
    print("WRONG" if wrong else "RIGHT", wrong)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
