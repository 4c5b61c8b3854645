#!/bin/sh
# run_cli.sh REDUCE — the Reduce sample's command line on PoCL (OpenCL C 1.2:
# only the tree strategy): a run that prints its strategy, work-group size,
# passes and a correct result; forced strategies PoCL lacks refused with
# exit 3 and a message naming them; bad usage exit 2.  TAP output.
reduce=$1
export SGRT_CACHE=0
n=0 fail=0
check() { # check DESCRIPTION COMMAND-STATUS
    n=$((n + 1))
    if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}
out=$("$reduce" -d opencl:portable -n 1000003 -o min -t long -r 1 2>&1); rc=$?
check "runs (rc=$rc)" $rc
echo "$out" | grep -q '^strategy: tree (chosen by sgrt)$'; check "prints the strategy sgrt chose" $?
echo "$out" | grep -q '^work-group size: [0-9]* (kernel maximum'; check "prints the queried work-group size" $?
echo "$out" | grep -q '^  pass 2: '; check "prints every pass" $?
echo "$out" | grep -q '^RESULT backend=opencl strategy=tree op=min type=long n=1000003 .* correct$'; check "correct result line" $?
for s in builtin subgroup; do
    out=$("$reduce" -d opencl:portable -s $s -n 100 -r 1 2>&1); rc=$?
    [ $rc -eq 3 ]; check "forced $s refused with exit 3 (rc=$rc)" $?
    echo "$out" | grep -q "^reduce: work-group strategy '$s' needs .*, not supported on device"
    check "refusal names $s and what it needs" $?
done
out=$("$reduce" -d opencl:portable -s warp 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "invalid value 'warp'"; check "unknown strategy is a usage error" $?
"$reduce" -n 0 >/dev/null 2>&1; [ $? -eq 2 ]; check "size 0 is a usage error" $?
"$reduce" -t double >/dev/null 2>&1; [ $? -eq 2 ]; check "unknown type is a usage error" $?
echo "1..$n"
exit $fail
