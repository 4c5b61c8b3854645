"""What a device offers, and the refusals and build options that follow.

Mirrors sgrt exactly (the messages too), so that a kernel refused by a C
host is refused by a Python host with the same words:
  runtime/backends/opencl/opencl.c  fill_capabilities, fill_info, cl_device_options
  runtime/device.c                  sgrt_device_fill_wg_strategies
  runtime/program.c                 check_buildable, compose_options
  runtime/backends/cuda/cuda.c      capabilities of a CUDA device"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Tuple

from ._errors import UnsupportedError
from ._targets import target

# SGC_WG_STRATEGY values (runtime/sgrt.h, sgrt_wg_strategy).
WG_STRATEGIES = {"tree": 1, "builtin": 2, "subgroup": 3}


@dataclass(frozen=True)
class DeviceCaps:
    name: str
    backend: str                   # a target's name (sgcc/_targets.py): "opencl", "cuda"
    kind: str = "gpu"              # gpu | cpu | accelerator | other
    nvptx: bool = False            # NVIDIA's OpenCL: the nvptx tier
    nv_sm: int = 0                 # compute capability * 10 + minor (NVIDIA)
    opencl_c: Tuple[int, int] = (1, 2)
    sub_groups: bool = False
    non_uniform_groups: bool = False
    split_barriers: bool = False
    fp64: bool = False
    wg_collectives: bool = False
    sub_group_sizes: Tuple[int, ...] = field(default_factory=tuple)
    max_work_group_size: int = 0   # CL_DEVICE_MAX_WORK_GROUP_SIZE / threads per block; 0: unknown

    def __repr__(self) -> str:
        level = target(self.backend).language_level
        facts = [level(self).strip(" ()") if level else f"sm_{self.nv_sm}"]
        if level and self.nvptx and self.nv_sm:
            facts.append(f"sm_{self.nv_sm}")
        if self.sub_groups:
            sizes = ", ".join(str(s) for s in self.sub_group_sizes) or "sizes unknown"
            facts.append(f"sub-groups ({sizes})")
        facts += [what for what, has in (
            ("non-uniform groups", self.non_uniform_groups),
            ("split barriers", self.split_barriers), ("fp64", self.fp64),
            ("work-group collectives", self.wg_collectives)) if has]
        if self.max_work_group_size:
            facts.append(f"work-groups up to {self.max_work_group_size}")
        lacks = [what for what, has in (
            ("sub-groups", self.sub_groups), ("non-uniform groups", self.non_uniform_groups),
            ("split barriers", self.split_barriers), ("fp64", self.fp64)) if not has]
        return (f"<sgcc DeviceCaps {self.name!r}: {self.backend} {self.kind}, tier {self.tier}; "
                f"{', '.join(facts)}" + (f"; no {', no '.join(lacks)}" if lacks else "") + ">")

    @property
    def tier(self) -> str:
        """The OpenCL capability tier the emitted source will pick."""
        fixed = target(self.backend).fixed_tier
        if fixed:
            return fixed
        return "nvptx" if self.nvptx else "khr" if self.sub_groups else "wg"

    def wg_strategies(self):
        """The work-group strategies this device can build, best first."""
        have = ["tree"]
        if self.wg_collectives:   # only the targets that have them set it
            have.append("builtin")
        if self.sub_groups:
            have.append("subgroup")
        return have

    def default_wg_strategy(self) -> str:
        have = self.wg_strategies()
        if "builtin" in have:
            return "builtin"
        if "subgroup" in have and self.kind != "cpu":
            return "subgroup"
        return "tree"


def opencl_caps(platform_name, vendor, device_name, kind, opencl_c, extensions,
                features=(), fp64_config=0, sub_group_sizes=(), nv_sm=0,
                max_work_group_size=0) -> DeviceCaps:
    """DeviceCaps of an OpenCL device from its raw facts
    (runtime/backends/opencl/opencl.c: fill_info + fill_capabilities)."""
    ext = set(extensions.split()) if isinstance(extensions, str) else set(extensions)
    nvptx = "NVIDIA" in platform_name or "NVIDIA" in vendor
    khr = "cl_khr_subgroups" in ext or "cl_intel_subgroups" in ext or \
        (opencl_c[0] >= 3 and "__opencl_c_subgroups" in features)
    ballot = "cl_khr_subgroup_ballot" in ext
    shuffle = "cl_khr_subgroup_shuffle" in ext or "cl_intel_subgroups" in ext
    divergent_ok = "cl_khr_subgroup_non_uniform_vote" in ext or \
        "cl_khr_subgroup_non_uniform_arithmetic" in ext
    collectives = opencl_c[0] >= 3 and "__opencl_c_work_group_collective_functions" in features
    if nvptx:
        sizes = (32,)
    elif "cl_intel_required_subgroup_size" in ext:
        sizes = tuple(int(s) for s in sub_group_sizes)
    else:
        sizes = ()
    return DeviceCaps(
        name=device_name, backend="opencl", kind=kind, nvptx=nvptx, nv_sm=nv_sm,
        opencl_c=tuple(opencl_c), sub_groups=khr or nvptx,
        non_uniform_groups=nvptx or (khr and ballot and shuffle and divergent_ok),
        split_barriers=True,   # emulated with local memory on OpenCL
        fp64=bool(fp64_config) or "cl_khr_fp64" in ext,
        wg_collectives=opencl_c[0] == 2 or collectives, sub_group_sizes=sizes,
        max_work_group_size=int(max_work_group_size))


def cuda_caps(device_name, cc_major, cc_minor, warp_size=32,
              max_threads_per_block=0) -> DeviceCaps:
    """runtime/backends/cuda/cuda.c: every CUDA device has warps, divergent
    warp operations and fp64; split barriers need sm_80 (mbarrier, cp.async)."""
    return DeviceCaps(name=device_name, backend="cuda", kind="gpu",
                      nv_sm=cc_major * 10 + cc_minor, sub_groups=True,
                      non_uniform_groups=True, split_barriers=cc_major >= 8, fp64=True,
                      sub_group_sizes=(int(warp_size),),
                      max_work_group_size=int(max_threads_per_block))


def device_refusal(kernel, caps: DeviceCaps):
    """(message, left_out): why the device cannot run `kernel` in sgrt's
    words (None when it can), and whether the target's source leaves such a
    kernel out under -DSGC_SKIP_UNSUPPORTED_KERNELS (runtime/program.c
    kernel_refusal; Target.skips_unsupported_kernels): sub-groups or
    non-uniform groups the device lacks, a sub-group size other than 32 on
    the nvptx tier."""
    k, skips = kernel, target(caps.backend).skips_unsupported_kernels
    if k.requires.sub_groups and not caps.sub_groups:
        return (f"kernel '{k.name}' needs sub-groups (cl_khr_subgroups or cl_intel_subgroups), "
                f"not supported on device '{caps.name}'"), skips
    if k.requires.non_uniform_groups and not caps.non_uniform_groups:
        return (f"kernel '{k.name}' uses non-uniform groups (ballot, tangle or opportunistic), "
                f"which need sub-group operations in divergent control flow; device "
                f"'{caps.name}' does not offer them (no cl_khr_subgroup_non_uniform_vote/"
                f"arithmetic, or no ballot and shuffle)"), skips
    if k.requires.split_barriers and not caps.split_barriers:
        return (f"kernel '{k.name}' needs split barriers (mbarrier, sm_80 or newer), not "
                f"supported on device '{caps.name}'"), False
    want = k.reqd_sub_group_size
    if want and caps.sub_group_sizes and want not in caps.sub_group_sizes:
        return (f"kernel '{k.name}' requires sub-group size {want}, not supported on device "
                f"'{caps.name}'"), skips and caps.nvptx
    return None, False


def check_buildable(module, caps: DeviceCaps):
    """Raises UnsupportedError, with sgrt's message, when the device cannot
    build `module` (runtime/program.c check_buildable): no source, fp64, a
    kernel it cannot run that the source cannot leave out, or no kernel it
    can run.  Returns {kernel name: message} of the kernels the build
    leaves out, which Kernel() refuses by name."""
    source = module.source(caps.backend)
    if source is None:
        raise UnsupportedError(f"module '{module.name}' has no {caps.backend} source "
                               f"(compile it with target=\"all\" or \"{caps.backend}\")")
    if module.requires.fp64 and not caps.fp64:
        raise UnsupportedError(f"module '{module.name}' uses double, but device "
                               f"'{caps.name}' has no fp64 (cl_khr_fp64)")
    refused, in_source = {}, 0
    for k in module.kernels:
        if not k.supported(caps.backend):
            continue   # not in this source; kernel_refusal() refuses it by name
        in_source += 1
        why, left_out = device_refusal(k, caps)
        if why and not left_out:
            raise UnsupportedError(why)
        if why:
            refused[k.name] = why
    if in_source and len(refused) == in_source:
        raise UnsupportedError(next(iter(refused.values())))
    return refused


def wg_strategy_option(caps: DeviceCaps, strategy=None) -> str:
    """-DSGC_WG_STRATEGY=N for the strategy asked for (None: the device's
    best), refusing one the device lacks (sgrt_program_set_wg_strategy)."""
    name = strategy or caps.default_wg_strategy()
    if name not in WG_STRATEGIES:
        raise ValueError(f"unknown work-group strategy '{name}' (expected tree, builtin or "
                         f"subgroup)")
    if name not in caps.wg_strategies():
        row = target(caps.backend)
        needs = (row.wg_builtin_needs if name == "builtin"
                 else "sub-groups (cl_khr_subgroups or cl_intel_subgroups)")
        version = row.language_level(caps) if row.language_level else ""
        raise UnsupportedError(f"work-group strategy '{name}' needs {needs}, not supported "
                               f"on device '{caps.name}'{version}")
    return f"-DSGC_WG_STRATEGY={WG_STRATEGIES[name]}"


def opencl_device_options(caps: DeviceCaps):
    """runtime/backends/opencl/opencl.c cl_device_options: OpenCL C version, the NVIDIA tier
    defines, leaving refused kernels out, the CPU shape of the work-group
    tree, and the largest work-group, which sizes the work-group
    collectives' scratch (a slot per work-item; without it the source
    assumes 8192 on a CPU, 1024 elsewhere, and larger work-groups compute
    wrong values).  CUDA needs no such option (sgrt passes none): its
    collectives go through a fixed shared block in chunks."""
    opts = []
    if caps.opencl_c[0] >= 3:
        opts.append("-cl-std=CL3.0")
    elif caps.opencl_c[0] == 2:
        opts.append("-cl-std=CL2.0")
    if caps.nvptx:
        opts.append("-DSGC_NV_PTX=1")
        if caps.nv_sm:
            opts.append(f"-DSGC_NV_SM={caps.nv_sm}")
    opts.append("-DSGC_SKIP_UNSUPPORTED_KERNELS")
    if caps.kind == "cpu":
        opts.append("-DSGC_DEVICE_CPU=1")
    if caps.max_work_group_size > 0:
        opts.append(f"-DSGC_WG_MAX_ITEMS={caps.max_work_group_size}")
    return opts


def kernel_refusal(module, kernel, backend):
    """UnsupportedError for a kernel sgcc left out of `backend`'s source, as
    sgrt_kernel_get words it; None when the kernel is there."""
    if kernel.supported(backend):
        return None
    return UnsupportedError(f"kernel '{kernel.name}' of module '{module.name}' cannot run on "
                            f"{backend}: {kernel.unsupported_reason(backend)} (sgcc left it "
                            f"out of the {backend} source)")


def left_out_refusal(module, name, refused):
    """UnsupportedError for a kernel the build left out (check_buildable's
    `refused`), as sgrt_kernel_get words it; None when it was built."""
    why = (refused or {}).get(name)
    if why is None:
        return None
    return UnsupportedError(f"{why} (module '{module.name}' was built without it: "
                            f"-DSGC_SKIP_UNSUPPORTED_KERNELS)")
