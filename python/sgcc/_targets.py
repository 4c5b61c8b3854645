"""The targets of sgcc, as the Python package knows them: one row each.

A target is at once sgcc's (`-t NAME`, compiler/emit/targets.def), the
module description's key under "backends", and sgrt's backend of the same
name (runtime/device.c's registry); DeviceCaps.backend holds that name.
The rest of the package reads this table instead of naming targets: a
target added to sgcc is a row here (docs/DESIGN.md "Adding a target").  The
policies mirror sgrt's SgrtBackend fields of the same names
(runtime/sgrt_internal.h), so that Python hosts refuse with sgrt's words."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Tuple


@dataclass(frozen=True)
class Target:
    name: str        # sgcc -t NAME; the module description's "backends" key
    extension: str   # of the emitted source: `sgcc -o OUT` writes OUT + extension
    api: str         # in messages
    # The emitted source leaves out, under -DSGC_SKIP_UNSUPPORTED_KERNELS,
    # the kernels a device lacks sub-groups or non-uniform groups for (and,
    # on the nvptx tier, a sub-group size other than 32).
    skips_unsupported_kernels: bool
    # What the 'builtin' work-group strategy needs, in its refusal.
    wg_builtin_needs: str
    # The device's language level in that refusal (" (OpenCL C 1.2)"), from
    # its DeviceCaps; None: none.
    language_level: Optional[Callable[[object], str]] = None
    # The capability tier of every device of the target; None: the tier
    # follows the device's capabilities (OpenCL: nvptx, khr, wg).
    fixed_tier: Optional[str] = None


def _opencl_c_level(caps) -> str:
    return f" (OpenCL C {caps.opencl_c[0]}.{caps.opencl_c[1]})"


TARGETS: Tuple[Target, ...] = (
    Target("opencl", ".cl", "OpenCL", skips_unsupported_kernels=True,
           wg_builtin_needs="OpenCL C 2.0 work-group collective functions (work_group_reduce_*; "
                            "OpenCL C 2.x, or 3.x with "
                            "__opencl_c_work_group_collective_functions)",
           language_level=_opencl_c_level),
    Target("cuda", ".cu", "CUDA", skips_unsupported_kernels=False,
           wg_builtin_needs="OpenCL C 2.0 work-group collective functions, which CUDA does not "
                            "have",
           fixed_tier="cuda"),
)

# The target names in the table's order (sgcc's, and Module()'s positional
# sources).
NAMES: Tuple[str, ...] = tuple(t.name for t in TARGETS)


def target(name: str) -> Target:
    """The row of target `name`; ValueError for an unknown name."""
    for t in TARGETS:
        if t.name == name:
            return t
    raise ValueError(f"unknown sgcc target '{name}' (targets: {', '.join(NAMES)})")
