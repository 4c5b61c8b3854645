set -u
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
nvcc -arch=sm_90 -std=c++17 -o /tmp/probe tests/exec_barrier/synccheck_probe.cu || exit 1
/tmp/probe
"$san" --tool synccheck --print-limit 2 /tmp/probe 2>&1 | grep -v "Host Frame" | head -40
