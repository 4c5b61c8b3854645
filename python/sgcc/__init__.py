"""sgcc: translate SGC kernels to OpenCL C and CUDA C from Python.

    import sgcc
    module = sgcc.compile(path="reduce.sgc")         # or source="..."
    module.kernels, module.spec_constants, module.opencl_source

sgcc.pyopencl.build() and sgcc.cupy.build() turn a module into a
pyopencl.Program / cupy.RawModule with spec constants bound by name; both
are attributes of the package, imported (with PyOpenCL or CuPy) only when
first used.  docs/PYTHON.md is the guide."""
import importlib

from ._compile import compile, find_executable
from ._errors import (ArgumentError, CompileError, CompileTimeoutError, CompileWarning,
                      SgccError, SourceNotFoundError, SpecConstantError, ToolError,
                      UnsupportedError)
from ._module import Kernel, Module, Param, Requires, SpecConstant


def opencl_env():
    """The environment that makes the Intel CPU OpenCL runtime visible to
    every ICD loader, PyOpenCL's too (sgcc.icd); {} without the runtime."""
    from . import icd   # not at import: `python -m sgcc.icd` runs it as __main__
    return icd.opencl_env()


def use_opencl_env():
    """Applies opencl_env() to os.environ (before PyOpenCL lists platforms)."""
    from . import icd
    return icd.use_opencl_env()


# Submodules reached as attributes (PEP 562) and imported on first use, so
# that `import sgcc` imports neither PyOpenCL nor CuPy.
_LAZY_SUBMODULES = ("pyopencl", "cupy", "icd")


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)   # binds sgcc.<name> too
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES))


__version__ = "0.1.0"

__all__ = ["compile", "find_executable", "Module", "Kernel", "Param", "Requires",
           "SpecConstant", "SgccError", "CompileError", "CompileWarning", "ToolError",
           "CompileTimeoutError", "SourceNotFoundError", "SpecConstantError",
           "UnsupportedError", "ArgumentError", "opencl_env", "use_opencl_env", "__version__"]
