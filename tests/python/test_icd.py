"""The Intel CPU OpenCL runtime for PyOpenCL's bundled ICD loader:
sgcc.opencl_env(), python/sgcc/icd.py and scripts/intel-ocl-env.sh, also
inside a virtual environment."""
import os
import subprocess
import sys
import venv

import pytest

import sgcc
from sgcc import icd
from conftest import ROOT

LIST_PLATFORMS = ("import pyopencl as cl; "
                  "print('|'.join(p.name for p in cl.get_platforms()))")


def intel_or_skip():
    lib = icd.find_intel_opencl()
    if not lib:
        pytest.skip("the Intel CPU OpenCL runtime (intel-opencl-rt) is not installed")
    return lib


def test_vendors_dir(tmp_path):
    system = tmp_path / "etc"
    system.mkdir()
    (system / "pocl.icd").write_text("libpocl.so.2\n")
    d = icd.vendors_dir("/opt/x/libintelocl.so", root=str(tmp_path / "cache"),
                        system_dir=str(system))
    files = {f: open(os.path.join(d, f)).read() for f in os.listdir(d)}
    assert files == {"sgcc-intel-cpu.icd": "/opt/x/libintelocl.so\n",
                     "pocl.icd": "libpocl.so.2\n"}
    (system / "pocl.icd").unlink()            # a vendor gone is gone from the copy too
    d = icd.vendors_dir("/opt/x/libintelocl.so", root=str(tmp_path / "cache"),
                        system_dir=str(system))
    assert os.listdir(d) == ["sgcc-intel-cpu.icd"]


def test_bundled_loader_ignores_filenames_and_reads_vendors(tmp_path):
    """Why OCL_ICD_VENDORS: PyOpenCL's own loader does not read
    OCL_ICD_FILENAMES (checked here, so that the docs stay true)."""
    pytest.importorskip("pyopencl")
    lib = intel_or_skip()
    clean = {k: v for k, v in os.environ.items()
             if k not in ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES")}
    only_filenames = subprocess.run([sys.executable, "-c", LIST_PLATFORMS],
                                    env=dict(clean, OCL_ICD_FILENAMES=lib),
                                    capture_output=True, text=True)
    assert "Intel" not in only_filenames.stdout
    env = dict(clean, **sgcc.opencl_env())
    both = subprocess.run([sys.executable, "-c", LIST_PLATFORMS], env=env,
                          capture_output=True, text=True, check=True).stdout
    assert "Intel(R) OpenCL" in both
    if os.path.exists("/etc/OpenCL/vendors/pocl.icd"):
        assert "Portable Computing Language" in both


def test_script_inside_a_venv(tmp_path):
    lib = intel_or_skip()
    venv.EnvBuilder(with_pip=False).create(tmp_path / "venv")
    path = f"{tmp_path / 'venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    env = dict(os.environ, PATH=path, VIRTUAL_ENV=str(tmp_path / "venv"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("SGCC_INTEL_OCL", None)
    check = subprocess.run(["python3", "-c", "import sys; print(sys.prefix)"], env=env,
                           capture_output=True, text=True, check=True)
    assert check.stdout.strip() == str(tmp_path / "venv")
    out = subprocess.run([str(ROOT / "scripts" / "intel-ocl-env.sh")], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert f"export OCL_ICD_FILENAMES='{lib}'" in out
    vendors = str(tmp_path / "cache" / "sgcc" / "opencl-vendors")
    assert f"export OCL_ICD_VENDORS='{vendors}'" in out
    assert open(os.path.join(vendors, "sgcc-intel-cpu.icd")).read().strip() == lib


def test_script_prints_nothing_without_the_runtime(tmp_path):
    env = dict(os.environ, SGCC_INTEL_OCL=str(tmp_path / "missing.so"))
    out = subprocess.run([str(ROOT / "scripts" / "intel-ocl-env.sh")], env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout == ""


def test_python_m_sgcc_icd_matches_the_script():
    intel_or_skip()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    module = subprocess.run([sys.executable, "-m", "sgcc.icd"], env=env, capture_output=True,
                            text=True, check=True)
    script = subprocess.run([str(ROOT / "scripts" / "intel-ocl-env.sh")], env=env,
                            capture_output=True, text=True, check=True)
    assert module.stdout == script.stdout and module.stderr == ""
