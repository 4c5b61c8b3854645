#!/usr/bin/env python3
"""check_minimal.py PLATFORM FILE [LOCAL GLOBAL [OPTIONS]] — runs kernel k of
minimal.cl or control.cl through tests/diff/intel_hangs/run_minimal.py and
compares every out[g] with the host's value (5 << g for g <= 28, else 5).
From the repository root, after eval "$(scripts/intel-ocl-env.sh)":
    python3 tests/diff/cases/intel_while_union_divergent/check_minimal.py Intel \\
        tests/diff/cases/intel_while_union_divergent/minimal.cl   # 13 wrong of 192"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "..", "..", "intel_hangs", "run_minimal.py")


def main():
    platform, src = sys.argv[1], sys.argv[2]
    local = sys.argv[3] if len(sys.argv) > 3 else "64"
    global_size = int(sys.argv[4]) if len(sys.argv) > 4 else 192
    options = sys.argv[5] if len(sys.argv) > 5 else ""
    run = subprocess.run(["python3", RUNNER, platform, "--src", src, "--kernel", "k",
                          "--local-size", local, "--global-size", str(global_size), "--nout", "1",
                          "--options=" + options, "--show", "--timeout", "50"],
                         capture_output=True, text=True)
    got = [int(x, 16) for x in run.stdout.strip().split("\n")[-1].split()]
    wrong = 0
    for g in range(global_size):
        want = (5 << g) if g <= 28 else 5
        if got[g] != want:
            wrong += 1
            print("out[%d]: expected 0x%x got 0x%x" % (g, want, got[g]))
    print("%s %s local %s global %d options '%s': %d wrong of %d"
          % (platform, src, local, global_size, options, wrong, global_size))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
