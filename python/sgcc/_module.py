"""The translated module: sources plus the facts of `sgcc --emit-json`
(docs/module.schema.json), as read-only Python objects."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Tuple

from ._targets import NAMES

# Scalar type name -> (numpy dtype name, size in bytes).  size_t is 64-bit on
# every device sgcc targets (SGC size_t maps to OpenCL size_t / CUDA size_t).
SCALAR_TYPES = {
    "bool": ("bool", 1),
    "char": ("int8", 1),
    "uchar": ("uint8", 1),
    "short": ("int16", 2),
    "ushort": ("uint16", 2),
    "int": ("int32", 4),
    "uint": ("uint32", 4),
    "long": ("int64", 8),
    "ulong": ("uint64", 8),
    "float": ("float32", 4),
    "double": ("float64", 8),
    "size_t": ("uint64", 8),
}


@dataclass(frozen=True)
class Requires:
    """What a kernel (or, as a union, the module) needs from a device."""
    sub_groups: bool = False
    non_uniform_groups: bool = False
    split_barriers: bool = False
    fp64: bool = False
    work_group_collectives: bool = False

    @classmethod
    def from_json(cls, obj: Optional[Mapping[str, Any]]) -> "Requires":
        obj = obj or {}
        return cls(**{k: bool(obj.get(k, False)) for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Param:
    """A kernel parameter.  kind: "global", "constant", "local" or "scalar";
    type: the scalar type or pointee type (None for a struct); size: bytes of
    the by-value scalar or of one pointee element."""
    name: str
    kind: str
    type: Optional[str]
    size: int
    const: bool = False

    @property
    def is_pointer(self) -> bool:
        return self.kind != "scalar"

    def describe(self) -> str:
        """The parameter as sgrt's argument errors name it."""
        kinds = {"global": "global buffer", "constant": "constant buffer",
                 "local": "local (dynamic local memory)", "scalar": "by-value"}
        star = "" if self.kind == "scalar" else " *"
        return f"a {kinds.get(self.kind, self.kind)} parameter of type " \
               f"{self.type or 'struct'}{star} ({self.size} bytes)"

    def declaration(self) -> str:
        """The parameter as SGC declares it: `global const float *in`,
        `uint n`; a struct by value as `struct (16 bytes) s`."""
        type_ = self.type or f"struct ({self.size} bytes)"
        if self.kind == "scalar":
            return f"{type_} {self.name}"
        const = "const " if self.const else ""
        return f"{self.kind} {const}{type_} *{self.name}"


@dataclass(frozen=True)
class Kernel:
    name: str
    params: Tuple[Param, ...]
    reqd_work_group_size: Optional[tuple]   # (x, y, z); an element may be a spec-constant ref
    reqd_sub_group_size: Optional[int]
    requires: Requires
    backends: Mapping[str, Mapping[str, Any]]

    def supported(self, backend: str) -> bool:
        return bool(self.backends.get(backend, {}).get("supported", True))

    def signature(self) -> str:
        """`[[reqd_work_group_size(block, 1, 1)]] kernel void k(global int *o, uint n)`:
        the kernel as declared, its size attributes included."""
        attrs = ""
        if self.reqd_work_group_size is not None:
            dims = ", ".join(str(d.get("spec_constant", d.get("id"))) if isinstance(d, dict)
                             else str(d) for d in self.reqd_work_group_size)
            attrs += f"[[reqd_work_group_size({dims})]] "
        if self.reqd_sub_group_size:
            attrs += f"[[reqd_sub_group_size({self.reqd_sub_group_size})]] "
        params = ", ".join(p.declaration() for p in self.params) or "void"
        return f"{attrs}kernel void {self.name}({params})"

    def __repr__(self) -> str:
        return f"<sgcc.Kernel {self.signature()}>"

    def unsupported_reason(self, backend: str) -> Optional[str]:
        info = self.backends.get(backend, {})
        return None if info.get("supported", True) else info.get("reason")


@dataclass(frozen=True)
class SpecConstant:
    name: str
    id: int
    type: str
    required: bool
    default: Any
    default_spelling: Optional[str]
    macro: str


class Module:
    """One translated SGC source.  `sources` maps each target's name to its
    emitted text (None when the target was not asked for), also read as
    `<target>_source` (`opencl_source`, `cuda_source`) or `source(target)`;
    the rest comes from the module description (`description` is the whole
    JSON document).  Module(description, *sources): one source per target,
    in the order of the package's target table (sgcc/_targets.py)."""

    def __init__(self, description: Mapping[str, Any], *sources: Optional[str],
                 diagnostics=()):
        if len(sources) > len(NAMES):
            raise TypeError(f"sgcc.Module: {len(sources)} sources for {len(NAMES)} targets "
                            f"({', '.join(NAMES)})")
        self.description = description
        self.sources = dict(zip(NAMES, sources + (None,) * (len(NAMES) - len(sources))))
        self.diagnostics = tuple(diagnostics)
        self.name = description.get("module")
        self.source_file = description.get("source_file")
        self.sgcc_version = description.get("sgcc_version")
        self.spec_constants = tuple(_spec_from_json(s)
                                    for s in description.get("spec_constants", []))
        self.kernels = tuple(_kernel_from_json(k) for k in description.get("kernels", []))
        self.requires = Requires.from_json(description.get("requires"))
        self.backends = description.get("backends", {})

    def source(self, target: str) -> Optional[str]:
        """The emitted text for `target` (None: not asked for)."""
        if target not in self.sources:
            raise KeyError(f"sgcc has no target '{target}' (targets: {', '.join(NAMES)})")
        return self.sources[target]

    def __getattr__(self, attr: str):
        # <target>_source for every target of the table.  Only called for
        # attributes not found otherwise; vars() so that a half-built
        # object (copy, pickle) does not recurse.
        sources = vars(self).get("sources", {})
        if attr.endswith("_source") and attr[:-len("_source")] in sources:
            return sources[attr[:-len("_source")]]
        raise AttributeError(f"'Module' object has no attribute '{attr}'")

    def kernel(self, name: str) -> Kernel:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(f"module '{self.name}' has no kernel '{name}' "
                       f"(kernels: {', '.join(k.name for k in self.kernels) or 'none'})")

    def spec_constant(self, key) -> SpecConstant:
        """By name (str) or by ID (int)."""
        from ._spec import find_spec
        return find_spec(self, key)

    def __repr__(self) -> str:
        return (f"<sgcc.Module {self.name!r}: kernels "
                f"{[k.name for k in self.kernels]}, spec constants "
                f"{[s.name for s in self.spec_constants]}>")


def _spec_from_json(obj) -> SpecConstant:
    return SpecConstant(name=obj["name"], id=int(obj["id"]), type=obj["type"],
                        required=bool(obj.get("required", False)), default=obj.get("default"),
                        default_spelling=obj.get("default_spelling"),
                        macro=obj.get("macro") or f"SGC_SPEC_{obj['id']}")


def _kernel_from_json(obj) -> Kernel:
    params = tuple(Param(name=p["name"], kind=p["kind"], type=p.get("type"),
                         size=int(p.get("size") or 0), const=bool(p.get("const", False)))
                   for p in obj.get("params", []))
    wg = obj.get("reqd_work_group_size")
    return Kernel(name=obj["name"], params=params,
                  reqd_work_group_size=tuple(wg) if wg is not None else None,
                  reqd_sub_group_size=obj.get("reqd_sub_group_size"),
                  requires=Requires.from_json(obj.get("requires")),
                  backends=obj.get("backends") or {})
