#!/usr/bin/env python3
"""run_cases.py — the reduced regression cases of the differential campaign.

Each directory under tests/diff/cases/ (but 'new/', where campaign.py puts
fresh reductions for review) holds one reduced program: case.sgc, its host
oracle case_ref.c, case.manifest (kernel shapes, spec-constant bindings),
case.sgccopts (sgcc's -D options) and 'variant' (the backend/variant it
failed on, campaign.py's names).  This translates, builds and runs each one
there and compares with the oracle.  KNOWN_FAILURES lists the cases of
miscompilations not fixed yet (one name a line, '#' comments): they are
reported as expected failures (TAP 'not ok ... # TODO'); when one passes
the test fails, so that the list is kept honest.  Variant 'cuda-nvcc' is a
compile check of the CUDA output with nvcc -cubin (skipped without nvcc):
the case passes when nvcc accepts it (no oracle).

usage: run_cases.py SGCC DIFFRUN   (TAP on stdout; exit 0 when every case
       behaves as listed; a case whose device is absent is skipped)
"""
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from campaign import VARIANTS, intel_env, run  # noqa: E402


def known_failures():
    path = os.path.join(HERE, "cases", "KNOWN_FAILURES")
    if not os.path.exists(path):
        return set()
    return {line.split("#")[0].strip() for line in open(path) if line.split("#")[0].strip()}


def main():
    sgcc, diffrun = sys.argv[1], sys.argv[2]
    env = intel_env()
    known = known_failures()
    root = os.path.join(HERE, "cases")
    cases = sorted(d for d in os.listdir(root)
                   if d != "new" and os.path.isdir(os.path.join(root, d)))
    print("1..%d" % len(cases))
    failed = 0
    work = tempfile.mkdtemp(prefix="sgcc-diff-cases-")
    for i, name in enumerate(cases, 1):
        src = os.path.join(root, name)
        variant = open(os.path.join(src, "variant")).read().strip()
        if variant == "cuda-nvcc":
            st, out = nvcc_check(sgcc, src, os.path.join(work, name))
            if st is None:
                print("ok %d - %s # SKIP no nvcc" % (i, name))
                continue
            failed += report(i, name, st == 0, name in known, out)
            continue
        platform, options, _ = VARIANTS[variant]
        if run([diffrun, "--has", platform], env=env)[0] != 0:
            print("ok %d - %s # SKIP no %s platform" % (i, name, platform))
            continue
        base = os.path.join(work, name)
        opts = open(os.path.join(src, "case.sgccopts")).read().split()
        st, out = run([sgcc] + opts + ["-t", "opencl", "-o", base + ".cl", os.path.join(src, "case.sgc")])
        if st == 0:
            st, out = run(["gcc", "-O1", "-w", "-I", HERE, os.path.join(src, "case_ref.c"),
                           os.path.join(HERE, "ref_main.c"), "-o", base + "_ref", "-lm"])
        if st == 0:
            os.makedirs(base + "_out")
            st, out = run([diffrun, "-p", platform, "-o", options, os.path.join(src, "case.manifest"),
                           base + ".cl", base + "_out"], env=env)
            if st == 0:
                st, out2 = run([base + "_ref", base + "_out"])
                out += out2
        failed += report(i, name, st == 0, name in known, out)
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


def report(i, name, passed, known, out):
    """Prints the TAP line of one case; returns 1 when it counts as a failure."""
    bad = 0
    if known:
        if passed:
            print("not ok %d - %s (listed in KNOWN_FAILURES but passes now: remove it)" % (i, name))
            bad = 1
        else:
            print("not ok %d - %s # TODO known miscompilation" % (i, name))
    elif passed:
        print("ok %d - %s" % (i, name))
    else:
        print("not ok %d - %s" % (i, name))
        bad = 1
    if not passed:
        for line in out.splitlines()[-8:]:
            print("# " + line)
    return bad


def nvcc_check(sgcc, src, base):
    """sgcc -t cuda of the case, then nvcc -cubin with the manifest's options;
    (None, '') without nvcc."""
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if not nvcc:
        return None, ""
    opts = open(os.path.join(src, "case.sgccopts")).read().split()
    st, out = run([sgcc] + opts + ["-t", "cuda", "-o", base + ".cu", os.path.join(src, "case.sgc")])
    if st != 0:
        return st, out
    defs = []
    for line in open(os.path.join(src, "case.manifest")):
        if line.startswith("options "):
            defs = line.split()[1:]
    return run([nvcc, "-cubin", "-w", "-arch=sm_90"] + defs + ["-o", base + ".cubin", base + ".cu"])


if __name__ == "__main__":
    sys.exit(main())
