"""sgcc for CuPy: a cupy.RawModule from a translated module, with the
specialization constants bound by name and sgrt's refusals; kernels
launched with their arguments checked and `local T *` parameters laid out
in dynamic shared memory as sgrt does (runtime/backends/cuda/cuda.c
marshal_args: one 16-byte-aligned byte offset per local parameter).

    import cupy as cp, sgcc        # sgcc.cupy: imported on first use
    mod = sgcc.cupy.build(sgcc.compile(path="reduce.sgc"), spec={"block": 64})
    k = sgcc.cupy.Kernel(mod, "partial_sums")
    k((n // 64,), (64,), (x, out))

The NVRTC options are sgrt's minus --gpu-architecture, which CuPy adds
itself (-arch=compute_XY of the current device).  `build` checks the
spec-constant values in plain Python before CuPy is touched, and compiles
the module before it returns (CuPy would compile when a kernel is first
fetched), so that every error is raised by `build`."""
from __future__ import annotations

import numpy as np

from . import _args, _caps, _spec
from ._errors import ArgumentError
from ._module import SCALAR_TYPES

__all__ = ["build", "build_options", "check_spec", "device_caps", "Kernel", "LocalMemory"]


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
    return _caps.cuda_caps(name, int(cc[:-1]), int(cc[-1]), props.get("warpSize", 32),
                           props.get("maxThreadsPerBlock", 0))


def check_spec(module, spec=None):
    """Checks the spec-constant values as `build` does, in plain Python
    (no CuPy, no device): unknown names or IDs, a constant given twice,
    wrong types, out-of-range values, required constants left unset, and a
    required work-group size a constant sets below 1 in some dimension.
    Returns {ID: (constant, spelling, value)}; raises SpecConstantError."""
    bound = _spec.resolve(module, spec)
    _spec.check_work_group_sizes(module, bound, "cuda")
    return bound


def build_options(module, spec=None, options=None, caps=None, wg_strategy=None):
    """The list of options `build` passes to NVRTC (after its checks)."""
    return _build_plan(module, check_spec(module, spec), options,
                       caps or device_caps(), wg_strategy)


def _build_plan(module, bound, options, caps, wg_strategy):
    """The NVRTC options for `caps`, after the checks that need the device:
    refusals, and required work-group sizes above its threads per block."""
    _caps.check_buildable(module, caps)
    _spec.check_work_group_sizes(module, bound, "cuda", caps.max_work_group_size, caps.name)
    user = options.split() if isinstance(options, str) else list(options or ())
    return [_caps.wg_strategy_option(caps, wg_strategy)] + _spec.define_options(module, bound) \
        + user


def build(module, spec=None, options=None, *, wg_strategy=None, device=None):
    """A cupy.RawModule of `module`'s CUDA source for the current device
    (or `device`), spec constants bound by name or ID, compiled by NVRTC
    before it returns.  Raises SpecConstantError (checked before CuPy is
    imported: check_spec) and UnsupportedError before NVRTC runs, and
    CuPy's CompileException when NVRTC fails."""
    bound = check_spec(module, spec)
    cp = _cupy()
    caps = device_caps(device)
    opts = _build_plan(module, bound, options, caps, wg_strategy)
    raw = _raw_module(cp, code=module.cuda_source, options=tuple(opts), backend="nvrtc")
    raw.sgcc_module = module
    raw.sgcc_spec = bound
    raw.sgcc_options = opts
    if device is not None:
        with device:
            _compile_now(raw)
    else:
        _compile_now(raw)
    return raw


def _compile_now(raw):
    """Runs NVRTC now: CuPy compiles on the first get_function, which would
    turn an error of the build into one of the first kernel fetched.
    RawModule.compile() is CuPy 9's; before it, the `module` property."""
    compile_module = getattr(raw, "compile", None)
    if compile_module is not None:
        compile_module()
    else:
        raw.module   # noqa: B018 - compiles as a side effect


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
    pointers, by value a numpy scalar of exactly the parameter's type or a
    Python bool/int/float, converted to it after a range check."""

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
        self._scalars = {i: _args.scalar_converter(self.desc, i, p)
                         for i, p in enumerate(self.desc.params) if p.kind == "scalar"}

    def __repr__(self) -> str:
        return (f"<sgcc.cupy.Kernel {self.desc.signature()} of module "
                f"'{self.raw_module.sgcc_module.name}'>")

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
                values.append(self._scalars[i](a))
        kwargs = {"shared_mem": shared + int(shared_mem)}
        if stream is not None:
            kwargs["stream"] = stream
        return self.function(tuple(grid), tuple(block), tuple(values), **kwargs)


def _kind(a):
    return _args.kind_of(a)


def _fail(kernel, index, param, what):
    _args.fail(kernel, index, param, what)
