#!/usr/bin/env bash
# intel-ocl-env.sh — prints the exports that make the OpenCL ICD loaders use
# the Intel CPU OpenCL runtime installed from PyPI (intel-opencl-rt), e.g.
#   eval "$(scripts/intel-ocl-env.sh)"
# OCL_ICD_FILENAMES serves the system's loader (sgrt, C programs);
# OCL_ICD_VENDORS, a directory with an .icd for the Intel library and a copy
# of each /etc/OpenCL/vendors entry (PoCL), serves the loader bundled in
# PyOpenCL's wheel, which ignores OCL_ICD_FILENAMES.  The runtime is found in
# whichever Python has it: inside a virtual environment the base Python's
# packages too (python/sgcc/icd.py says how).  Prints nothing when the
# runtime is not installed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
python3 "$here/python/sgcc/icd.py"
