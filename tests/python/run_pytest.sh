#!/bin/sh
# run_pytest.sh SGCC SOURCE_ROOT [PYTEST ARGS] — the Python tests (meson suite
# 'python'): the package in SOURCE_ROOT/python against the sgcc built here.
# Exits 77 (meson: SKIP) when pytest is not installed
# (scripts/install-deps.sh installs pytest, numpy and pyopencl).
sgcc=$1 root=$2
shift 2
if ! python3 -c 'import pytest' 2>/dev/null; then
    echo "SKIP: pytest is not installed (scripts/install-deps.sh)"
    exit 77
fi
SGCC_EXE=$sgcc PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} PYTHONDONTWRITEBYTECODE=1 \
    exec python3 -m pytest -p no:cacheprovider -q -rs "$root/tests/python" "$@"
