#!/bin/sh
# mpirun-test.sh NP PROGRAM [ARGS...] — runs PROGRAM on NP ranks of one
# machine with Open MPI's mpirun (from PATH, or $MPIRUN), set up for a test in a container:
# running as root allowed, more ranks than cores allowed, only the
# shared-memory and self transports (no network probing), no ssh/launcher
# agents, no single-copy mechanism that needs ptrace rights.  Variables
# already set in the environment win.
mpirun=${MPIRUN:-mpirun}
np=$1
shift
export OMPI_ALLOW_RUN_AS_ROOT="${OMPI_ALLOW_RUN_AS_ROOT:-1}"
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}"
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}"
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
export OMPI_MCA_plm="${OMPI_MCA_plm:-isolated}"
export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-1}"
export OMPI_MCA_hwloc_base_binding_policy="${OMPI_MCA_hwloc_base_binding_policy:-none}"
# Under the sanitizer pass (scripts/test-sanitize.sh) the ranks keep ASan
# and UBSan but not LeakSanitizer: Open MPI keeps memory to the end of the
# process in components it has dlclose'd by then, so their frames are
# unknown to LSan and no library-name suppression (tests/sanitize/lsan.supp)
# can match them.  Our code's leaks are still found by the same program
# paths in the runtime and multidevice tests, which run with LSan.
case ${ASAN_OPTIONS:-} in
*detect_leaks=1*) export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" ;;
esac
exec "$mpirun" -np "$np" "$@"
