"""Specialization constants: binding by name or ID, value checks, and the
exact spelling of `-DSGC_SPEC_<id>=<value>` (docs/REFERENCE.md "Specialization constants").  The spellings are
those of sgrt (runtime/program.c, format_spec_value): integers with the C
suffix of their type, floating values as C99 hexadecimal floats (glibc's
"%a"), so every value reaches the device compiler exactly."""
from __future__ import annotations

import math
import numbers
import struct

from ._errors import SpecConstantError

_INT_RANGES = {
    "char": (-2**7, 2**7 - 1), "uchar": (0, 2**8 - 1),
    "short": (-2**15, 2**15 - 1), "ushort": (0, 2**16 - 1),
    "int": (-2**31, 2**31 - 1), "uint": (0, 2**32 - 1),
    "long": (-2**63, 2**63 - 1), "ulong": (0, 2**64 - 1),
}


def find_spec(module, key):
    """The spec constant named `key` (str) or with ID `key` (int)."""
    if isinstance(key, str):
        for s in module.spec_constants:
            if s.name == key:
                return s
        names = ", ".join(s.name for s in module.spec_constants) or "none"
        raise SpecConstantError(f"module '{module.name}' has no specialization constant "
                                f"named '{key}' (it has: {names})")
    if isinstance(key, numbers.Integral) and not isinstance(key, bool):
        for s in module.spec_constants:
            if s.id == int(key):
                return s
        raise SpecConstantError(f"module '{module.name}' has no specialization constant "
                                f"with ID {int(key)}")
    raise SpecConstantError(f"specialization constant key {key!r}: use the constant's "
                            f"name (str) or its ID (int)")


def c_hex(value: float) -> str:
    """`value` as glibc's printf("%a") writes it: 0x1.8p+1, 0x0p+0,
    0x0.0000000000001p-1022.  Python's float.hex pads the fraction with
    zeros; the value is the same, the spelling is sgrt's."""
    text = float(value).hex()
    sign = "-" if text.startswith("-") else ""
    mantissa, exponent = text.lstrip("-").split("p")
    whole, _, fraction = mantissa.partition(".")
    fraction = fraction.rstrip("0")
    return f"{sign}{whole}{'.' + fraction if fraction else ''}p{exponent}"


def _floating(value: float, suffix: str) -> str:
    if math.isnan(value):
        return f"(0.0{suffix}/0.0{suffix})"
    if math.isinf(value):
        return f"({'-' if value < 0 else ''}1.0{suffix}/0.0{suffix})"
    return c_hex(value) + suffix


def _describe(spec, module) -> str:
    return f"specialization constant '{spec.name}' (ID {spec.id}) of module '{module.name}'"


def _as_real(spec, module, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SpecConstantError(f"{_describe(spec, module)} is {spec.type}: expected a "
                                f"number, got {type(value).__name__} {value!r}")
    return float(value)


def _as_integer(spec, module, value) -> int:
    kind = type(value).__name__
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SpecConstantError(f"{_describe(spec, module)} is {spec.type}: expected an "
                                f"integer, got {kind} {value!r}")
    lo, hi = _INT_RANGES[spec.type]
    if not lo <= int(value) <= hi:
        raise SpecConstantError(f"{_describe(spec, module)} is {spec.type}: {int(value)} is "
                                f"out of range ({lo} .. {hi})")
    return int(value)


def is_numpy_bool(value) -> bool:
    """numpy.bool_ (numpy.bool in NumPy 2), which is not numbers.Integral;
    told by its dtype so that this module needs no NumPy."""
    return getattr(getattr(value, "dtype", None), "kind", None) == "b" and \
        getattr(value, "ndim", None) == 0


def format_value(spec, module, value) -> str:
    """The C spelling of `value` for `spec`, after checking type and range."""
    t = spec.type
    if t == "bool":
        if is_numpy_bool(value):
            return "1" if bool(value) else "0"
        if isinstance(value, numbers.Integral) and int(value) in (0, 1):
            return "1" if int(value) else "0"
        raise SpecConstantError(f"{_describe(spec, module)} is bool: expected True/False "
                                f"(or 0/1), got {type(value).__name__} {value!r}")
    if t in ("float", "double"):
        v = _as_real(spec, module, value)
        if t == "double":
            return _floating(v, "")
        if math.isfinite(v):
            try:
                rounded = struct.unpack("f", struct.pack("f", v))[0]   # round to float32
            except OverflowError:
                rounded = math.inf
            if math.isinf(rounded):
                raise SpecConstantError(f"{_describe(spec, module)} is float: {v!r} is "
                                        f"out of range (magnitude above FLT_MAX)")
            v = rounded
        return _floating(v, "f")
    if t in _INT_RANGES:
        v = _as_integer(spec, module, value)
        suffix = {"uint": "u", "long": "L", "ulong": "UL"}.get(t, "")
        lo = _INT_RANGES[t][0]
        if t in ("int", "long") and v == lo:   # no literal for the minimum
            return f"({v + 1}{suffix}-1)"
        return f"{v}{suffix}"
    raise SpecConstantError(f"{_describe(spec, module)} has type '{t}', which sgcc's "
                            f"Python binding cannot set")


def resolve(module, spec_values):
    """{spec.id: (spec, spelling)} for the values given by name or ID.
    Raises SpecConstantError on an unknown key, a constant given twice, a
    bad value or a required constant left unset (sgrt's message)."""
    bound = {}
    for key, value in (spec_values or {}).items():
        spec = find_spec(module, key)
        if spec.id in bound:
            raise SpecConstantError(f"{_describe(spec, module)} is given twice (by name and "
                                    f"by ID)")
        bound[spec.id] = (spec, format_value(spec, module, value), value)
    for spec in module.spec_constants:
        if spec.required and spec.id not in bound:
            raise SpecConstantError(f"specialization constant '{spec.name}' (ID {spec.id}) "
                                    f"of module '{module.name}' is required and has no "
                                    f"value; set it before building")
    return bound


def define_options(module, bound):
    """-DSGC_SPEC_<id>=<value> for each bound constant, in declaration order
    (the order of the module's table, as sgrt's compose_options)."""
    return [f"-D{s.macro}={bound[s.id][1]}" for s in module.spec_constants if s.id in bound]


def value_of(module, bound, spec_id):
    """The value the build uses for constant `spec_id` (bound or default)."""
    if spec_id in bound:
        return bound[spec_id][2]
    return find_spec(module, int(spec_id)).default


def reqd_work_group_size(module, bound, kernel):
    """The kernel's required work-group size (x, y, z) with its spec
    constants resolved; None without the attribute."""
    if kernel.reqd_work_group_size is None:
        return None
    return tuple(int(value_of(module, bound, d["id"])) if isinstance(d, dict) else int(d)
                 for d in kernel.reqd_work_group_size)


def check_work_group_sizes(module, bound, backend, max_items=0, device_name=None):
    """Raises SpecConstantError when a required work-group size that a spec
    constant sets comes out with a dimension below 1, or with more
    work-items than the device allows (`max_items`; 0: not known): the
    device compiler would refuse it, and CUDA only when the kernel is first
    fetched.  Kernels not in `backend`'s source are skipped."""
    for k in module.kernels:
        dims = k.reqd_work_group_size
        if dims is None or not k.supported(backend) or \
                not any(isinstance(d, dict) for d in dims):
            continue
        size = reqd_work_group_size(module, bound, k)
        names = ", ".join(f"'{d.get('spec_constant', d['id'])}'"
                          for d in dims if isinstance(d, dict))
        what = (f"kernel '{k.name}' of module '{module.name}' requires work-group size "
                f"{size} (reqd_work_group_size set by specialization constant {names})")
        if min(size) < 1:
            raise SpecConstantError(f"{what}: every dimension must be at least 1")
        items = size[0] * size[1] * size[2]
        if max_items and items > max_items:
            raise SpecConstantError(f"{what}: {items} work-items, more than device "
                                    f"'{device_name}' allows ({max_items})")
