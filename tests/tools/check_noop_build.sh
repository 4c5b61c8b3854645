#!/bin/sh
# check_noop_build.sh NINJA BUILD_DIR — after a build, a second `meson
# compile` must have nothing to do: an output that is never written (say a
# depfile declared as an output) makes every build rerun its rule.  One real
# build first (it settles the symbol files that ninja re-checks with restat
# after a relink), then ninja's dry run must find no work; on failure
# `ninja -d explain` says which output is out of date.
ninja=$1 build=$2
"$ninja" -C "$build" >/dev/null 2>&1 || { echo "the build fails"; exit 1; }
out=$("$ninja" -C "$build" -n 2>&1) || { echo "$out"; exit 1; }
case $out in
    *"no work to do"*) echo "no-op build: nothing to do"; exit 0 ;;
esac
echo "a second build would run:"
echo "$out"
"$ninja" -C "$build" -n -d explain 2>&1 | grep 'ninja explain' | head -40
exit 1
