"""sgcc: translate SGC kernels to OpenCL C and CUDA C from Python.

    import sgcc
    module = sgcc.compile(path="reduce.sgc")         # or source="..."
    module.kernels, module.spec_constants, module.opencl_source

sgcc.pyopencl.build() and sgcc.cupy.build() turn a module into a
pyopencl.Program / cupy.RawModule with spec constants bound by name.
docs/PYTHON.md is the guide."""
from ._compile import compile, find_executable
from ._errors import (ArgumentError, CompileError, CompileWarning, SgccError,
                      SpecConstantError, ToolError, UnsupportedError)
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


__version__ = "0.1.0"

__all__ = ["compile", "find_executable", "Module", "Kernel", "Param", "Requires",
           "SpecConstant", "SgccError", "CompileError", "CompileWarning", "ToolError",
           "SpecConstantError", "UnsupportedError", "ArgumentError", "opencl_env",
           "use_opencl_env", "__version__"]
