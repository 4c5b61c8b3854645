"""By-value kernel arguments, shared by sgcc.pyopencl and sgcc.cupy: the
NumPy scalar a launch passes for a parameter.  A NumPy scalar must have
exactly the parameter's type (another NumPy type is a mistake worth
naming); a Python bool, int or float is converted to it, as PyOpenCL's
set_scalar_arg_dtypes converts, but range-checked first: NumPy would wrap
an int or turn a float into infinity without a word."""
from __future__ import annotations

import math

import numpy as np

from ._errors import ArgumentError
from ._module import SCALAR_TYPES

_FLOAT32_MAX = float(np.finfo(np.float32).max)


def kind_of(a) -> str:
    return f"{type(a).__module__}.{type(a).__name__}"


def fail(kernel, index, param, what):
    raise ArgumentError(f"argument {index} ('{param.name}') of kernel '{kernel.name}' is "
                        f"{param.describe()}: {what}")


def scalar_converter(kernel, index, param):
    """A function that checks one by-value argument and returns the NumPy
    scalar to pass."""
    if param.type not in SCALAR_TYPES:
        return _struct_converter(kernel, index, param)
    dtype = np.dtype(SCALAR_TYPES[param.type][0])
    convert = {"b": _to_bool, "i": _to_integer, "u": _to_integer,
               "f": _to_floating}[dtype.kind]

    def check_scalar(a):
        if isinstance(a, np.generic):
            if a.dtype == dtype:
                return a
            fail(kernel, index, param, f"a numpy.{a.dtype} was passed (use "
                                       f"numpy.{dtype.name}(...))")
        return convert(kernel, index, param, dtype, a)
    return check_scalar


def _expected(dtype, python_types, a):
    return (f"a numpy.{dtype.name} or a Python {python_types} was expected, but a "
            f"{kind_of(a)} was passed")


def _to_bool(kernel, index, param, dtype, a):
    if isinstance(a, int) and a in (0, 1):   # True, False, 0, 1
        return dtype.type(a)
    if isinstance(a, int):
        fail(kernel, index, param, f"{a} is not a truth value (True/False or 0/1)")
    fail(kernel, index, param, _expected(dtype, "bool", a))


def _to_integer(kernel, index, param, dtype, a):
    # bool is an int, but True for an integer parameter is a slip, as for
    # spec constants; float would drop its fraction.
    if not isinstance(a, int) or isinstance(a, bool):
        fail(kernel, index, param, _expected(dtype, "int", a))
    info = np.iinfo(dtype)
    if not info.min <= a <= info.max:
        fail(kernel, index, param, f"{a} is out of range ({info.min} .. {info.max})")
    return dtype.type(a)


def _to_floating(kernel, index, param, dtype, a):
    if not isinstance(a, (int, float)) or isinstance(a, bool):
        fail(kernel, index, param, _expected(dtype, "float or int", a))
    try:
        value = float(a)
    except OverflowError:
        fail(kernel, index, param, f"{a} is out of range (too large for a double)")
    if dtype == np.float32 and math.isfinite(value) and abs(value) > _FLOAT32_MAX:
        # Rounding may still bring it down to FLT_MAX; NumPy decides.
        with np.errstate(over="ignore"):
            rounded = dtype.type(value)
        if math.isinf(rounded):
            fail(kernel, index, param, f"{a!r} is out of range (magnitude above FLT_MAX)")
        return rounded
    return dtype.type(value)


def _struct_converter(kernel, index, param):
    def check_struct(a):
        if isinstance(a, np.generic) and a.dtype.itemsize == param.size:
            return a
        fail(kernel, index, param, f"a numpy structured scalar of {param.size} bytes was "
                                   f"expected, but a {kind_of(a)} was passed")
    return check_struct
