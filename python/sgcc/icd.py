"""Make the Intel CPU OpenCL runtime (PyPI's intel-opencl-rt) and the
system's ICDs (PoCL) visible to every OpenCL ICD loader, PyOpenCL's too.

Two loaders matter.  The system's (Debian's ocl-icd, used by sgrt and C
programs) honours OCL_ICD_FILENAMES, /etc/OpenCL/vendors and
OCL_ICD_VENDORS.  The one inside PyOpenCL's wheel (pyopencl/.libs/
libOpenCL-*.so, a patched ocl-icd) ignores OCL_ICD_FILENAMES: it reads
OCL_ICD_VENDORS (else /etc/OpenCL/vendors) plus the .icd files in its own
directory.  So the environment printed here names the Intel library in
OCL_ICD_FILENAMES and also points OCL_ICD_VENDORS at a directory holding an
.icd for it plus a copy of each /etc/OpenCL/vendors entry; the system
loader lists a library named in both only once.

Used by scripts/intel-ocl-env.sh (this file runs on its own, standard
library only: `python3 python/sgcc/icd.py`) and as sgcc.opencl_env() /
sgcc.use_opencl_env().  The Intel runtime is looked for in the running
Python, then in the Python a virtual environment was made from, then in the
other pythons on PATH (inside a venv the base Python's packages are
invisible to importlib.metadata), or named by $SGCC_INTEL_OCL."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile

_LIB = "libintelocl.so"
_PROBE = r"""
import importlib.metadata as md, os
try:
    dist = md.distribution("intel-opencl-rt")
except md.PackageNotFoundError:
    raise SystemExit
for f in dist.files or []:
    if str(f).endswith("libintelocl.so"):
        print(os.path.realpath(dist.locate_file(f)))
        break
"""


def _from_metadata():
    try:
        import importlib.metadata as md
        dist = md.distribution("intel-opencl-rt")
    except Exception:   # PackageNotFoundError, or no importlib.metadata
        return None
    for f in dist.files or []:
        if str(f).endswith(_LIB):
            path = os.path.realpath(dist.locate_file(f))
            if os.path.isfile(path):
                return path
    return None


def _prefixes():
    import site
    out = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix]
    try:
        out.append(site.getuserbase())
    except Exception:
        pass
    return [p for i, p in enumerate(out) if p and p not in out[:i]]


def _other_pythons():
    """Interpreters other than this one that may hold the runtime: the base
    of a venv first, then each python3 on PATH outside the venv."""
    me = os.path.realpath(sys.executable)
    found = [getattr(sys, "_base_executable", None),
             os.path.join(sys.base_prefix, "bin", "python3")]
    venv = os.environ.get("VIRTUAL_ENV")
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if venv and os.path.realpath(d).startswith(os.path.realpath(venv) + os.sep):
            continue
        found.append(shutil.which("python3", path=d))
    found += ["/usr/local/bin/python3", "/usr/bin/python3"]
    out = []
    for p in found:
        if p and os.path.isfile(p) and os.path.realpath(p) != me and p not in out:
            out.append(p)
    return out


def find_intel_opencl():
    """The path of libintelocl.so, or None."""
    env = os.environ.get("SGCC_INTEL_OCL")
    if env:
        return os.path.realpath(env) if os.path.isfile(env) else None
    path = _from_metadata()
    if path:
        return path
    for prefix in _prefixes():
        cand = os.path.join(prefix, "lib", _LIB)
        if os.path.isfile(cand):
            return os.path.realpath(cand)
    clean = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH",
                                                              "PYTHONHOME")}
    for python in _other_pythons():
        try:
            out = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True,
                                 timeout=30, env=clean).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        if out and os.path.isfile(out):
            return out
    return None


def _cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sgcc")


def _write(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    os.chmod(tmp, 0o644)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def vendors_dir(intel_lib, root=None, system_dir="/etc/OpenCL/vendors"):
    """A directory for OCL_ICD_VENDORS: intel.icd naming `intel_lib` and a
    copy of every .icd of `system_dir`.  Rewritten in place (temporary file
    + rename), so concurrent callers agree."""
    d = os.path.join(root or _cache_root(), "opencl-vendors")
    os.makedirs(d, exist_ok=True)
    wanted = {"sgcc-intel-cpu.icd": intel_lib + "\n"}
    for icd in sorted(glob.glob(os.path.join(system_dir, "*.icd"))):
        try:
            with open(icd) as f:
                wanted[os.path.basename(icd)] = f.read()
        except OSError:
            continue
    for name, text in wanted.items():
        _write(os.path.join(d, name), text)
    for stale in glob.glob(os.path.join(d, "*.icd")):
        if os.path.basename(stale) not in wanted:
            try:
                os.unlink(stale)
            except OSError:
                pass
    return d


def opencl_env(root=None):
    """The environment that makes the Intel CPU runtime visible to both ICD
    loaders: {} when the runtime is not installed."""
    lib = find_intel_opencl()
    if not lib:
        return {}
    libdir = os.path.dirname(lib)
    old = os.environ.get("LD_LIBRARY_PATH")
    return {"OCL_ICD_FILENAMES": lib,
            "OCL_ICD_VENDORS": vendors_dir(lib, root),
            "LD_LIBRARY_PATH": libdir + (":" + old if old else "")}


def use_opencl_env():
    """Applies opencl_env() to os.environ and returns it.  Call it before
    PyOpenCL first lists platforms (its loader reads the environment once)."""
    env = opencl_env()
    os.environ.update(env)
    return env


def shell_exports(env):
    lines = []
    for name in ("OCL_ICD_FILENAMES", "OCL_ICD_VENDORS"):
        if name in env:
            lines.append(f"export {name}='{env[name]}'")
    if "LD_LIBRARY_PATH" in env:
        libdir = env["LD_LIBRARY_PATH"].split(":")[0]
        lines.append(f"export LD_LIBRARY_PATH='{libdir}'${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}")
    return "\n".join(lines)


def main(argv=None):
    env = opencl_env()
    if env:
        print(shell_exports(env))
    return 0


if __name__ == "__main__":
    sys.exit(main())
