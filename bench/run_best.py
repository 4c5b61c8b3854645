#!/usr/bin/env python3
"""run_best.py RUNS CMD... — runs CMD RUNS times (stdout discarded) and prints
"best_wall_s best_cpu_s peak_rss_kib": the fastest wall time, the smallest
CPU time (user + system of the child) and the largest peak RSS, measured with
getrusage, which resolves microseconds where /usr/bin/time prints 10 ms.
Exits non-zero if any run fails."""
import resource
import subprocess
import sys
import time


def main():
    runs = int(sys.argv[1])
    cmd = sys.argv[2:]
    best_wall = best_cpu = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall = wall if best_wall is None else min(best_wall, wall)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"{best_wall:.4f} {best_cpu:.4f} {peak}")


if __name__ == "__main__":
    main()
