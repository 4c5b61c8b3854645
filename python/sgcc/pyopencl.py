"""sgcc for PyOpenCL: build a translated module for a device, with the
specialization constants bound by name, the tier defines the device needs,
and sgrt's refusals; launch kernels with their arguments checked.

    import numpy as np, pyopencl as cl, sgcc   # sgcc.pyopencl: imported on first use
    ctx = cl.create_some_context()
    prog = sgcc.pyopencl.build(ctx, sgcc.compile(path="reduce.sgc"), spec={"block": 64})
    k = sgcc.pyopencl.Kernel(prog, "partial_sums")
    k(queue, (n,), (64,), in_buf, out_buf)

docs/PYTHON.md describes it; sgcc/_caps.py says where each rule comes from."""
from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pyopencl as cl

from . import _args, _caps, _spec
from ._errors import ArgumentError, UnsupportedError
from ._module import SCALAR_TYPES

__all__ = ["build", "build_options", "default_device", "device_caps", "Kernel", "kernels"]

_INTEL_SUB_GROUP_SIZES = 0x4108   # CL_DEVICE_SUB_GROUP_SIZES_INTEL


def _devices_of(context_or_device):
    if isinstance(context_or_device, cl.Device):
        return cl.Context([context_or_device]), [context_or_device]
    if isinstance(context_or_device, cl.Context):
        return context_or_device, list(context_or_device.devices)
    raise TypeError("sgcc.pyopencl.build: expected a pyopencl.Context or pyopencl.Device, "
                    f"got {type(context_or_device).__name__}")


def _opencl_library():
    """The ICD loader PyOpenCL itself loaded (the wheel bundles one), for
    the one query PyOpenCL does not know; any loader dispatches a device
    handle, so the system's libOpenCL serves as a fallback."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                if "libOpenCL" in path and path.startswith("/"):
                    return ctypes.CDLL(path)
    except OSError:
        pass
    name = ctypes.util.find_library("OpenCL")
    return ctypes.CDLL(name) if name else None


def _intel_sub_group_sizes(device):
    try:
        lib = _opencl_library()
        if lib is None:
            return ()
        fn = lib.clGetDeviceInfo
        fn.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t, ctypes.c_void_p,
                       ctypes.POINTER(ctypes.c_size_t)]
        sizes = (ctypes.c_size_t * 16)()
        got = ctypes.c_size_t(0)
        if fn(device.int_ptr, _INTEL_SUB_GROUP_SIZES, ctypes.sizeof(sizes), sizes,
              ctypes.byref(got)) != 0:
            return ()
        return tuple(sizes[i] for i in range(got.value // ctypes.sizeof(ctypes.c_size_t)))
    except (OSError, AttributeError):
        return ()


def _opencl_c_version(device):
    try:
        text = device.opencl_c_version   # "OpenCL C 3.0 ..."
        major, minor = text.split()[2].split(".")[:2]
        return int(major), int("".join(ch for ch in minor if ch.isdigit()) or 0)
    except (cl.Error, IndexError, ValueError):
        return 1, 2


def device_caps(device) -> _caps.DeviceCaps:
    """What `device` offers, decided as sgrt decides it."""
    platform = device.platform
    opencl_c = _opencl_c_version(device)
    features = ()
    if opencl_c[0] >= 3:
        try:
            features = tuple(f.name for f in device.opencl_c_features)
        except (cl.Error, AttributeError):
            features = ()
    extensions = device.extensions
    kind = ("gpu" if device.type & cl.device_type.GPU else
            "cpu" if device.type & cl.device_type.CPU else
            "accelerator" if device.type & cl.device_type.ACCELERATOR else "other")
    nv_sm = 0
    if "NVIDIA" in platform.name or "NVIDIA" in device.vendor:
        try:
            major = device.compute_capability_major_nv
            minor = device.compute_capability_minor_nv
            if major < 100 and minor < 10:
                nv_sm = major * 10 + minor
        except (cl.Error, AttributeError):
            pass
    sizes = ()
    if "cl_intel_required_subgroup_size" in extensions.split():
        sizes = _intel_sub_group_sizes(device)
    try:
        fp64 = device.double_fp_config
    except cl.Error:
        fp64 = 0
    return _caps.opencl_caps(platform.name, device.vendor, device.name, kind, opencl_c,
                             extensions, features, fp64, sizes, nv_sm,
                             device.max_work_group_size)


def default_device(module=None):
    """sgrt's default device: the first GPU, else the first CPU, else any
    other device, a simulator that claims every device type (Oclgrind) last;
    with `module`, the first such device that can run every kernel of it.
    Raises UnsupportedError naming why each device was passed over."""
    try:
        devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    except cl.Error:
        devices = []

    def rank(d):
        t = d.type
        if t & cl.device_type.GPU and t & cl.device_type.CPU:
            return 3   # claims every type: a simulator (Oclgrind, bundled with PyOpenCL)
        return 0 if t & cl.device_type.GPU else 1 if t & cl.device_type.CPU else 2
    devices.sort(key=rank)   # stable: platform order within a rank
    reasons = []
    for d in devices:
        if module is None:
            return d
        try:
            _caps.check_buildable(module, device_caps(d))
            return d
        except UnsupportedError as e:
            reasons.append(str(e))
    raise UnsupportedError("no OpenCL device can run the module" +
                           "".join(f"\n  {r}" for r in reasons))


def build_options(device, module, spec=None, options=None, wg_strategy=None):
    """The list of options `build` passes for `device`, after its checks,
    as Program.build(options=...) takes it: OpenCL C version, tier defines
    (-DSGC_NV_PTX=1 on NVIDIA), -DSGC_DEVICE_CPU=1 on CPUs,
    -DSGC_WG_MAX_ITEMS=<the device's largest work-group>,
    -DSGC_WG_STRATEGY=N, the spec-constant defines, then `options`."""
    return _build_plan(device, module, spec, options, wg_strategy)[0]


def _build_plan(device, module, spec, options, wg_strategy):
    """(options, bound spec values) for `device`, after every check."""
    caps = device_caps(device)
    _caps.check_buildable(module, caps)
    bound = _spec.resolve(module, spec)
    _spec.check_work_group_sizes(module, bound, "opencl", caps.max_work_group_size, caps.name)
    return (_caps.opencl_device_options(caps) + [_caps.wg_strategy_option(caps, wg_strategy)]
            + _spec.define_options(module, bound) + _user_options(options)), bound


def _user_options(options):
    if options is None:
        return []
    if isinstance(options, str):
        return options.split()
    return [str(o) for o in options]


def build(context_or_device, module, spec=None, options=None, *, wg_strategy=None,
          cache_dir=None):
    """Builds `module` (from sgcc.compile) for the context's devices and
    returns the pyopencl.Program.  spec: {name or ID: value}; options:
    extra build options (str or list); wg_strategy: "tree", "builtin" or
    "subgroup" (default: the device's best, as sgrt picks it).  Raises
    UnsupportedError before any build when a device cannot run the module
    (a kernel it cannot run that the source cannot leave out, or none it
    can run; one the build leaves out is refused by Kernel() by name),
    SpecConstantError for a bad or missing constant (or a required
    work-group size a constant sets that the device cannot run), and pyopencl's
    RuntimeError when the device compiler fails."""
    context, devices = _devices_of(context_or_device)
    per_device = [_build_plan(d, module, spec, options, wg_strategy) for d in devices]
    opts = per_device[0][0]
    if any(o != opts for o, _ in per_device[1:]):
        raise UnsupportedError("sgcc.pyopencl.build: the context's devices need different "
                               "build options; build for each device separately")
    program = cl.Program(context, module.opencl_source).build(options=opts,
                                                              cache_dir=cache_dir)
    program.sgcc_module = module
    program.sgcc_spec = per_device[0][1]
    program.sgcc_options = opts
    # Kernels the devices cannot run, left out by -DSGC_SKIP_UNSUPPORTED_KERNELS.
    program.sgcc_refused = {}
    for d in devices:
        program.sgcc_refused.update(_caps.check_buildable(module, device_caps(d)))
    return program


class Kernel:
    """A kernel of a program from `build`, called like a pyopencl.Kernel
    (queue, global_size, local_size, *args, wait_for=None) with every
    argument checked against the kernel's parameters first: pyopencl
    buffers (or pyopencl.array.Array of the element type) for global and
    constant pointers, pyopencl.LocalMemory for local pointers, for
    by-value parameters a numpy scalar of exactly the parameter's type or
    a Python bool/int/float, converted to it after a range check."""

    def __init__(self, program, name):
        module = getattr(program, "sgcc_module", None)
        if module is None:
            raise TypeError("sgcc.pyopencl.Kernel: the program was not built by "
                            "sgcc.pyopencl.build")
        self.desc = module.kernel(name)
        refusal = _caps.kernel_refusal(module, self.desc, "opencl") or \
            _caps.left_out_refusal(module, name, getattr(program, "sgcc_refused", None))
        if refusal:
            raise refusal
        self.name = name
        self.program = program
        self.cl_kernel = cl.Kernel(program, name)
        self.reqd_work_group_size = _spec.reqd_work_group_size(module, program.sgcc_spec,
                                                               self.desc)
        self._checks = [_checker(self.desc, i, p) for i, p in enumerate(self.desc.params)]
        self._fits = set()
        self._needs_fit_check = self.desc.requires.sub_groups and not any(
            device_caps(d).nvptx for d in program.get_info(cl.program_info.DEVICES))

    def __repr__(self) -> str:
        size = (f", work-group size {self.reqd_work_group_size}"
                if self.reqd_work_group_size else "")
        return (f"<sgcc.pyopencl.Kernel {self.desc.signature()} of module "
                f"'{self.program.sgcc_module.name}'{size}>")

    def _check_sub_group_fits(self, device, local_size):
        """sgrt's launch check (runtime/kernel.c check_sub_group_fits): sgcc's
        group library keeps a sub-group in a 64-bit mask, so a device that
        makes larger sub-groups for this work-group size (PoCL 5 makes the
        whole work-group one) is refused rather than computing wrong answers."""
        if local_size in self._fits:
            return
        try:
            size = self.cl_kernel.get_sub_group_info(
                device, cl.kernel_sub_group_info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local_size)
        except (cl.Error, AttributeError, TypeError):
            size = 0   # not queryable (OpenCL 1.2): nothing to check, as in sgrt
        if size > 64:
            raise UnsupportedError(
                f"launch of '{self.name}': device '{device.name}' makes sub-groups of {size} "
                f"work-items for this work-group size; sgcc's group library holds at most 64; "
                f"use a work-group of at most 64 work-items")
        self._fits.add(local_size)

    def __call__(self, queue, global_size, local_size, *args, wait_for=None,
                 global_offset=None):
        params = self.desc.params
        if len(args) != len(params):
            raise ArgumentError(
                f"kernel '{self.name}' takes {len(params)} argument(s) "
                f"({', '.join(p.name for p in params)}), {len(args)} given")
        values = [check(a) for check, a in zip(self._checks, args)]
        local_size = self._local_size(global_size, local_size)
        if local_size is not None and self._needs_fit_check:
            self._check_sub_group_fits(queue.device, tuple(local_size))
        if wait_for is None and global_offset is None:   # PyOpenCL's quickest path
            return self.cl_kernel(queue, global_size, local_size, *values)
        return self.cl_kernel(queue, global_size, local_size, *values, wait_for=wait_for,
                              global_offset=global_offset)

    def _local_size(self, global_size, local_size):
        want = self.reqd_work_group_size
        if want is None:
            return local_size
        dims = len(global_size)
        if local_size is None:
            return want[:dims]
        given = tuple(local_size) + (1,) * (3 - len(local_size))
        if given != want:
            raise ArgumentError(f"launch of '{self.name}': local size {tuple(local_size)} "
                                f"differs from its required work-group size {want}")
        return local_size


def _checker(kernel, index, param):
    """A function that checks one argument and returns what PyOpenCL takes."""
    def fail(what):
        _args.fail(kernel, index, param, what)

    def passed(a):
        return f"{_args.kind_of(a)} was passed"

    if param.kind in ("global", "constant"):
        elem = np.dtype(SCALAR_TYPES[param.type][0]) if param.type in SCALAR_TYPES else None

        def check_buffer(a):
            if isinstance(a, cl.MemoryObjectHolder):
                return a
            data = getattr(a, "base_data", None)
            if data is not None and hasattr(a, "dtype"):
                if elem is not None and a.dtype != elem:
                    fail(f"a pyopencl.array.Array of {a.dtype} was passed")
                if a.offset:
                    fail("an array with an offset was passed (pass the buffer)")
                return data
            fail(f"a buffer was expected, but a {passed(a)}")
        return check_buffer
    if param.kind == "local":
        def check_local(a):
            if not isinstance(a, cl.LocalMemory):
                fail(f"pyopencl.LocalMemory(nbytes) was expected, but a {passed(a)}")
            if a.size == 0:
                fail("local-memory size 0")
            return a
        return check_local
    return _args.scalar_converter(kernel, index, param)


class _Kernels:
    def __init__(self, program):
        self._program = program
        for k in program.sgcc_module.kernels:
            if k.supported("opencl"):
                setattr(self, k.name, Kernel(program, k.name))


def kernels(program):
    """Every kernel of `program` as checked callables: kernels(prog).name(...)."""
    return _Kernels(program)
