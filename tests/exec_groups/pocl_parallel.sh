#!/bin/sh
# pocl_parallel.sh HOST GEN_DIR LOG_DIR [PLATFORM] — the sgcc group matrix
# (exec_host.c --per-kind --local 64: every predicate pattern, one program
# per group kind, which PoCL 5's kernel compiler needs to finish; work-group
# size 64 only, because PoCL 5 makes the whole work-group one sub-group and
# sgcc's lane masks hold 64) on one OpenCL platform, one process per element
# type in parallel: PoCL compiles each kernel slowly, and the GPU machine
# has the cores.  LIMIT (500 s) bounds each process, so the whole run
# fits one device-tool call; a process cut off shows how far it got.  Prints each process's last lines; exits 1 if any check failed.
host=${1:?usage: pocl_parallel.sh HOST GEN_DIR LOG_DIR [PLATFORM]}
gen=${2:?}
logs=${3:?}
platform=${4:-Portable}
mkdir -p "$logs"
for t in _bool _char _uchar _short _ushort _int _uint _long _ulong _float _double vote; do
    echo "$t"
done | xargs -P 12 -I{} sh -c \
    'timeout "${LIMIT:-500}" "$1" -p "$2" -N 4 --per-kind --local 64 -k "$3" "$4" >"$5/matrix$3.log" 2>&1; echo "$3 rc=$?" >>"$5/rc.txt"' \
    _ "$host" "$platform" {} "$gen" "$logs"
status=0
for log in "$logs"/matrix*.log; do
    echo "== $(basename "$log" .log)"
    tail -n 3 "$log"
done
cat "$logs/rc.txt"
grep -qv " rc=0$" "$logs/rc.txt" && status=1
exit $status
