"""Shared fixtures of the Python tests (tests/python, suite 'python').

The sgcc executable comes from $SGCC_EXE (meson sets it to the build's
sgcc); the package from python/ of this checkout (meson sets PYTHONPATH),
or an installed one.  Translations are cached under a per-session
directory, never the user's ~/.cache/sgcc.  OpenCL devices: the Intel CPU
runtime and PoCL, made visible to PyOpenCL's bundled ICD loader with
sgcc.use_opencl_env() before PyOpenCL lists platforms."""
import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if "SGCC_TEST_INSTALLED" not in os.environ:
    sys.path.insert(0, str(ROOT / "python"))

import sgcc  # noqa: E402

KERNELS = HERE / "kernels"

if "OCL_ICD_VENDORS" not in os.environ:
    sgcc.use_opencl_env()

# name -> substring of the OpenCL platform name
# (NVIDIA's OpenCL only on the GPU machine.)
OPENCL_DEVICES = {"intel": "Intel", "pocl": "Portable Computing Language", "nvidia": "NVIDIA"}


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    old = os.environ.get("SGCC_CACHE_DIR")
    os.environ["SGCC_CACHE_DIR"] = str(tmp_path_factory.mktemp("sgcc-cache"))
    yield
    if old is None:
        os.environ.pop("SGCC_CACHE_DIR", None)
    else:
        os.environ["SGCC_CACHE_DIR"] = old


def opencl_device(which):
    """The first device of the platform `which` names, or skip."""
    cl = pytest.importorskip("pyopencl")
    try:
        platforms = cl.get_platforms()
    except cl.Error:
        platforms = []
    for p in platforms:
        if OPENCL_DEVICES[which] in p.name:
            devices = p.get_devices()
            if devices:
                return devices[0]
    pytest.skip(f"no {which} OpenCL platform")


@pytest.fixture(params=sorted(OPENCL_DEVICES))
def cl_env(request):
    """(context, queue, device) on each CPU OpenCL runtime."""
    cl = pytest.importorskip("pyopencl")
    device = opencl_device(request.param)
    ctx = cl.Context([device])
    return ctx, cl.CommandQueue(ctx), device


@pytest.fixture(params=["intel", "nvidia"])
def sub_group_env(request):
    """(context, queue, device) on each runtime with non-uniform groups."""
    cl = pytest.importorskip("pyopencl")
    device = opencl_device(request.param)
    ctx = cl.Context([device])
    return ctx, cl.CommandQueue(ctx), device


@pytest.fixture
def intel_env():
    cl = pytest.importorskip("pyopencl")
    device = opencl_device("intel")
    ctx = cl.Context([device])
    return ctx, cl.CommandQueue(ctx), device


@pytest.fixture
def pocl_env():
    cl = pytest.importorskip("pyopencl")
    device = opencl_device("pocl")
    ctx = cl.Context([device])
    return ctx, cl.CommandQueue(ctx), device
