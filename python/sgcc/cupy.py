"""sgcc for CuPy: a cupy.RawModule from a translated module, with the
specialization constants bound by name and sgrt's refusals; kernels
launched with their arguments checked and `local T *` parameters laid out
in dynamic shared memory as sgrt does (runtime/cuda.c marshal_args: one
16-byte-aligned byte offset per local parameter).

    import cupy as cp, sgcc, sgcc.cupy
    mod = sgcc.cupy.build(sgcc.compile(path="reduce.sgc"), spec={"block": 64})
    k = sgcc.cupy.Kernel(mod, "partial_sums")
    k((n // 64,), (64,), (x, out))

The NVRTC options are sgrt's minus --gpu-architecture, which CuPy adds
itself (-arch=compute_XY of the current device)."""
from __future__ import annotations

import numpy as np

from . import _caps, _spec
from ._errors import ArgumentError
from ._module import SCALAR_TYPES

__all__ = ["build", "build_options", "device_caps", "Kernel", "LocalMemory"]


def _cupy():
    import cupy   # imported late: `import sgcc.cupy` works without CuPy installed
    return cupy


_raw_module_classes = {}


def _raw_module(cp, **kwargs):
    """A cupy.RawModule that can carry what `build` bound: RawModule is a
    Cython class without a __dict__, a Python subclass of it has one."""
    cls = _raw_module_classes.get(cp.RawModule)
    if cls is None:
        class RawModule(cp.RawModule):
            """cupy.RawModule with sgcc_module, sgcc_spec and sgcc_options."""
        cls = _raw_module_classes[cp.RawModule] = RawModule
    return cls(**kwargs)


def device_caps(device=None) -> _caps.DeviceCaps:
    cp = _cupy()
    dev = device if device is not None else cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    cc = dev.compute_capability   # "90"
    return _caps.cuda_caps(name, int(cc[:-1]), int(cc[-1]), props.get("warpSize", 32))


def build_options(module, spec=None, options=None, caps=None, wg_strategy=None):
    """(options, bound spec values) that `build` passes to NVRTC."""
    caps = caps or device_caps()
    _caps.check_buildable(module, caps)
    bound = _spec.resolve(module, spec)
    user = options.split() if isinstance(options, str) else list(options or ())
    return ([_caps.wg_strategy_option(caps, wg_strategy)] + _spec.define_options(module, bound)
            + user), bound


def build(module, spec=None, options=None, *, wg_strategy=None, device=None):
    """A cupy.RawModule of `module`'s CUDA source for the current device
    (or `device`), spec constants bound by name or ID.  Raises
    UnsupportedError / SpecConstantError before NVRTC runs."""
    cp = _cupy()
    caps = device_caps(device)
    opts, bound = build_options(module, spec, options, caps, wg_strategy)
    raw = _raw_module(cp, code=module.cuda_source, options=tuple(opts), backend="nvrtc")
    raw.sgcc_module = module
    raw.sgcc_spec = bound
    raw.sgcc_options = opts
    return raw


class LocalMemory:
    """The size in bytes of the dynamic local memory for a `local T *`
    parameter (pyopencl.LocalMemory's counterpart)."""

    def __init__(self, nbytes: int):
        if int(nbytes) <= 0:
            raise ValueError("LocalMemory: size must be positive")
        self.nbytes = int(nbytes)


class Kernel:
    """A kernel of a RawModule from `build`, launched as a cupy.RawKernel
    (grid, block, args) with every argument checked: cupy.ndarray of the
    element type for global and constant pointers, LocalMemory for local
    pointers, numpy scalars of exactly the parameter's type by value."""

    def __init__(self, raw_module, name):
        module = getattr(raw_module, "sgcc_module", None)
        if module is None:
            raise TypeError("sgcc.cupy.Kernel: the module was not built by sgcc.cupy.build")
        self.desc = module.kernel(name)
        refusal = _caps.kernel_refusal(module, self.desc, "cuda")
        if refusal:
            raise refusal
        self.name = name
        self.function = raw_module.get_function(name)
        self.raw_module = raw_module

    def __call__(self, grid, block, args, *, stream=None, shared_mem=0):
        cp = _cupy()
        params = self.desc.params
        if len(args) != len(params):
            raise ArgumentError(
                f"kernel '{self.name}' takes {len(params)} argument(s) "
                f"({', '.join(p.name for p in params)}), {len(args)} given")
        values, shared = [], 0
        for i, (p, a) in enumerate(zip(params, args)):
            if p.kind == "local":
                if not isinstance(a, LocalMemory):
                    _fail(self.desc, i, p, f"sgcc.cupy.LocalMemory(nbytes) was expected, but "
                                           f"a {_kind(a)} was passed")
                shared = (shared + 15) & ~15
                values.append(np.uint32(shared))
                shared += a.nbytes
            elif p.kind in ("global", "constant"):
                if not isinstance(a, cp.ndarray):
                    _fail(self.desc, i, p, f"a cupy.ndarray was expected, but a {_kind(a)} "
                                           f"was passed")
                want = SCALAR_TYPES.get(p.type)
                if want and a.dtype != np.dtype(want[0]):
                    _fail(self.desc, i, p, f"a cupy.ndarray of {a.dtype} was passed")
                values.append(a)
            else:
                values.append(_scalar(self.desc, i, p, a))
        kwargs = {"shared_mem": shared + int(shared_mem)}
        if stream is not None:
            kwargs["stream"] = stream
        return self.function(tuple(grid), tuple(block), tuple(values), **kwargs)


def _kind(a):
    return f"{type(a).__module__}.{type(a).__name__}"


def _fail(kernel, index, param, what):
    raise ArgumentError(f"argument {index} ('{param.name}') of kernel '{kernel.name}' is "
                        f"{param.describe()}: {what}")


def _scalar(kernel, index, param, a):
    if param.type in SCALAR_TYPES:
        dtype = np.dtype(SCALAR_TYPES[param.type][0])
        if isinstance(a, np.generic) and a.dtype == dtype:
            return a
        if isinstance(a, np.generic):
            _fail(kernel, index, param, f"a numpy.{a.dtype} was passed (use "
                                        f"numpy.{dtype.name}(...))")
        _fail(kernel, index, param, f"a numpy.{dtype.name} was expected, but a {_kind(a)} "
                                    f"was passed")
    if isinstance(a, np.generic) and a.dtype.itemsize == param.size:
        return a
    _fail(kernel, index, param, f"a numpy structured scalar of {param.size} bytes was "
                                f"expected, but a {_kind(a)} was passed")
